# spanprof.sh: trace-record --sample --spans, sourced by run.sh (its TR,
# BIN, CC, tmp, top, ok, bad and expect).  Statistical: spanprof.c's 300
# requests, each of parse (3 ms on the CPU in parse_work), query (4 ms
# asleep in query_wait, 1 ms on the CPU in query_cpu) and render (2 ms
# in render_work); stackcollapse --span keeps each span's samples.

# share SPANS FUNCTION...: the percent of stackcollapse --span=SPANS's
# weight in stacks through any FUNCTION.
share() {
	f=$1 re=$2
	shift 2
	"$BIN/stackcollapse" --span="$re" "$f" | awk -v fns="$*" '
	    BEGIN { n = split(fns, want, " ") }
	    { w = $NF; t += w; k = split($1, fr, ";")
	      for (i = 1; i <= k; i++) for (j = 1; j <= n; j++) if (fr[i] == want[j]) { in_ += w; next } }
	    END { printf "%.1f\n", t ? 100 * in_ / t : 0 }'
}

if ! "$TR" --sample --spans -o /dev/null -- true 2> /dev/null; then
	printf 'skip --spans: trace-record --sample --spans does not run here\n'
elif ! $CC -O1 -g -fno-omit-frame-pointer -I"$top/src/libtracerecord" -o "$tmp/spanprof" \
    "$top/tests/sample/spanprof.c" "$BUILD/libtracerecord.a" -lpthread 2> "$tmp/spanprof.cc"; then
	bad "build spanprof.c" "$(head -c 300 "$tmp/spanprof.cc")"
else
	"$TR" --sample -g -F 999 --spans -o "$tmp/sp.spans" -- "$tmp/spanprof" 300 \
	    2> "$tmp/sp.err"
	expect "--spans: exit status" $? 0
	a=$(share "$tmp/sp.spans" '^parse$' parse_work)
	b=$(share "$tmp/sp.spans" '^render$' render_work)
	c=$(share "$tmp/sp.spans" '^request$' parse_work query_wait query_cpu render_work)
	if echo "$a $b $c" | awk '{ exit !($1 >= 90 && $2 >= 90 && $3 >= 90) }'; then
		ok "--spans: --span=parse $a% parse_work, render $b% render_work, request $c% the three"
	else
		bad "--spans" "--span=parse: parse_work $a%, render: render_work $b%, request: the three $c% (want 90+ each); $(tr '\n' ' ' < "$tmp/sp.err")"
	fi
	# With --wall, query's 4 ms asleep and 1 ms on the CPU (dwarf: the
	# sleep's caller is found past libc's frame-pointer-less wrapper).
	if "$TR" --sample --wall -o /dev/null -- true 2> /dev/null; then
		"$TR" --sample --call-graph=dwarf --wall -F 999 --spans -o "$tmp/spw.spans" -- \
		    "$tmp/spanprof" 300 2> "$tmp/spw.err"
		expect "--spans --wall: exit status" $? 0
		a=$(share "$tmp/spw.spans" '^query$' query_wait)
		b=$(share "$tmp/spw.spans" '^query$' query_cpu)
		if echo "$a $b" | awk '{ exit !($1 >= 70 && $1 <= 90 && $2 >= 10 && $2 <= 30) }'; then
			ok "--spans --wall: --span=query: query_wait $a%, query_cpu $b% (80, 20 ±10)"
		else
			bad "--spans --wall" "--span=query: query_wait $a%, query_cpu $b% (want 80±10, 20±10); $(tr '\n' ' ' < "$tmp/spw.err")"
		fi
	fi
	# Through spanlayout the samples stay, timed from the origin, and
	# fold the same.
	"$BIN/spanlayout" "$tmp/sp.spans" > "$tmp/sp.layout"
	expect "--spans through spanlayout: the same stacks" \
	    "$("$BIN/stackcollapse" --span=parse "$tmp/sp.layout" | cksum)" \
	    "$("$BIN/stackcollapse" --span=parse "$tmp/sp.spans" | cksum)"
fi
