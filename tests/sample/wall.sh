# wall.sh: trace-record --sample --wall, sourced by run.sh (its TR, BIN,
# CC, tmp, top, ok, bad and expect).  Statistical: on- and off-CPU
# shares of wall.c's threads within 7 points, the event filter that
# splits them, the hot/cold graph's colours, 1000 blocked threads.
#
# Time spent preempted (runnable, waiting for a CPU) is in no sample and
# said on stderr.  mix's rounds are 20 ms of CPU time and 30 ms asleep,
# however long the machine makes the spin: 40% of what is sampled is on
# the CPU.  three's spinner spins for the run's wall time, and is the
# only thread that can be preempted: that time is its own, on a busy
# machine, when the thirds are taken.

# preempted ERR: the ns stderr says no sample shows.
preempted() {
	sed -n 's/^trace-record: --wall: \([0-9.]*\) s spent preempted.*/\1/p' "$1" |
	    awk '{ printf "%.0f\n", $1 * 1e9 } END { if (NR == 0) print 0 }'
}

if ! "$TR" --sample --wall -o /dev/null -- true 2> /dev/null; then
	printf 'skip --wall: perf_event_open (context switches) not permitted\n'
elif ! $CC -O1 -g -pthread -o "$tmp/wall" "$top/tests/sample/wall.c" 2> "$tmp/wall.cc"; then
	bad "build wall.c" "$(head -c 300 "$tmp/wall.cc")"
else
	# Two threads in rounds of 20 ms on the CPU and 30 ms asleep.
	"$TR" --sample --call-graph=dwarf --wall -F 999 -o "$tmp/mix.txt" -- \
	    "$tmp/wall" mix 2000 2> "$tmp/mix.err"
	expect "--wall mix: exit status" $? 0
	"$BIN/stackcollapse" "$tmp/mix.txt" > "$tmp/mix.f"
	got=$(awk '/;mix;/ { w = $NF
		if (/;\[off-cpu\] /) { off += w; if (/;nap;/) nap += w } else if (/;spin[; ]/) on += w; else other += w }
	    END { t = on + off + other
		if (t == 0) { print "no samples"; exit }
		printf "%.1f %.1f %.1f\n", 100 * on / t, 100 * off / t, 100 * nap / (off ? off : 1) }' "$tmp/mix.f")
	if echo "$got" | awk '{ exit !($1 >= 33 && $1 <= 47 && $2 >= 53 && $2 <= 67 && $3 >= 90) }'; then
		ok "--wall mix: spin $(echo $got | cut -d' ' -f1)%, asleep $(echo $got | cut -d' ' -f2)% (40, 60 ±7)"
	else
		bad "--wall mix" "spin, off-CPU, of which in nap: $got% (want 40±7, 60±7, 90+); $(tr '\n' ' ' < "$tmp/mix.err")"
	fi

	# Three threads for the whole run: spinning, in read() on a pipe,
	# on a mutex.
	"$TR" --sample --call-graph=dwarf --wall -F 999 -o "$tmp/three.txt" -- \
	    "$tmp/wall" three 2000 2> "$tmp/three.err"
	expect "--wall three: exit status" $? 0
	"$BIN/stackcollapse" "$tmp/three.txt" > "$tmp/three.f"
	got=$(awk -v pre="$(preempted "$tmp/three.err")" '
	    /;spinner;/ { s += $NF } /;reader;/ { r += $NF } /;locker;/ { l += $NF }
	    END { s += pre; t = s + r + l
		if (t == 0) { print "no samples"; exit }
		printf "%.1f %.1f %.1f\n", 100 * s / t, 100 * r / t, 100 * l / t }' "$tmp/three.f")
	if echo "$got" | awk '{ for (i = 1; i <= 3; i++) if ($i < 26.3 || $i > 40.3) exit 1 }'; then
		ok "--wall three: spinner, reader, locker $got% (a third each ±7)"
	else
		bad "--wall three" "spinner, reader, locker: $got% (want 33.3±7 each); $(tr '\n' ' ' < "$tmp/three.err")"
	fi
	# Each half by its event: the spin in cpu-clock, the waits in
	# offcpu-time, 90% of each at least.
	"$BIN/stackcollapse" --event-filter=cpu-clock "$tmp/three.txt" > "$tmp/three.on" 2> /dev/null
	"$BIN/stackcollapse" --event-filter=offcpu-time "$tmp/three.txt" > "$tmp/three.off" 2> /dev/null
	got=$(awk 'FNR == 1 { f++ } { w = $NF }
	    f == 1 && /;spinner;/ { s += w } f == 1 && /;(reader|locker);/ { b += w }
	    f == 2 && /;spinner;/ { s1 += w } f == 3 && /;(reader|locker);/ { b1 += w }
	    END { printf "%.1f %.1f\n", 100 * s1 / (s ? s : 1), 100 * b1 / (b ? b : 1) }' \
	    "$tmp/three.f" "$tmp/three.on" "$tmp/three.off")
	if echo "$got" | awk '{ exit !($1 >= 90 && $2 >= 90) }'; then
		ok "--event-filter: cpu-clock keeps $(echo $got | cut -d' ' -f1)% of the spin, offcpu-time $(echo $got | cut -d' ' -f2)% of the waits"
	else
		bad "--event-filter on a --wall run" "cpu-clock kept, offcpu-time kept: $got% (want 90+ each)"
	fi
	# The hot/cold graph, chosen by the mark: the waits' frames more blue
	# than red, the spin's more red than blue.
	"$BIN/flamegraph-svg" "$tmp/three.f" > "$tmp/three.svg"
	got=$(grep -o '<title>[a-z]* ([^<]*</title><rect [^>]*>' "$tmp/three.svg" |
	    sed -n 's/^<title>\(spinner\|reader\|locker\) .*fill="#\(..\)..\(..\)".*/\1 \2 \3/p' |
	    sort | while read -r n r b; do
		printf '%s:%s ' "$n" "$([ $((0x$b)) -gt $((0x$r)) ] && echo cold || echo hot)"; done)
	if [ "$got" = "locker:cold reader:cold spinner:hot " ]; then
		ok "--colors=hotcold (chosen by the mark): $got"
	else
		bad "--colors=hotcold" "got \"$got\", want the locker and reader cold, the spinner hot"
	fi

	# 1000 threads asleep for a second: each one's time is there.
	"$TR" --sample -g --wall -o "$tmp/many.txt" -- "$tmp/wall" many 1000 1000 \
	    2> "$tmp/many.err"
	expect "--wall, 1000 threads: exit status" $? 0
	got=$(awk '/ offcpu-time: $/ { split($2, id, "/"); if (id[1] != id[2]) { t[id[2]] += $(NF - 1) } }
	    END { for (k in t) { n++; if (t[k] >= 0.9e9 && t[k] <= 1.5e9) good++ }
		printf "%d %d\n", n, good }' "$tmp/many.txt")
	if echo "$got" | awk '{ exit !($1 == 1000 && $2 >= 990) }'; then
		ok "--wall, 1000 threads: $got (threads off-CPU, of them 0.9 to 1.5 s)"
	else
		bad "--wall, 1000 threads" "threads off-CPU, of them 0.9 to 1.5 s: $got (want 1000, 990+); $(tr '\n' ' ' < "$tmp/many.err")"
	fi

	# The signal mechanism says why not.
	"$TR" --sample --wall --mechanism=signal -o /dev/null -- true 2> "$tmp/wallsig.err"
	expect "--wall --mechanism=signal: refused" "$? $(cat "$tmp/wallsig.err")" \
	    "125 trace-record: --wall: the signal mechanism samples CPU time only; off-CPU time needs perf_event_open"
fi
