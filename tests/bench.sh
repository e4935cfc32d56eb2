#!/bin/sh
# make bench: wall time and MB/s of stackcollapse against references run on
# the same file in the same run: `wc -l` (the I/O floor) and, when
# FLAMEGRAPH_DIR names a FlameGraph checkout, stackcollapse-perf.pl.
# Inputs: FlameGraph's example-perf-stacks (from ../shared/corpus) and a
# capture of at least 100 MB recorded here with perf (BENCH_CAPTURE names an
# existing one instead).  Times are the best of 5 (the Perl: 1 run); peak
# RSS comes from GNU time when it is installed.  INFERNO_DIR names a
# directory holding inferno-collapse-perf and inferno-flamegraph
# (tests/build-inferno.sh builds them offline): columns against inferno,
# wall and CPU time.  FG names another flamegraph-svg to time in place of
# bin/'s (a build of another commit, say).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
SC="$top/bin/stackcollapse"
CORPUS=${CORPUS:-$top/../shared/corpus}
dir="$top/build/bench"
mkdir -p "$dir"

now() { date +%s%N; }

# best TIMES REPS CMD...: the fastest run, measured by hyperfine when it is
# installed (it execs directly, with no shell in between).  Without it: the
# best over TIMES batches of the wall time of
# one run, each batch timing REPS runs back to back (so that short runs
# are not lost in the clock's and the shell's own overhead).
best() {
	times=$1
	reps=$2
	shift 2
	if command -v hyperfine > /dev/null 2>&1; then
		runs=$((times * reps))
		[ $runs -lt 2 ] && runs=2
		w=1
		[ "$reps" -eq 1 ] && w=0
		hyperfine -N -w $w -r $runs --export-csv "$dir/hf.csv" -- "$*" \
		    > /dev/null 2>&1 &&
		    awk -F, 'NR == 2 { printf "%.4f", $7 }' "$dir/hf.csv" && return
	fi
	b=
	i=0
	while [ $i -lt "$times" ]; do
		t0=$(now)
		r=0
		while [ $r -lt "$reps" ]; do
			"$@" > /dev/null 2>&1
			r=$((r + 1))
		done
		t1=$(now)
		t=$(((t1 - t0) / reps))
		if [ -z "$b" ] || [ $t -lt "$b" ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b" | awk '{ printf "%.4f", $1 / 1e9 }'
}

# runs N CMD...: CMD N times, GNU time's "wall user sys" of them in $dir/cpu.
runs() {
	/usr/bin/time -f '%e %U %S' -o "$dir/cpu" sh -c 'n=$1; shift; i=0
	    while [ $i -lt "$n" ]; do "$@" > /dev/null 2>&1; i=$((i + 1)); done' sh "$@"
}

# cpu_best CMD...: "WALL CPU" in seconds per run, each the best of 5
# batches (CPU: user + sys, from GNU time): the machine is shared, and CPU
# time moves less with the load than wall time does.  A batch is one run,
# or as many as make about a second for short ones: GNU time counts in
# hundredths, so a run under a millisecond is timed by the thousand (its
# count found from 20 runs, as one reads 0.00).
cpu_best() {
	/usr/bin/time -f '%e' -o "$dir/cpu" "$@" > /dev/null 2>&1 || true
	if awk '{ exit !($1 < 0.05) }' "$dir/cpu"; then
		runs 20 "$@"
		n=$(awk '{ t = $1 / 20; n = int(1 / (t > 0.0002 ? t : 0.0002)); print n < 1 ? 1 : n }' "$dir/cpu")
	else
		n=$(awk '{ n = int(1 / $1); print n < 1 ? 1 : n }' "$dir/cpu")
	fi
	for i in 1 2 3 4 5; do
		runs "$n" "$@" && tail -n 1 "$dir/cpu"
	done | awk -v n="$n" '{ c = $2 + $3 } NR == 1 || $1 < w { w = $1 }
	    NR == 1 || c < b { b = c } END { printf "%.6f %.6f", w / n, b / n }'
}

inputs=
if [ -f "$CORPUS/flamegraph/example-perf-stacks.txt.gz" ]; then
	gzip -dc "$CORPUS/flamegraph/example-perf-stacks.txt.gz" > "$dir/example-perf-stacks.txt"
	inputs="$dir/example-perf-stacks.txt"
else
	echo "note: $CORPUS not found, example-perf-stacks skipped"
fi

big=${BENCH_CAPTURE:-$dir/system-wide.perf.txt}
if [ ! -s "$big" ] && command -v perf > /dev/null 2>&1; then
	echo "recording a system-wide capture (about 30 s)..."
	(
		end=$(($(date +%s) + 28))
		while [ "$(date +%s)" -lt "$end" ]; do
			python3 "$top/tests/data/demo-workload.py" > /dev/null
		done
	) &
	load1=$!
	(
		end=$(($(date +%s) + 28))
		while [ "$(date +%s)" -lt "$end" ]; do
			gzip -dc "$top/tests/data/demo-python-dwarf.perf.txt.gz" |
			    xz -6 > /dev/null
		done
	) &
	load2=$!
	perf record -e cpu-clock -a -g -F 9999 -o "$dir/system-wide.data" \
	    -- sleep 30 > /dev/null 2>&1 || true
	wait $load1 $load2 || true
	perf script -i "$dir/system-wide.data" > "$big" 2> /dev/null || true
	rm -f "$dir/system-wide.data"
fi
if [ -s "$big" ]; then
	inputs="$inputs $big"
else
	echo "note: no large capture (perf not usable here); set BENCH_CAPTURE"
fi

echo
echo "machine: $(uname -m), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
printf '%-26s %7s %8s %16s %16s %8s %8s %6s %9s\n' file MB "wc -l s" \
    "sc -j1 s (x wc)" "sc s (x wc)" "perl s" "vs perl" "MB/s" "peak RSS"
for f in $inputs; do
	cat "$f" > /dev/null
	mb=$(wc -c < "$f" | awk '{ printf "%.1f", $1 / 1048576 }')
	reps=1
	[ "$(wc -c < "$f")" -lt 33554432 ] && reps=20
	wc=$(best 5 $reps wc -l "$f")
	j1=$(best 5 $reps "$SC" -j1 --all "$f")
	jn=$(best 5 $reps "$SC" --all "$f")
	rss=$( (/usr/bin/time -f %M "$SC" --all "$f" > /dev/null) 2>&1 | tail -n 1)
	perl=-
	vs=-
	if [ -n "${FLAMEGRAPH_DIR:-}" ]; then
		perl=$(best 1 2 perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --all "$f")
		vs=$(echo "$perl $jn" | awk '{ printf "%.0fx", $1 / $2 }')
	fi
	if [ -n "${INFERNO_DIR:-}" ] && [ -x /usr/bin/time ]; then
		set -- $(cpu_best "$SC" -j1 --all "$f") $(cpu_best "$SC" --all "$f") \
		    $(cpu_best "$INFERNO_DIR/inferno-collapse-perf" --all "$f") \
		    $(cpu_best wc -l "$f")
		echo "$@" | awk -v f="$(basename "$f")" 'function d(x) { return x > 0 ? x : 1e-9 }
		    { printf "  %s, wall (CPU) s: ours -j1 %.4f (%.4f), ours %.4f (%.4f), inferno %.4f (%.4f), wc -l %.4f (%.4f); inferno / ours %.2fx (CPU %.2fx), ours / wc -l %.1fx (CPU %.1fx)\n",
		    f, $1, $2, $3, $4, $5, $6, $7, $8, $5 / d($3), $6 / d($4), $3 / d($7), $4 / d($8) }' > "$dir/inf-$$.txt"
	fi
	x1=$(echo "$j1 $wc" | awk '{ printf "%.1f", $1 / $2 }')
	xn=$(echo "$jn $wc" | awk '{ printf "%.1f", $1 / $2 }')
	mbs=$(echo "$mb $jn" | awk '{ printf "%.0f", $1 / $2 }')
	printf '%-26s %7s %8s %16s %16s %8s %8s %6s %9s\n' "$(basename "$f")" "$mb" \
	    "$wc" "$j1 ($x1)" "$jn ($xn)" "$perl" "$vs" "$mbs" "${rss:-?} KB"
	[ -f "$dir/inf-$$.txt" ] && cat "$dir/inf-$$.txt" && rm -f "$dir/inf-$$.txt"
done

# flamegraph-svg against flamegraph.pl: time and SVG size on the same
# folded input (the issue's two inputs, when the corpus is there).
FG=${FG:-"$top/bin/flamegraph-svg"}
fgin=
[ -f "$CORPUS/flamegraph/test/results/perf-vertx-stacks-01-collapsed-all.txt" ] &&
    fgin="$CORPUS/flamegraph/test/results/perf-vertx-stacks-01-collapsed-all.txt"
if [ -s "$dir/example-perf-stacks.txt" ]; then
	"$SC" "$dir/example-perf-stacks.txt" > "$dir/example-perf-stacks.folded"
	fgin="$fgin $dir/example-perf-stacks.folded"
fi
if [ -n "$fgin" ]; then
	echo
	printf '%-42s %8s %10s %10s %9s %9s %7s\n' "flamegraph-svg input" frames \
	    "ours s" "perl s" "vs perl" "SVG KB" "vs perl"
	for f in $fgin; do
		"$FG" "$f" > "$dir/ours.svg" 2> /dev/null
		frames=$(grep -o '<title>' "$dir/ours.svg" | wc -l)
		t=$(best 5 10 "$FG" "$f")
		kb=$(wc -c < "$dir/ours.svg" | awk '{ printf "%.1f", $1 / 1024 }')
		perl=- vs=- sz=-
		if [ -n "${FLAMEGRAPH_DIR:-}" ]; then
			perl "$FLAMEGRAPH_DIR/flamegraph.pl" "$f" > "$dir/perl.svg" 2> /dev/null
			perl=$(best 1 3 perl "$FLAMEGRAPH_DIR/flamegraph.pl" "$f")
			vs=$(echo "$perl $t" | awk '{ printf "%.0fx", $1 / $2 }')
			sz=$(echo "$(wc -c < "$dir/ours.svg") $(wc -c < "$dir/perl.svg")" |
			    awk '{ printf "%.2f", $1 / $2 }')
		fi
		printf '%-42s %8s %10s %10s %9s %9s %7s\n' "$(basename "$f")" "$frames" \
		    "$t" "$perl" "$vs" "$kb" "$sz"
	done
fi

# flamegraph-svg against inferno-flamegraph at equal elision (--minwidth
# 0.01%, inferno's default).  The inputs that count are large: two made
# here by seeded generators, 200k stacks of short names and 100k stacks
# of 5 to 40 frames of 30-byte names (about 45 MB); then the system-wide
# capture, collapsed, and the corpus's small captures.  Wall and CPU time,
# best of 5; x: inferno's time over ours; peak RSS of one run of each.
if [ -n "${INFERNO_DIR:-}" ] && [ -x /usr/bin/time ]; then
	awk 'BEGIN { srand(1); for (i = 0; i < 200000; i++) {
	    s = "main"; d = 1 + int(rand() * 12)
	    for (j = 0; j < d; j++) s = s ";f" int(rand() * 40)
	    print s, 1 + int(rand() * 100) } }' > "$dir/gen-200k.folded"
	awk 'BEGIN { srand(2); for (i = 0; i < 100000; i++) {
	    s = ""; d = 5 + int(36 * rand() ^ 2.5)
	    for (j = 0; j < d; j++)
		s = s (j ? ";" : "") sprintf("mod%03d::Class%03d::method%06d", j,
		    int(rand() * 8), int(rand() * 30))
	    print s, 1 + int(rand() * 1000) } }' > "$dir/gen-100k-deep.folded"
	"$SC" "$big" > "$dir/system-wide.folded" 2> /dev/null || true
	echo
	printf '%-24s %6s %7s %6s %15s %15s %11s %9s %9s\n' "flamegraph-svg vs inferno" \
	    MB frames "inf fr" "ours ms (CPU)" "inferno (CPU)" "x (CPU x)" \
	    "RSS KB" "inf RSS"
	for f in "$dir/gen-200k.folded" "$dir/gen-100k-deep.folded" \
	    "$dir/system-wide.folded" "$CORPUS"/captures/*.collapsed-all.txt.gz; do
		[ -s "$f" ] || continue
		case $f in
		*.gz) gzip -dc "$f" > "$dir/fgi.folded" ;;
		*) cp "$f" "$dir/fgi.folded" ;;
		esac
		fr=$("$FG" --minwidth 0.01% "$dir/fgi.folded" 2> /dev/null | grep -o '<title>' | wc -l)
		ifr=$("$INFERNO_DIR/inferno-flamegraph" "$dir/fgi.folded" 2> /dev/null |
		    grep -o '<g>' | wc -l)
		/usr/bin/time -f %M -o "$dir/rss1" "$FG" --minwidth 0.01% "$dir/fgi.folded" > /dev/null 2>&1
		/usr/bin/time -f %M -o "$dir/rss2" "$INFERNO_DIR/inferno-flamegraph" \
		    --minwidth 0.01 "$dir/fgi.folded" > /dev/null 2>&1
		set -- $(cpu_best "$FG" --minwidth 0.01% "$dir/fgi.folded") \
		    $(cpu_best "$INFERNO_DIR/inferno-flamegraph" --minwidth 0.01 "$dir/fgi.folded") \
		    $(tail -n 1 "$dir/rss1") $(tail -n 1 "$dir/rss2")
		echo "$(basename "$f" .txt.gz | sed 's/\.collapsed-all$//; s/\.folded$//') \
		    $(wc -c < "$dir/fgi.folded") $fr $ifr $*" | awk '
		    function x(a, b) { return a / (b > 0 ? b : 1e-9) } {
		    printf "%-24s %6.1f %7d %6d %6.1f (%.1f) %6.1f (%.1f) %4.2f (%4.2f) %9d %9d\n",
		    $1, $2 / 1048576, $3, $4, $5 * 1e3, $6 * 1e3, $7 * 1e3, $8 * 1e3,
		    x($7, $5), x($8, $6), $9, $10 }'
	done
fi

# The size budget (issue 30, at most 0.90): the median of our SVG's size over
# flamegraph.pl's on the corpus's real captures, raw and gzip -9.
caps=$(ls "$CORPUS"/captures/*.collapsed-default.txt.gz 2> /dev/null)
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -n "$caps" ]; then
	for f in $caps; do
		gzip -dc "$f" > "$dir/cap.folded"
		"$FG" "$dir/cap.folded" > "$dir/ours.svg" 2> /dev/null
		perl "$FLAMEGRAPH_DIR/flamegraph.pl" "$dir/cap.folded" > "$dir/perl.svg" 2> /dev/null
		echo "$(wc -c < "$dir/ours.svg") $(wc -c < "$dir/perl.svg") \
		    $(gzip -9c "$dir/ours.svg" | wc -c) $(gzip -9c "$dir/perl.svg" | wc -c) \
		    $(sed -n '/^<script><!\[CDATA\[/,$p' "$dir/ours.svg" | wc -c)"
	done | awk '{ r[NR] = $1 / $2; g[NR] = $3 / $4; s[NR] = ($1 - $5) / $2; js = $5 }
	    function med(a, n,    i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	    END { printf "\nSVG size vs flamegraph.pl, median of %d captures: %.3f (gzip -9: %.3f)\n",
		NR, med(r, NR), med(g, NR)
		printf "  of which the script, %d bytes; without it: %.3f\n", js, med(s, NR) }'
fi

# In the browser: first render, one click-zoom and one search, for our SVG
# and flamegraph.pl's of the same input, and for a graph of about 50,000
# frames (made here from a seeded random generator); for ours, the views.
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
if [ -n "$CHROMIUM" ] && command -v node > /dev/null 2>&1 &&
    [ -s "$dir/example-perf-stacks.folded" ]; then
	awk 'BEGIN { srand(42); for (i = 0; i < 10000; i++) { s = "main";
	    d = 3 + int(rand() * 8); for (j = 0; j < d; j++)
	    s = s ";" sprintf("%c%d", 97 + int(rand() * 26), int(rand() * 3));
	    print s, 1 + int(rand() * 9) } }' > "$dir/big.folded"
	"$FG" "$dir/example-perf-stacks.folded" > "$dir/example-ours.svg"
	"$FG" --minwidth 0 "$dir/big.folded" > "$dir/big-ours.svg"
	# issue 30: a graph of 100k frames opens in under a second
	awk 'BEGIN { srand(42); for (i = 0; i < 22000; i++) { s = "main";
	    d = 3 + int(rand() * 8); for (j = 0; j < d; j++)
	    s = s ";" sprintf("%c%d", 97 + int(rand() * 26), int(rand() * 3));
	    print s, 1 + int(rand() * 9) } }' > "$dir/big100.folded"
	"$FG" --minwidth 0 "$dir/big100.folded" > "$dir/big100-ours.svg"
	# --diff (issue 18's toggles): the same stacks after a change, a
	# quarter of them tripled, one in twenty gone, 500 new
	awk 'BEGIN { srand(7) } { n = $NF; $NF = ""; r = rand(); if (r < 0.05) next
	    print $0 (r < 0.3 ? n * 3 : n) } END { for (i = 0; i < 500; i++)
	    print "main;new" i ";z", 1 + int(rand() * 9) }' "$dir/big.folded" > "$dir/big-after.folded"
	"$FG" --minwidth 0 --diff "$dir/big.folded" "$dir/big-after.folded" > "$dir/big-diff.svg"
	set -- "example-perf-stacks, flamegraph-svg=$dir/example-ours.svg" \
	    "50k frames, flamegraph-svg=$dir/big-ours.svg" \
	    "100k frames, flamegraph-svg=$dir/big100-ours.svg" \
	    "50k frames, --diff=$dir/big-diff.svg"
	if [ -n "${FLAMEGRAPH_DIR:-}" ]; then
		perl "$FLAMEGRAPH_DIR/flamegraph.pl" "$dir/example-perf-stacks.folded" \
		    > "$dir/example-perl.svg" 2> /dev/null
		perl "$FLAMEGRAPH_DIR/flamegraph.pl" --minwidth 0 "$dir/big.folded" \
		    > "$dir/big-perl.svg" 2> /dev/null
		set -- "$@" "example-perf-stacks, flamegraph.pl=$dir/example-perl.svg" \
		    "50k frames, flamegraph.pl=$dir/big-perl.svg"
	fi
	echo
	node "$top/tests/browser/bench.js" "$CHROMIUM" "$@"
else
	echo
	echo "note: browser timings skipped (need node and chromium)"
fi

# trace-record: the cost of a span against two rdtsc and two
# clock_gettime reads in the same run (recording off, on with the TSC, on
# with the library reading CLOCK_MONOTONIC; 1 and 2 threads), then a real
# C program, Lua, built with -finstrument-functions: plain, under
# trace-record and under uftrace.  LUA_SRC names Lua's sources (a
# directory of l*.c); otherwise Debian's lua5.4 source package is fetched
# with a temporary deb-src list.
echo
TR="$top/bin/trace-record"
SL="$top/bin/spanlayout"
LIBTR="$top/build/rel/libtracerecord.a"
CC=${CC:-cc}
$CC -O2 -I"$top/src/libtracerecord" -o "$dir/overhead" "$top/tests/trace/overhead.c" \
    "$LIBTR" -lpthread
printf '%-34s %10s %10s %10s %10s %10s\n' "span cost, ns (2 reads = ref)" "2x rdtsc" \
    "2x gettime" "span" "/rdtsc" "/gettime"
for th in 1 2; do
	# Best of 5 runs by span cost, with that run's own references.  The
	# runs of the three builds alternate, so a noisy minute on this shared
	# machine falls on all of them rather than on one.
	r_off= r_tsc= r_mono=
	for i in 1 2 3 4 5; do
		for how in off tsc mono; do
			case $how in
			off) x=$("$dir/overhead" $th 20000000) ;;
			tsc) x=$("$TR" -o /dev/null "$dir/overhead" $th 4000000) ;;
			mono) x=$("$TR" --clock mono -o /dev/null "$dir/overhead" $th 4000000) ;;
			esac
			eval "r=\$r_$how"
			r=$(printf '%s\n%s\n' "$r" "$x" | awk 'NF == 6' | sort -g -k6,6 | head -n 1)
			eval "r_$how=\$r"
		done
	done
	for how in off tsc mono; do
		eval "r=\$r_$how"
		echo "$r" | awk -v l="recording $how, $th thread(s)" '{
		    printf "%-34s %10.2f %10.2f %10.2f %10.2f %10.2f\n", l, $2, $4, $6, $6 / $2, $6 / $4 }'
	done
	echo "$r_mono $r_tsc" | awk -v l="span on gettime / on TSC, $th thr" '{
	    printf "%-34s %10s %10s %10.2f\n", l, "", "", $6 / $12 }'
done

src=${LUA_SRC:-}
if [ -z "$src" ]; then
	d="$dir/lua-deb"
	if [ ! -d "$d" ] && command -v apt-get > /dev/null 2>&1; then
		mkdir -p "$d/lists/partial"
		echo "deb-src http://deb.debian.org/debian bookworm main" > "$d/src.list"
		( cd "$d" && apt-get -o Dir::Etc::SourceList="$d/src.list" \
		    -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$d/lists" \
		    update > /dev/null 2>&1 &&
		  apt-get -o Dir::Etc::SourceList="$d/src.list" -o Dir::Etc::SourceParts=/dev/null \
		    -o Dir::State::Lists="$d/lists" source --download-only lua5.4 > /dev/null 2>&1 &&
		  tar xf lua5.4_*.orig.tar.gz 2> /dev/null ) || true
	fi
	src=$(ls -d "$d"/lua-5.4*/src 2> /dev/null | head -n 1)
fi
if [ -n "$src" ] && [ -f "$src/lvm.c" ]; then
	files=$(ls "$src"/l*.c | grep -v -e '/luac\.c$' -e '/onelua\.c$' -e '/ltests\.c$')
	# shellcheck disable=SC2086
	$CC -O2 -w -DLUA_USE_LINUX -o "$dir/lua-plain" $files -lm -ldl
	# Linked with the shared library, so that under uftrace, whose
	# preloaded libmcount comes first, the same binary reports to uftrace.
	# shellcheck disable=SC2086
	$CC -O2 -w -DLUA_USE_LINUX -finstrument-functions -o "$dir/lua-inst" $files \
	    -L"$top/build/rel" -Wl,-rpath,"$top/build/rel" -ltracerecord -lm -ldl -lpthread
	cat > "$dir/work.lua" <<'LUA'
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local t = {}
for i = 1, 20000 do t[#t + 1] = string.format("%d:%s", i, tostring(fib(i % 12))) end
table.sort(t)
print(fib(24), #table.concat(t, ","))
LUA
	plain=$(best 3 1 "$dir/lua-plain" "$dir/work.lua")
	inst=$(best 3 1 "$dir/lua-inst" "$dir/work.lua")
	ours=$(best 3 1 "$TR" -o "$dir/lua.spans" "$dir/lua-inst" "$dir/work.lua")
	# The program's own time under trace-record, best of 3 as for the others.
	el=
	for i in 1 2 3; do
		"$TR" -o "$dir/lua.spans" "$dir/lua-inst" "$dir/work.lua" > /dev/null
		e=$(sed -n 's/^# elapsed-ns: //p' "$dir/lua.spans")
		if [ -z "$el" ] || [ "$e" -lt "$el" ]; then el=$e; fi
	done
	nspans=$(sed -n 's/^# spans: //p' "$dir/lua.spans")
	dropped=$(sed -n 's/^# dropped: //p' "$dir/lua.spans")
	echo
	printf 'Lua (%s), -finstrument-functions: %s spans, %s dropped\n' "$src" "$nspans" "$dropped"
	printf '%-40s %10s %10s\n' "run" "seconds" "slowdown"
	printf '%-40s %10s %10s\n' "plain build" "$plain" "-"
	printf '%-40s %10s %10.2f\n' "instrumented, recording off" "$inst" \
	    "$(echo "$inst $plain" | awk '{ print $1 / $2 }')"
	printf '%-40s %10.4f %10.2f\n' "under trace-record: the program" \
	    "$(echo "$el" | awk '{ print $1 / 1e9 }')" "$(echo "$el $plain" | awk '{ print $1 / 1e9 / $2 }')"
	printf '%-40s %10s %10.2f\n' "  and writing spans(5) text too" "$ours" \
	    "$(echo "$ours $plain" | awk '{ print $1 / $2 }')"
	if command -v uftrace > /dev/null 2>&1; then
		uf=$(best 3 1 uftrace record --no-libcall -d "$dir/uftrace.data" "$dir/lua-inst" "$dir/work.lua")
		printf '%-40s %10s %10.2f\n' "under uftrace record" "$uf" \
		    "$(echo "$uf $plain" | awk '{ print $1 / $2 }')"
		echo "$el $uf $plain" | awk '{ printf "slowdown of the program, trace-record / uftrace: %.2f (%.1fx / %.1fx)\n", ($1 / 1e9 / $3) / ($2 / $3), $1 / 1e9 / $3, $2 / $3 }'
		# To text, as trace-record writes it: uftrace's own JSON export.
		printf 'uftrace dump --chrome -d "%s" > "%s"\n' "$dir/uftrace.data" "$dir/uftrace.json" > "$dir/ufdump.sh"
		ufd=$(best 1 1 sh "$dir/ufdump.sh")
		printf '%-40s %10s %10.2f\n' "  and uftrace dump --chrome after it" \
		    "$(echo "$uf $ufd" | awk '{ print $1 + $2 }')" "$(echo "$uf $ufd $plain" | awk '{ print ($1 + $2) / $3 }')"
		du -sk "$dir/lua.spans" "$dir/uftrace.data" "$dir/uftrace.json" | sed 's/^/size (KiB): /'
		rm -rf "$dir/uftrace.data"
	else
		echo "note: uftrace not installed (apt-get install uftrace): no uftrace column"
	fi
else
	echo "note: Lua sources not found (set LUA_SRC): end-to-end trace-record bench skipped"
fi

# 10M spans from 4 threads (tests/trace/stress.c) at default settings,
# end to end.  Issue 32's target: none dropped (55% were before threads
# waited for buffers), all in under 20 s with Chromium's open, the open
# under 5 s, each step's peak RSS under 2 GB.  The program
# alone, then its own time under trace-record (elapsed-ns) and the cost
# per span that adds, then each step, the best wall time of 3 and the
# largest peak RSS: record, spanlayout, flamegraph-svg (timeline), and
# Chromium's open of the SVG (timeline-bench.js: navigation to the first
# painted frame, the renderer's peak RSS).
# step3 NAME OUT CMD...: CMD 3 times, stdout to OUT; "WALL KIB" of the
# fastest run and the largest peak in $dir/NAME.time.
step3() {
	name=$1
	out=$2
	shift 2
	: > "$dir/$name.runs"
	for i in 1 2 3; do
		/usr/bin/time -a -f '%e %M' -o "$dir/$name.runs" "$@" > "$out" 2> /dev/null
	done
	awk 'NF == 2 { if (t == "" || $1 < t) t = $1; if ($2 > m) m = $2 }
	    END { print t, m }' "$dir/$name.runs" > "$dir/$name.time"
}
$CC -O2 -D_GNU_SOURCE -I"$top/src/libtracerecord" -o "$dir/stress" "$top/tests/trace/stress.c" \
    "$LIBTR" -lpthread
/usr/bin/time -f '%e %M' -o "$dir/stress.native" "$dir/stress" 4 1250000
step3 stress /dev/null "$TR" -o "$dir/stress.spans" "$dir/stress" 4 1250000
step3 stress.sl "$dir/stress.sl" "$SL" "$dir/stress.spans"
step3 stress.svg "$dir/stress.svg" "$top/bin/flamegraph-svg" "$dir/stress.sl"
n=$(sed -n 's/^# spans: //p' "$dir/stress.spans")
el=$(sed -n 's/^# elapsed-ns: //p' "$dir/stress.spans")
printf '10M spans, 4 threads: %s written, %s dropped; program %.3f s alone, %.3f s recorded: %.1f ns a span\n' \
    "$n" "$(sed -n 's/^# dropped: //p' "$dir/stress.spans")" \
    "$(cut -d' ' -f1 "$dir/stress.native")" "$(echo "$el" | awk '{ print $1 / 1e9 }')" \
    "$(echo "$el $(cut -d' ' -f1 "$dir/stress.native") $n" | awk '{ print ($1 / 1e9 - $2) * 1e9 / ($3 > 0 ? $3 : 1) }')"
open="- -"
if [ -n "$CHROMIUM" ] && command -v node > /dev/null 2>&1; then
	node "$top/tests/browser/timeline-bench.js" "$CHROMIUM" "stress-10M=$dir/stress.svg" \
	    > "$dir/stress.open" 2>&1 &&
	    open=$(awk 'NR == 2 { print $4 / 1000, $NF }' "$dir/stress.open")
fi
set -- $(cat "$dir/stress.time") $(cat "$dir/stress.sl.time") $(cat "$dir/stress.svg.time") $open
printf '  record %s s (peak %s KiB, %s MB), spanlayout %s s (peak %s KiB), flamegraph-svg %s s (peak %s KiB, %s MB SVG), Chromium open %s s (peak %s MB)\n' \
    "$1" "$2" "$(wc -c < "$dir/stress.spans" | awk '{ printf "%.0f", $1 / 1e6 }')" "$3" "$4" "$5" "$6" \
    "$(wc -c < "$dir/stress.svg" | awk '{ printf "%.0f", $1 / 1e6 }')" "$7" "$8"
echo "$@" | awk '{ printf "  end to end: %.2f s without the open, %s with it\n", $1 + $3 + $5,
    $7 == "-" ? "no browser" : sprintf("%.2f s", $1 + $3 + $5 + $7) }'
rm -f "$dir/stress.spans" "$dir/stress.sl" "$dir/stress.svg"

# Record-time filters on a real program: zlib's examples/enough.c (where
# the zlib1g-dev package puts it), whose "enough 286 9 15" makes 227M
# calls, built with -finstrument-functions and recorded with
# --min-duration=10us, against the program alone; and the same with
# uftrace (-pg, -t 10us) and its Chrome JSON, against spanlayout's.
enough=/usr/share/doc/zlib1g-dev/examples/enough.c
[ -f "$enough.gz" ] && gzip -dc "$enough.gz" > "$dir/enough.c" && enough="$dir/enough.c"
if [ -f "$enough" ]; then
	$CC -O2 -o "$dir/enough" "$enough"
	$CC -O2 -finstrument-functions -o "$dir/enough-inst" "$enough" "$LIBTR" -lpthread
	/usr/bin/time -f '%e' -o "$dir/en.native" "$dir/enough" 286 9 15 > /dev/null
	/usr/bin/time -f '%e' -o "$dir/en.inst" "$dir/enough-inst" 286 9 15 > /dev/null
	/usr/bin/time -f '%e %M' -o "$dir/en.tr" "$TR" --min-duration=10us \
	    -o "$dir/enough.spans" "$dir/enough-inst" 286 9 15 > /dev/null 2>&1
	/usr/bin/time -f '%e %M' -o "$dir/en.sl" "$SL" --to=chrome "$dir/enough.spans" \
	    > "$dir/enough.json" 2> /dev/null
	set -- $(cat "$dir/en.native") $(cat "$dir/en.inst") $(cat "$dir/en.tr") $(cat "$dir/en.sl")
	printf 'enough 286 9 15: alone %s s, -finstrument-functions %s s, trace-record --min-duration=10us %s s (%.1fx, peak %s KiB, %s spans), spanlayout --to=chrome %s s\n' \
	    "$1" "$2" "$3" "$(echo "$3 $1" | awk '{ print $1 / $2 }')" "$4" \
	    "$(sed -n 's/^# spans: //p' "$dir/enough.spans")" "$5"
	# The floors under that: hooks that do nothing, and hooks that only
	# read the TSC, as timing every call exactly needs (hooks-floor.c).
	if [ "$(uname -m)" = x86_64 ]; then
		for c in 0 1; do
			$CC -O2 -finstrument-functions -DCLOCK=$c -o "$dir/enough-h$c" \
			    "$enough" "$top/tests/hooks-floor.c"
			/usr/bin/time -f '%e' -o "$dir/en.h$c" "$dir/enough-h$c" 286 9 15 > /dev/null
		done
		set -- $(cat "$dir/en.native") $(cat "$dir/en.h0") $(cat "$dir/en.h1")
		printf 'enough 286 9 15: hooks that do nothing %s s (%.1fx), hooks that only read the TSC %s s (%.1fx)\n' \
		    "$2" "$(echo "$2 $1" | awk '{ print $1 / $2 }')" \
		    "$3" "$(echo "$3 $1" | awk '{ print $1 / $2 }')"
	fi
	if command -v uftrace > /dev/null 2>&1; then
		$CC -O2 -pg -o "$dir/enough-pg" "$enough"
		/usr/bin/time -f '%e %M' -o "$dir/en.uf" uftrace record -t 10us \
		    -d "$dir/enough.uftrace" "$dir/enough-pg" 286 9 15 > /dev/null 2>&1
		/usr/bin/time -f '%e %M' -o "$dir/en.ufd" uftrace dump --chrome \
		    -d "$dir/enough.uftrace" > "$dir/enough-uf.json" 2> /dev/null
		set -- $(cat "$dir/en.native") $(cat "$dir/en.uf") $(cat "$dir/en.ufd")
		printf 'enough 286 9 15: uftrace record -t 10us %s s (%.1fx, peak %s KiB), uftrace dump --chrome %s s (%s records)\n' \
		    "$2" "$(echo "$2 $1" | awk '{ print $1 / $2 }')" "$3" "$4" \
		    "$(grep -c '"ph":"[BE]"' "$dir/enough-uf.json")"
		rm -rf "$dir/enough.uftrace" "$dir/enough-uf.json"
	fi
	rm -f "$dir/enough.spans" "$dir/enough.json"
else
	echo "note: zlib's examples/enough.c not found (zlib1g-dev): filter bench skipped"
fi

# spanlayout: a generated trace of 1,000,000 spans (tests/spanlayout/gen.c:
# call trees with some overlap), the two uftrace captures of the tests,
# and, when the Lua run above left them, its 9.5M spans as trace-record
# wrote them and as uftrace's Chrome JSON.  Against `wc -l` on the same
# file; peak RSS per span from GNU time.
$CC -O2 -o "$dir/gen" "$top/tests/spanlayout/gen.c"
"$dir/gen" 1000000 > "$dir/gen1m.spans"
for b in pigz lua; do
	gzip -dc "$top/tests/data/uftrace-$b.json.gz" > "$dir/uftrace-$b.json"
done
echo
printf '%-30s %9s %8s %9s %13s %8s %10s %8s\n' "spanlayout input" "spans" "MB" \
    "wc -l s" "ours s (x wc)" "ns/span" "peak RSS" "B/span"
for f in "$dir/gen1m.spans" "$dir/uftrace-pigz.json" "$dir/uftrace-lua.json" \
    "$dir/lua.spans" "$dir/uftrace.json"; do
	[ -f "$f" ] || continue
	reps=5
	[ "$(wc -c < "$f")" -gt 200000000 ] && reps=1
	n=$("$SL" "$f" 2>/dev/null | grep -vc '^#')
	mb=$(wc -c < "$f" | awk '{ printf "%.1f", $1 / 1e6 }')
	w=$(best $reps 1 wc -l "$f")
	t=$(best $reps 1 "$SL" "$f")
	rss=
	/usr/bin/time -f %M -o "$dir/rss" "$SL" "$f" > /dev/null 2>&1 &&
	    rss=$(tail -n 1 "$dir/rss")
	echo "$(basename "$f") $n $mb $w $t ${rss:-0}" | awk '{
	    printf "%-30s %9d %8s %9.4f %6.3f (%4.0f) %8.0f %7.0f KB %8.0f\n", $1, $2, $3,
	    $4, $5, $5 / ($4 > 0 ? $4 : 1e-9), $5 * 1e9 / ($2 > 0 ? $2 : 1), $6,
	    $6 * 1024 / ($2 > 0 ? $2 : 1) }'
done
rm -f "$dir/uftrace.json"

# spanlayout against the TiDB article's algorithm on the 1M generated
# spans, in the same run: its C port (tests/spanlayout/article.c: calcDepth
# as published, with spanlayout's own reading, sorting and writing around
# it, so the I/O weighs the same on both sides) and the article's code
# itself (tests/spanlayout/article.js: the TypeScript as published, types
# stripped, run by node; sl-article-c-rows checks both give the same rows).
# Wall and CPU time (user + sys, the machine being shared; node's CPU
# counts its GC threads), each the best of 5.
$CC -O2 -o "$dir/article" "$top/tests/spanlayout/article.c"
if [ -x /usr/bin/time ]; then
	set -- $(cpu_best "$SL" "$dir/gen1m.spans") $(cpu_best "$dir/article" "$dir/gen1m.spans")
	echo "$@" | awk '{ printf "spanlayout vs the article'"'"'s algorithm, C port with the same I/O (gen 1M): ours %.3f s (CPU %.3f), C port %.3f s (CPU %.3f): %.2fx (CPU %.2fx)\n",
	    $1, $2, $3, $4, $3 / ($1 > 0 ? $1 : 1e-9), $4 / ($2 > 0 ? $2 : 1e-9) }'
	if command -v node > /dev/null 2>&1; then
		set -- "$1" "$2" $(cpu_best node "$top/tests/spanlayout/article.js" "$dir/gen1m.spans")
		echo "$@" | awk '{ printf "spanlayout vs the article'"'"'s code (node, as published) (gen 1M): ours %.3f s (CPU %.3f), node %.3f s (CPU %.3f): %.2fx (CPU %.2fx)\n",
		    $1, $2, $3, $4, $3 / ($1 > 0 ? $1 : 1e-9), $4 / ($2 > 0 ? $2 : 1e-9) }'
	else
		echo "spanlayout vs the article's code (node, as published): no node"
	fi
fi

# flamegraph-svg timelines of 10k, 100k and 1M generated spans (gen.c,
# through spanlayout): time to write the SVG, its size, and in Chromium
# the time to open it and to handle one wheel or drag step.
echo
printf '%-16s %9s %12s %10s\n' "timeline input" "spans" "ours s" "SVG MB"
set --
for n in 10000 100000 1000000; do
	"$dir/gen" $n | "$SL" > "$dir/tl$n.sl" 2> /dev/null
	t=$(best 3 1 "$top/bin/flamegraph-svg" "$dir/tl$n.sl")
	"$top/bin/flamegraph-svg" "$dir/tl$n.sl" > "$dir/tl$n.svg" 2> /dev/null
	printf '%-16s %9d %12s %10s\n' "gen $n" $n "$t" \
	    "$(wc -c < "$dir/tl$n.svg" | awk '{ printf "%.1f", $1 / 1048576 }')"
	set -- "$@" "gen $n=$dir/tl$n.svg"
done
if [ -n "$CHROMIUM" ] && command -v node > /dev/null 2>&1; then
	echo
	node "$top/tests/browser/timeline-bench.js" "$CHROMIUM" "$@"
fi

sh "$top/tests/bench-formats.sh"

echo
sh "$top/tests/bench-sample.sh"
