# wall.sh: trace-record --sample --wall, sourced by run.sh (its TR, BIN,
# CC, tmp, top, ok, bad and expect).  Statistical: on- and off-CPU
# shares of wall.c's threads within 7 points, the event filter that
# splits them, the hot/cold graph's colours, 1000 blocked threads, and
# waits that never fail with EINTR; each with both mechanisms (perf's
# context switches, the signal sampler's wrapped blocking calls); and
# the signal mechanism's stdio: waits in fgets, fread, fwrite and on a
# stream's lock seen, a buffered getc not timed, and a fortified
# program's __read_chk and __poll_chk seen.
#
# Time spent preempted (runnable, waiting for a CPU) is in no sample and
# said on stderr.  mix's rounds are 20 ms of CPU time and 30 ms asleep,
# however long the machine makes the spin: 40% of what is sampled is on
# the CPU.  three's spinner spins for the run's wall time, and is the
# only thread that can be preempted: that time is its own, on a busy
# machine, when the thirds are taken (the signal mechanism cannot tell
# it from time blocked past libc's functions, and says both).

# preempted ERR: the ns stderr says no sample shows.
preempted() {
	sed -n 's/^trace-record: --wall: \([0-9.]*\) s spent preempted.*/\1/p' "$1" |
	    awk '{ printf "%.0f\n", $1 * 1e9 } END { if (NR == 0) print 0 }'
}

# wall_checks MECHANISM: every check, with --mechanism=MECHANISM; the
# names say which ("--wall (signal) mix").
wall_checks() {
	m=$1
	W="--wall ($m)"
	# Two threads in rounds of 20 ms on the CPU and 30 ms asleep.
	"$TR" --sample --mechanism=$m --call-graph=dwarf --wall -F 999 -o "$tmp/$m-mix.txt" -- \
	    "$tmp/wall" mix 2000 2> "$tmp/$m-mix.err"
	expect "$W mix: exit status" $? 0
	"$BIN/stackcollapse" "$tmp/$m-mix.txt" > "$tmp/$m-mix.f"
	got=$(awk '/;mix;/ { w = $NF
		if (/;\[off-cpu\] /) { off += w; if (/;nap;/) nap += w } else if (/;spin[; ]/) on += w; else other += w }
	    END { t = on + off + other
		if (t == 0) { print "no samples"; exit }
		printf "%.1f %.1f %.1f\n", 100 * on / t, 100 * off / t, 100 * nap / (off ? off : 1) }' "$tmp/$m-mix.f")
	if echo "$got" | awk '{ exit !($1 >= 33 && $1 <= 47 && $2 >= 53 && $2 <= 67 && $3 >= 90) }'; then
		ok "$W mix: spin $(echo $got | cut -d' ' -f1)%, asleep $(echo $got | cut -d' ' -f2)% (40, 60 ±7)"
	else
		bad "$W mix" "spin, off-CPU, of which in nap: $got% (want 40±7, 60±7, 90+); $(tr '\n' ' ' < "$tmp/$m-mix.err")"
	fi

	# Three threads for the whole run: spinning, in read() on a pipe,
	# on a mutex.
	"$TR" --sample --mechanism=$m --call-graph=dwarf --wall -F 999 -o "$tmp/$m-three.txt" -- \
	    "$tmp/wall" three 2000 2> "$tmp/$m-three.err"
	expect "$W three: exit status" $? 0
	"$BIN/stackcollapse" "$tmp/$m-three.txt" > "$tmp/$m-three.f"
	got=$(awk -v pre="$(preempted "$tmp/$m-three.err")" '
	    /;spinner;/ { s += $NF } /;reader;/ { r += $NF } /;locker;/ { l += $NF }
	    END { s += pre; t = s + r + l
		if (t == 0) { print "no samples"; exit }
		printf "%.1f %.1f %.1f\n", 100 * s / t, 100 * r / t, 100 * l / t }' "$tmp/$m-three.f")
	if echo "$got" | awk '{ for (i = 1; i <= 3; i++) if ($i < 26.3 || $i > 40.3) exit 1 }'; then
		ok "$W three: spinner, reader, locker $got% (a third each ±7)"
	else
		bad "$W three" "spinner, reader, locker: $got% (want 33.3±7 each); $(tr '\n' ' ' < "$tmp/$m-three.err")"
	fi
	# Each half by its event: the spin in cpu-clock, the waits in
	# offcpu-time, 90% of each at least.
	"$BIN/stackcollapse" --event-filter=cpu-clock "$tmp/$m-three.txt" > "$tmp/$m-three.on" 2> /dev/null
	"$BIN/stackcollapse" --event-filter=offcpu-time "$tmp/$m-three.txt" > "$tmp/$m-three.off" 2> /dev/null
	got=$(awk 'FNR == 1 { f++ } { w = $NF }
	    f == 1 && /;spinner;/ { s += w } f == 1 && /;(reader|locker);/ { b += w }
	    f == 2 && /;spinner;/ { s1 += w } f == 3 && /;(reader|locker);/ { b1 += w }
	    END { printf "%.1f %.1f\n", 100 * s1 / (s ? s : 1), 100 * b1 / (b ? b : 1) }' \
	    "$tmp/$m-three.f" "$tmp/$m-three.on" "$tmp/$m-three.off")
	if echo "$got" | awk '{ exit !($1 >= 90 && $2 >= 90) }'; then
		ok "$W --event-filter: cpu-clock keeps $(echo $got | cut -d' ' -f1)% of the spin, offcpu-time $(echo $got | cut -d' ' -f2)% of the waits"
	else
		bad "$W --event-filter" "cpu-clock kept, offcpu-time kept: $got% (want 90+ each)"
	fi
	# The hot/cold graph, chosen by the mark: the waits' frames more blue
	# than red, the spin's more red than blue.
	"$BIN/flamegraph-svg" "$tmp/$m-three.f" > "$tmp/$m-three.svg"
	got=$(grep -o '<title>[a-z]* ([^<]*</title><rect [^>]*>' "$tmp/$m-three.svg" |
	    sed -n 's/^<title>\(spinner\|reader\|locker\) .*fill="#\(..\)..\(..\)".*/\1 \2 \3/p' |
	    sort | while read -r n r b; do
		printf '%s:%s ' "$n" "$([ $((0x$b)) -gt $((0x$r)) ] && echo cold || echo hot)"; done)
	if [ "$got" = "locker:cold reader:cold spinner:hot " ]; then
		ok "$W --colors=hotcold (chosen by the mark): $got"
	else
		bad "$W --colors=hotcold" "got \"$got\", want the locker and reader cold, the spinner hot"
	fi

	# 1000 threads asleep for a second: each one's time is there.
	"$TR" --sample --mechanism=$m -g --wall -o "$tmp/$m-many.txt" -- "$tmp/wall" many 1000 1000 \
	    2> "$tmp/$m-many.err"
	expect "$W, 1000 threads: exit status" $? 0
	got=$(awk '/ offcpu-time: $/ { split($2, id, "/"); if (id[1] != id[2]) { t[id[2]] += $(NF - 1) } }
	    END { for (k in t) { n++; if (t[k] >= 0.9e9 && t[k] <= 1.5e9) good++ }
		printf "%d %d\n", n, good }' "$tmp/$m-many.txt")
	if echo "$got" | awk '{ exit !($1 == 1000 && $2 >= 990) }'; then
		ok "$W, 1000 threads: $got (threads off-CPU, of them 0.9 to 1.5 s)"
	else
		bad "$W, 1000 threads" "threads off-CPU, of them 0.9 to 1.5 s: $got (want 1000, 990+); $(tr '\n' ' ' < "$tmp/$m-many.err")"
	fi


	# Threads blocked when their process exits, in it and in a fork's
	# child, the second after: each one's second is there.
	"$TR" --sample --mechanism=$m --call-graph=dwarf --wall -o "$tmp/$m-stuck.txt" -- "$tmp/wall" stuck 1000 \
	    2> "$tmp/$m-stuck.err"
	expect "$W, blocked at exit: exit status" $? 0
	got=$(awk '/ offcpu-time: $/ { tid = $2; w = $(NF - 1); next }
	    /reader/ && w { t[tid] += w; w = 0 } /^$/ { w = 0 }
	    END { for (k in t) { n++; if (t[k] >= 0.9e9 && t[k] <= 1.5e9) good++ }
		printf "%d %d\n", n, good }' "$tmp/$m-stuck.txt")
	expect "$W, blocked at exit: threads in reader, of them 0.9 to 1.5 s" "$got" "2 2"

	# The same, the program ended by SIGTERM that trace-record passes
	# on, a second in: it ends as it would (143), with both waits.
	"$TR" --sample --mechanism=$m --call-graph=dwarf --wall -o "$tmp/$m-term.txt" -- \
	    "$tmp/wall" term 30000 2> "$tmp/$m-term.err" &
	sleep 1
	kill -TERM $!
	wait $!
	expect "$W, ended by SIGTERM: exit status" $? 143
	got=$(awk '/ offcpu-time: $/ { tid = $2; w = $(NF - 1); next }
	    /(reader|nap)/ && w { t[tid] += w; w = 0 } /^$/ { w = 0 }
	    END { for (k in t) { n++; if (t[k] >= 0.7e9 && t[k] <= 1.5e9) good++ }
		printf "%d %d\n", n, good }' "$tmp/$m-term.txt")
	expect "$W, ended by SIGTERM: threads in reader or nap, of them 0.7 to 1.5 s" "$got" "2 2"

	# Waits of a millisecond, beside a thread the timer signals: none
	# fails with EINTR.
	"$TR" --sample --mechanism=$m --wall -F 999 -o /dev/null -- "$tmp/wall" eintr 1000 \
	    2> "$tmp/$m-eintr.err"
	expect "$W: no wait interrupted (exit status, stderr)" \
	    "$? $(grep -c '^wall:' "$tmp/$m-eintr.err")" "0 0"
}

# stdio_checks: glibc's stdio reads and writes with its own __read and
# __write, which the signal mechanism's read and write do not see; its
# functions are wrapped too.  Four threads blocked a second each: in
# fgets and in fread on pipes, in fwrite on a full pipe, and in fputc
# behind that fwrite's hold of the stream's lock (its naps of 1 ms
# until the pipe is full aside).  Each one's second is there once (0.9
# to 1.5 s, as for the 1000 threads), with the stdio function as its
# leaf (libc's name for it), and the time stderr says is in no sample is
# below 0.25 s (it was their 4 s).
stdio_checks() {
	W="--wall (signal) stdio"
	"$TR" --sample --mechanism=signal --call-graph=dwarf --wall -F 999 -o "$tmp/stdio.txt" -- \
	    "$tmp/wall" stdio 1000 2> "$tmp/stdio.err"
	expect "$W: exit status" $? 0
	"$BIN/stackcollapse" "$tmp/stdio.txt" > "$tmp/stdio.f"
	got=$(awk '/;\[off-cpu\] [0-9]+$/ { n = split($1, f, ";")
		for (i = 1; i < n - 1; i++) if (f[i] ~ /^(liner|freader|writer|putter)$/ &&
		    f[i + 1] != "nap") {
			s = f[i + 1]
			for (j = i + 2; j < n; j++)
				s = s ";" f[j]
			w[f[i] " " s] += $NF
		} }
	    END { for (k in w) printf "%s %.2f\n", k, w[k] / 1e9 }' "$tmp/stdio.f" | sort | tr '\n' ' ')
	if echo "$got" | awk '{ exit !(NF == 12 && $1 == "freader" && $2 ~ /^(_IO_)?fread$/ &&
	    $4 == "liner" && $5 ~ /^(_IO_)?fgets$/ && $7 == "putter" && $8 == "fputc" &&
	    $10 == "writer" && $11 ~ /^(_IO_)?fwrite$/ &&
	    $3 >= 0.9 && $3 <= 1.5 && $6 >= 0.9 && $6 <= 1.5 && $9 >= 0.9 && $9 <= 1.5 &&
	    $12 >= 0.9 && $12 <= 1.5) }'; then
		ok "$W: each thread's second under its stdio function, once: $got"
	else
		bad "$W" "thread, frames under it, s: $got (want fread, fgets, fputc, fwrite, 0.9 to 1.5 s each)"
	fi
	got=$(preempted "$tmp/stdio.err")
	if [ "$got" -le 250000000 ]; then ok "$W: $got ns in no sample"
	else bad "$W: time in no sample" "$got ns (want 0.25 s at most); $(tr '\n' ' ' < "$tmp/stdio.err")"; fi

	# A getc served by the buffer reads no clock: timed, each took 11
	# times as long (two clock reads around 2 ns), and with the buffer
	# looked at first 1.3 times.  At most 3 times the CPU time of one
	# alone, on the same 32 MB file.  (The off-CPU time would not tell:
	# a call's CPU time is taken out of it.)
	head -c 33554432 /dev/zero > "$tmp/getc.data"
	a=$("$tmp/wall" getc "$tmp/getc.data")
	b=$("$TR" --sample --mechanism=signal --wall -F 999 -o /dev/null -- "$tmp/wall" getc \
	    "$tmp/getc.data" 2> "$tmp/getc.err")
	if awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { exit !(a > 0 && b > 0 && b <= 3 * a) }'; then
		ok "$W: a buffered getc not timed: $b ns a getc, $a ns alone"
	else
		bad "$W: a buffered getc timed" "$b ns a getc, $a ns alone (want 3 times at most); $(tr '\n' ' ' < "$tmp/getc.err")"
	fi
	rm -f "$tmp/getc.data"

	# Only --wall's sampler wraps stdio: without it a getc that only
	# passed the call on cost 0.45 ns more (1.25 times, 200M getc).
	got=$("$TR" --sample --mechanism=signal --wall -o /dev/null -- "$tmp/wall" getcfrom 2>&1)
	case $got in
	*libc.so*) bad "$W: --wall's getc" "libc's: $got" ;;
	*) ok "$W: --wall's getc is the sampler's" ;;
	esac
	got=$("$TR" --sample --mechanism=signal -o /dev/null -- "$tmp/wall" getcfrom 2>&1)
	case $got in
	*libc.so*) ok "--sample (signal): getc is libc's, stdio not wrapped" ;;
	*) bad "--sample (signal): getc" "not libc's: $got" ;;
	esac
}

# fortify_checks: a program built with _FORTIFY_SOURCE calls glibc's
# __read_chk and __poll_chk, which run past read's and poll's wrappers
# (wallfort.c wraps them): half a second in each, under its name, and
# next to nothing in no sample.
fortify_checks() {
	W="--wall (signal) fortified"
	if ! $CC -O2 -D_FORTIFY_SOURCE=2 -g -pthread -o "$tmp/fortify" \
	    "$top/tests/sample/fortify.c" 2> "$tmp/fortify.cc"; then
		bad "build fortify.c" "$(head -c 300 "$tmp/fortify.cc")"
		return
	fi
	"$TR" --sample --mechanism=signal --wall -o "$tmp/fortify.txt" -- "$tmp/fortify" 500 \
	    2> "$tmp/fortify.err"
	expect "$W: exit status" $? 0
	got=$("$BIN/stackcollapse" "$tmp/fortify.txt" | awk '/;main;__(read|poll)_chk;\[off-cpu\] / {
		split($1, f, ";"); w[f[3]] += $NF }
	    END { printf "%.2f %.2f\n", w["__read_chk"] / 1e9, w["__poll_chk"] / 1e9 }')
	if echo "$got" | awk '{ exit !($1 >= 0.45 && $1 <= 0.75 && $2 >= 0.45 && $2 <= 0.75) }'; then
		ok "$W: __read_chk, __poll_chk $got s (0.5 each)"
	else
		bad "$W" "__read_chk, __poll_chk: $got s (want 0.45 to 0.75 each); $(tr '\n' ' ' < "$tmp/fortify.err")"
	fi
	got=$(preempted "$tmp/fortify.err")
	if [ "$got" -le 100000000 ]; then ok "$W: $got ns in no sample"
	else bad "$W: time in no sample" "$got ns (want 0.1 s at most)"; fi
}

if ! $CC -O1 -g -pthread -o "$tmp/wall" "$top/tests/sample/wall.c" 2> "$tmp/wall.cc"; then
	bad "build wall.c" "$(head -c 300 "$tmp/wall.cc")"
else
	if "$TR" --sample --mechanism=perf --wall -o /dev/null -- true 2> /dev/null; then
		wall_checks perf
	else
		printf 'skip --wall (perf): perf_event_open (context switches) not permitted\n'
	fi
	wall_checks signal
	stdio_checks
	fortify_checks
fi
