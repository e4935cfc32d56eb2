# alloc.sh: trace-record --alloc, sourced by run.sh (its TR, BIN, CC,
# tmp, top, ok, bad and expect).  Statistical: alloc.c's known bytes by
# call path, within the issue's points, at the default interval
# (512 KiB: 2,000 samples a GiB, so a share's error is about a point);
# then a forked child, a program with its own malloc, a static one and
# one killed by a signal.

# pct FOLDED PATTERN...: each pattern's percent of the total weight,
# then the total.
pct() {
	f=$1
	shift
	awk -v pats="$*" 'BEGIN { n = split(pats, p, " ") }
	    { t += $NF; for (i = 1; i <= n; i++) if ($0 ~ p[i]) w[i] += $NF }
	    END { for (i = 1; i <= n; i++) printf "%.1f ", t ? 100 * w[i] / t : 0; printf "%.0f\n", t }' "$f"
}

if ! $CC -O1 -g -fno-omit-frame-pointer -o "$tmp/alloc" "$top/tests/sample/alloc.c" \
    2> "$tmp/alloc.cc"; then
	bad "build alloc.c" "$(head -c 300 "$tmp/alloc.cc")"
else
	# 70/30 of 1 GiB by malloc, calloc and realloc, whole paths.
	"$TR" --alloc --folded -o "$tmp/split.f" -- "$tmp/alloc" split 1024 > /dev/null 2> "$tmp/split.err"
	expect "--alloc split: exit status" $? 0
	got=$(pct "$tmp/split.f" ';main;split;path_a;round_of ' ';main;split;path_b;round_of ')
	if echo "$got" | awk '{ exit !($1 >= 65 && $1 <= 75 && $2 >= 25 && $2 <= 35 && $1 + $2 >= 99.9) }'; then
		ok "--alloc: path_a, path_b $(echo $got | cut -d' ' -f1,2)% (70, 30 ±5)"
	else
		bad "--alloc split" "path_a, path_b, total: $got (want 70±5, 30±5); $(tr '\n' ' ' < "$tmp/split.err")"
	fi

	# The same built without frame pointers, as Debian builds its
	# programs: --call-graph=dwarf walks the CFI to whole paths.
	if $CC -O1 -g -fomit-frame-pointer -o "$tmp/alloc-nofp" "$top/tests/sample/alloc.c" \
	    2> "$tmp/alloc.cc"; then
		"$TR" --alloc --call-graph=dwarf --folded -o "$tmp/split-dw.f" -- \
		    "$tmp/alloc-nofp" split 1024 > /dev/null 2> "$tmp/split-dw.err"
		expect "--alloc --call-graph=dwarf: exit status" $? 0
		got=$(pct "$tmp/split-dw.f" ';main;split;path_a;round_of ' ';main;split;path_b;round_of ')
		if echo "$got" | awk '{ exit !($1 >= 65 && $1 <= 75 && $2 >= 25 && $2 <= 35 && $1 + $2 >= 99.9) }'; then
			ok "--alloc --call-graph=dwarf, no frame pointers: path_a, path_b $(echo $got | cut -d' ' -f1,2)% (70, 30 ±5)"
		else
			bad "--alloc --call-graph=dwarf" "path_a, path_b, total: $got (want 70±5, 30±5); $(tr '\n' ' ' < "$tmp/split-dw.err")"
		fi
	else
		bad "build alloc.c without frame pointers" "$(head -c 300 "$tmp/alloc.cc")"
	fi

	# 64 MiB leaked by one path, 256 MiB more freed by another.
	"$TR" --alloc=inuse_space --folded -o "$tmp/leak.f" -- "$tmp/alloc" leak 256 2> "$tmp/leak.err"
	expect "--alloc=inuse_space: exit status" $? 0
	got=$(pct "$tmp/leak.f" ';main;leak_path ')
	if echo "$got" | awk '{ m = 64 * 1048576; exit !($1 >= 90 && $2 >= 0.75 * m && $2 <= 1.25 * m) }'; then
		ok "--alloc=inuse_space: leak_path $(echo $got | cut -d' ' -f1)%, $(echo $got | cut -d' ' -f2) bytes (90%+, 64 MiB ±25%)"
	else
		bad "--alloc=inuse_space" "leak_path %, bytes: $got (want 90+, 64 MiB ±25%); $(tr '\n' ' ' < "$tmp/leak.err")"
	fi

	# 64 MiB held, 128 MiB at once (freed), 384 MiB of 4 KiB blocks.
	"$TR" --alloc --folded -o "$tmp/peak1.f" -- "$tmp/alloc" peak 2> "$tmp/peak1.err"
	expect "--alloc, three phases: exit status" $? 0
	got=$(pct "$tmp/peak1.f" ';hold_path;leak_path ' ';main;big_path ' ';main;small_path ')
	if echo "$got" | awk '{ exit !($1 >= 6.1 && $1 <= 16.1 && $2 >= 17.2 && $2 <= 27.2 && $3 >= 61.7 && $3 <= 71.7) }'; then
		ok "--alloc=alloc_space: held, big, small $(echo $got | cut -d' ' -f1-3)% (11.1, 22.2, 66.7 ±5)"
	else
		bad "--alloc=alloc_space, three phases" "held, big, small, total: $got (want 11.1, 22.2, 66.7 ±5)"
	fi
	"$TR" --alloc=peak_space --folded -o "$tmp/peak2.f" -- "$tmp/alloc" peak 2> "$tmp/peak2.err"
	expect "--alloc=peak_space: exit status" $? 0
	got=$(pct "$tmp/peak2.f" ';main;big_path ' ';main;small_path ')
	if echo "$got" | awk '{ m = 192 * 1048576; exit !($1 >= 58.7 && $1 <= 74.7 && $2 < 1 && $3 >= 0.75 * m && $3 <= 1.25 * m) }'; then
		ok "--alloc=peak_space: big_path $(echo $got | cut -d' ' -f1)%, $(echo $got | cut -d' ' -f3) bytes (66.7 ±8, 192 MiB ±25%)"
	else
		bad "--alloc=peak_space" "big, small, total: $got (want 66.7±8, 0, 192 MiB ±25%); $(tr '\n' ' ' < "$tmp/peak2.err")"
	fi

	# The objects: 1 GiB in blocks of 32 KiB on average, about 34,500.
	# A sample of s bytes stands for R/s objects, thousands for the
	# smallest, so the shares are looser than the bytes': ±8.
	"$TR" --alloc=alloc_objects --folded -o "$tmp/obj.f" -- "$tmp/alloc" split 1024 > /dev/null 2> "$tmp/obj.err"
	got=$(pct "$tmp/obj.f" ';path_a;')
	if echo "$got" | awk '{ exit !($1 >= 62 && $1 <= 78 && $2 >= 27600 && $2 <= 41400) }'; then
		ok "--alloc=alloc_objects: path_a $(echo $got | cut -d' ' -f1)%, $(echo $got | cut -d' ' -f2) objects (70 ±8, 34,500 ±20%)"
	else
		bad "--alloc=alloc_objects" "path_a %, objects: $got (want 70±8, 34,500±20%)"
	fi

	# The text is perf script's, its event the type; as pprof, a heap
	# profile of that type.
	"$TR" --alloc=inuse_space -o "$tmp/leak.txt" -- "$tmp/alloc" leak 64 2> /dev/null
	expect "--alloc: perf script text, event inuse_space" \
	    "$(grep -c ' inuse_space: $' "$tmp/leak.txt" | awk '{ print ($1 > 50) }')" 1
	"$BIN/stackcollapse" "$tmp/leak.txt" > "$tmp/leak2.f"
	expect "--alloc: stackcollapse folds the text" "$(pct "$tmp/leak2.f" ';main;leak_path ' | awk '{ print ($1 >= 90) }')" 1
	if command -v go > /dev/null 2>&1 && "$BIN/stackcollapse" --to=pprof "$tmp/leak.txt" > "$tmp/leak.pb.gz" &&
	    HOME=$tmp go tool pprof -top "$tmp/leak.pb.gz" > "$tmp/leak.top" 2> /dev/null; then
		expect "--alloc, stackcollapse --to=pprof: go tool pprof's type and unit" \
		    "$(grep -c '^Type: inuse_space$' "$tmp/leak.top") $(grep -c 'MB total$' "$tmp/leak.top")" "1 1"
	else
		printf 'skip --alloc as pprof: no go\n'
	fi

	# fork without exec: the child's allocations are its own.
	"$TR" --alloc -o "$tmp/fork.txt" -- "$tmp/alloc" fork 512 > /dev/null 2> "$tmp/fork.err"
	expect "--alloc fork: exit status" $? 0
	"$BIN/stackcollapse" --pid "$tmp/fork.txt" > "$tmp/fork.f"
	expect "--alloc fork: two processes in path_a" \
	    "$(grep ';path_a;' "$tmp/fork.f" | cut -d';' -f1 | sort -u | wc -l | tr -d ' ')" 2
	got=$(pct "$tmp/fork.f" ';path_a;')
	if echo "$got" | awk '{ m = 1.1 * 1048576 * 1024; exit !($1 >= 65 && $1 <= 75 && $2 >= 0.75 * m && $2 <= 1.25 * m) }'; then
		ok "--alloc fork: path_a $(echo $got | cut -d' ' -f1)%, $(echo $got | cut -d' ' -f2) bytes in both"
	else
		bad "--alloc fork" "path_a %, bytes: $got (want 70±5, 1.1 GiB±25%)"
	fi

	# Killed by a signal: what was sampled is written, the status 137.
	"$TR" --alloc=inuse_space --folded -o "$tmp/kill.f" -- "$tmp/alloc" kill 2> "$tmp/kill.err"
	expect "--alloc, killed: exit status" $? 137
	expect "--alloc, killed: leak_path kept" "$(pct "$tmp/kill.f" ';main;leak_path ' | awk '{ print ($1 >= 90) }')" 1
fi

# A malloc of its own, in the executable: it runs as alone, and nothing
# sampled is said.
if $CC -O1 -g -DOWN_MALLOC -o "$tmp/alloc-own" "$top/tests/sample/alloc.c" 2> /dev/null; then
	"$TR" --alloc -o "$tmp/own.txt" -- "$tmp/alloc-own" split 64 > "$tmp/own.out" 2> "$tmp/own.err"
	expect "--alloc, own malloc: exit status and output" "$? $(cut -c1-7 "$tmp/own.out")" "0 path_a "
	expect "--alloc, own malloc: said" "$(grep -c '^trace-record: no allocation was sampled: .* its malloc is its own' "$tmp/own.err")" 1
fi

# A static program: the preload cannot happen; said, 125.
if $CC -static -O1 -o "$tmp/alloc-static" "$top/tests/sample/alloc.c" > /dev/null 2>&1; then
	"$TR" --alloc -o /dev/null -- "$tmp/alloc-static" split 16 > /dev/null 2> "$tmp/static.err"
	expect "--alloc, a static program: 125, said" \
	    "$? $(grep -c 'loaded into no process of the program: it is statically linked' "$tmp/static.err")" "125 1"
else
	printf 'skip --alloc, a static program: no static C library\n'
fi
