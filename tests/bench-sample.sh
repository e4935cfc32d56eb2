#!/bin/sh
# make bench: the overhead of trace-record --sample on a CPU-bound real
# program, xz -9 of a fixed 2 MB file (made by a seeded generator: text
# that compresses about 4:1), against perf record -g on the same file in
# the same run, at 99, 999 and 4999 Hz.  Each time is a median of 5
# interleaved rounds of CPU time (user + system, of the tool and the
# program together: its start, its end and its writing included), not
# wall time, which a neighbour on this shared machine moves by more than
# what is measured; the slowdown is against the program alone.  Bytes per sample: the output
# as written (our perf script text or folded stacks; perf's perf.data,
# and its perf script text).  Then --call-graph=dwarf against perf
# record --call-graph dwarf on xz, python3 and sqlite3, and the signal
# mechanism's cost inside the program as perf record sees it (below); "sh
# tests/bench-sample.sh dwarf" runs that part alone.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
TR=${TR:-"$top/bin/trace-record"}	# TR=path: another build
dir="$top/build/bench/sample"
mkdir -p "$dir"

awk 'BEGIN { srand(7); for (i = 0; i < 120000; i++) {
	n = int(rand() * 12) + 2; s = ""
	for (j = 0; j < n; j++) s = s sprintf("%c", 97 + int(rand() * rand() * 26))
	printf "%s %d %s\n", s, int(rand() * 100000), (i % 7 ? "ok" : "retry") } }' > "$dir/input"
input="$dir/input"

now() { date +%s%N; }
# cpu: the children's user+system seconds of `times` output on stdin.
cpu() { awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); sub("s", "", u[2]); sub("s", "", s[2])
	printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'; }
# sh bench-sample.sh dwarf: only the --call-graph=dwarf comparison below.
part=${1:-all}
case $part in
all | dwarf) ;;
*) echo "usage: sh tests/bench-sample.sh [dwarf]" >&2; exit 2 ;;
esac
# One run of configuration $1 at $2 Hz; its CPU time in ns on stdout (it
# runs in a subshell, whose children are only what it runs),
# the samples it took in $dir/n.$1.$2 and its output's size in $dir/b.$1.$2.
XZ="xz -9 -c -T1 $input"
run() {
	case $1 in
	alone) $XZ > /dev/null ;;
	perf | signal) "$TR" --sample -g -F $2 --mechanism=$1 -o "$dir/out.txt" -- $XZ \
	    > /dev/null 2> "$dir/err" ;;
	folded) "$TR" --sample -g -F $2 --folded -o "$dir/out.txt" -- $XZ > /dev/null 2> "$dir/err" ;;
	record) perf record -q -e cpu-clock -F $2 -g -o "$dir/perf.data" -- $XZ > /dev/null 2>&1 ;;
	script) perf record -q -e cpu-clock -F $2 -g -o "$dir/perf.data" -- $XZ > /dev/null 2>&1
		perf script -i "$dir/perf.data" > "$dir/out.txt" 2> /dev/null ;;
	esac
	times > "$dir/tms"
	case $1 in
	perf | signal | folded)
		sed -n 's/.*: \([0-9]*\) samples, .*/\1/p' "$dir/err" > "$dir/n.$1.$2"
		wc -c < "$dir/out.txt" > "$dir/b.$1.$2" ;;
	record) wc -c < "$dir/perf.data" > "$dir/b.$1.$2" ;;
	script) grep -c 'cpu-clock' "$dir/out.txt" > "$dir/n.$1.$2"
		cp "$dir/n.$1.$2" "$dir/n.record.$2"
		wc -c < "$dir/out.txt" > "$dir/b.$1.$2" ;;
	esac
	cpu < "$dir/tms" | awk '{ printf "%.0f\n", $1 * 1e9 }'
}

configs="perf signal folded"
command -v perf > /dev/null 2>&1 && configs="$configs record script"
if [ "$part" = all ]; then
# Five rounds; in each, every configuration once, so that a slow minute
# of this shared machine falls on all of them; the median of five.
: > "$dir/times"
for round in 1 2 3 4 5; do
	echo "alone 0 $(run alone 0)" >> "$dir/times"
	for hz in 99 999 4999; do
		for c in $configs; do
			echo "$c $hz $(run $c $hz)" >> "$dir/times"
		done
	done
done
median() { awk -v c="$1" -v h="$2" '$1 == c && $2 == h { print $3 }' "$dir/times" | sort -n |
    awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] / 1e9 }'; }
plain=$(median alone 0)
echo "trace-record --sample: overhead on xz -9 of $(wc -c < "$input" | tr -d ' ') bytes" \
    "($(nproc) CPUs, $(uname -m)); alone: $plain CPU s; medians of 5 interleaved rounds"
printf '%-28s %6s %8s %9s %9s %12s\n' "" Hz "CPU s" slowdown samples bytes/sample
for hz in 99 999 4999; do
	for c in $configs; do
		case $c in
		perf) name="trace-record (perf)" ;;
		signal) name="trace-record (signal)" ;;
		folded) name="  --folded" ;;
		record) name="perf record -g" ;;
		script) name="  then perf script" ;;
		esac
		printf '%-28s' "$name"
		echo "$hz $(median $c $hz) $(cat "$dir/n.$c.$hz" 2> /dev/null || echo 0) $(cat "$dir/b.$c.$hz") $plain" |
		    awk '{ printf " %6d %8.3f %8.3fx %9d %12.0f\n", $1, $2, $2 / $5, $3, $3 ? $4 / $3 : 0 }'
	done
done
command -v perf > /dev/null 2>&1 || echo "note: perf not installed: no perf record rows"
# What each tool costs by itself: the same commands around /bin/true.
fixed() {
	for i in 1 2 3 4 5; do
		t0=$(now)
		"$@" > /dev/null 2>&1 || true
		t1=$(now)
		echo $((t1 - t0))
	done | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[3] / 1e9 }'
}
printf 'fixed cost (around /bin/true, wall time): trace-record --sample %s s' \
    "$(fixed "$TR" --sample -g -F 999 -o "$dir/out.txt" -- true)"
command -v perf > /dev/null 2>&1 &&
    printf ', perf record %s s' "$(fixed perf record -q -e cpu-clock -F 999 -g -o "$dir/perf.data" -- true)"
echo
fi

# --call-graph=dwarf against perf record --call-graph dwarf, side by side
# on Debian's own binaries (built without frame pointers): xz -9 of the
# input above, python3 running a loop and sqlite3 filling and indexing a
# table in memory.  Per configuration, the median of 5 interleaved rounds
# at 999 Hz: the share of samples whose user stack reaches main (holds
# __libc_start_call_main, the frame that calls it, as both name it), the
# median depth of the user stacks (frames not in the kernel), and CPU
# time, not wall time (the machine is shared, and a neighbour's minute
# moves wall time by more than what is measured): "prog" is the
# program's own user+system time (a shell's `times` around it, inside
# the tool), its slowdown the overhead the tool puts on the program;
# "all" is the tool's and the program's together (the tool's own
# unwinding and writing after the run included), against the program
# alone.  Bytes written per sample: ours perf script text, perf's
# perf.data.  The signal mechanism's CPU-time timers fire at the
# kernel's tick (CONFIG_HZ, 250 here): fewer samples, each standing for
# the periods it covers.
command -v perf > /dev/null 2>&1 || { echo "note: perf not installed: no dwarf comparison"; exit 0; }
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
cat > "$dir/loop.py" <<'PYEOF'
import re
d = {}
for i in range(400000):
    k = str(i % 5000)
    d[k] = d.get(k, 0) + len(re.findall(r"[0-9]", k * 3))
print(sum(d.values()))
PYEOF
SQL='CREATE TABLE t(a, b); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1500000) INSERT INTO t SELECT x, hex(x * 2654435761 % 4294967291) FROM c; CREATE INDEX ti ON t(b); SELECT count(*), sum(length(b)) FROM t GROUP BY a % 100 ORDER BY 1 LIMIT 1;'
# stats TEXT: "reach% median-depth samples" of perf script text.
stats() {
	awk '/^[^\t]/ && / cpu-clock:/ { if (n) out(); n = 1; d = 0; r = 0; next }
	/^\t/ { if ($NF != "([kernel.kallsyms])") d++; if ($0 ~ /__libc_start_call_main/) r = 1 }
	function out() { k++; depth[k] = d; reach += r }
	END { if (n) out(); if (k == 0) { print "0 0 0"; exit }
	      m = int((k + 1) / 2); # median by selection: sort the depths
	      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (depth[j] < depth[i]) { t = depth[i]; depth[i] = depth[j]; depth[j] = t }
	      printf "%.1f %d %d\n", 100 * reach / k, depth[m], k }' "$1"
}
drun() {	# drun CONFIG PROG: one run; "prog-cpu all-cpu" on stdout, stats and bytes in files
	case $2 in
	xz) set -- "$1" xz -9 -c -T1 "$input" ;;
	python3) set -- "$1" $PY "$dir/loop.py" ;;
	sqlite3) set -- "$1" sqlite3 :memory: "$SQL" ;;
	esac
	c=$1
	shift
	rm -f "$dir/tp"
	# The program inside a shell that says its CPU time; the tool inside
	# another, that says the whole.
	set -- sh -c '"$@" > /dev/null; times > "$T"' sh "$@"
	case $c in
	alone) all=$(T="$dir/tp" sh -c '"$@" > /dev/null; times' sh "$@" | cpu) ;;
	perf | signal) all=$(T="$dir/tp" sh -c '"$@" > /dev/null 2> "$E"; times' sh "$TR" --sample \
	    --call-graph=dwarf -F 999 --mechanism=$c -o "$dir/d.txt" -- "$@" | cpu) ;;
	record) all=$(T="$dir/tp" sh -c '"$@" > /dev/null 2> "$E"; times' sh perf record -q -e cpu-clock \
	    -F 999 --call-graph dwarf -o "$dir/d.data" -- "$@" | cpu) ;;
	esac
	case $c in
	perf | signal) echo "$(stats "$dir/d.txt") $(wc -c < "$dir/d.txt")" > "$dir/s.$c" ;;
	record) perf script -i "$dir/d.data" > "$dir/d.txt" 2> /dev/null
		echo "$(stats "$dir/d.txt") $(wc -c < "$dir/d.data")" > "$dir/s.$c" ;;
	esac
	echo "$(cpu < "$dir/tp") $all"
}
export E="$dir/err"
echo
echo "--call-graph=dwarf against perf record --call-graph dwarf, 999 Hz, CPU seconds, median of 5 rounds"
printf '%-8s %-22s %7s %6s %7s %6s %7s %6s %8s %12s\n' program "" "reach %" depth \
    "prog s" slower "all s" slower samples bytes/sample
progs="xz python3"
if command -v sqlite3 > /dev/null 2>&1; then progs="$progs sqlite3"
else echo "note: no sqlite3 (Debian: apt-get install sqlite3): no sqlite3 rows"; fi
for prog in $progs; do
	: > "$dir/dtimes"
	for round in 1 2 3 4 5; do
		for c in alone perf signal record; do
			echo "$c $(drun $c $prog)" >> "$dir/dtimes"
			[ $c = alone ] || cp "$dir/s.$c" "$dir/s.$c.$round"
		done
	done
	# dmed CONFIG COLUMN: the median of a column of CONFIG's rounds.
	dmed() { awk -v c="$1" -v k="$2" '$1 == c { print $k }' "$dir/dtimes" | sort -n | sed -n 3p; }
	alone=$(dmed alone 2)
	for c in perf signal record; do
		case $c in
		perf) name="trace-record (perf)" ;;
		signal) name="trace-record (signal)" ;;
		record) name="perf record" ;;
		esac
		med=$(dmed $c 2)
		# The stats of the round with the median program time.
		r=$(awk -v c="$c" -v m="$med" '$1 == c { n++; if ($2 == m) print n }' "$dir/dtimes" | head -n 1)
		set -- $(cat "$dir/s.$c.$r") "$med" "$(dmed $c 3)" "$alone"
		printf '%-8s %-22s %7s %6s %7.3f %5.3fx %7.3f %5.3fx %8s %12.0f\n' $prog "$name" "$1" "$2" \
		    "$5" "$(echo "$5 $7" | awk '{ print $2 ? $1 / $2 : 0 }')" \
		    "$6" "$(echo "$6 $7" | awk '{ print $2 ? $1 / $2 : 0 }')" \
		    "$3" "$(echo "$4 $3" | awk '{ print $2 ? $1 / $2 : 0 }')"
	done
done

# The signal mechanism's own cost in the program, free of the timing
# noise above: perf record at 4999 Hz samples one run of it on xz, and
# counts the share of xz's samples in the sampler (its handler and the
# walk), in libc's signal return or in the kernel delivering a signal
# and returning from it.  (perf's own sampling runs in the timer
# interrupt, where no sample sees it: there is no such figure for it.)
if perf record -q -e cpu-clock -F 4999 -g -o "$dir/h.data" -- "$TR" --sample --call-graph=dwarf \
    -F 999 --mechanism=signal -o "$dir/d.txt" -- xz -9 -c -T1 "$input" > /dev/null 2>&1; then
	perf script -i "$dir/h.data" --comm xz 2> /dev/null | awk '
	    / cpu-clock:/ { n++; in_h = 0; next }
	    /^$/ { h += in_h; in_h = 0; next }
	    /libtrsample|__restore_rt|rt_sigreturn|do_signal|get_signal|setup_rt_frame/ { in_h = 1 }
	    END { h += in_h; printf "signal mechanism, dwarf, 999 Hz, in xz: %.2f%% of its CPU time in the" \
	        " sampler and signal delivery (%d of %d samples of perf record -F 4999)\n", n ? 100 * h / n : 0, h, n }'
fi
