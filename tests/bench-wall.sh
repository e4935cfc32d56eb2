#!/bin/sh
# The cost of trace-record --sample --wall on a program that blocks all
# the time: tests/sample/pingpong.c, two threads passing a byte through
# two pipes (N round trips, 2N blocking reads and context switches).
# Wall time, best of 7 interleaved rounds, of the program alone and
# under each mechanism, with and without --wall, both threads on one
# CPU; the ratios are against alone, in the same run.  On a shared machine run it alone (flock on a common lock file).
#	sh tests/bench-wall.sh [N]	(N: 100000 by default)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
TR=${TR:-"$top/bin/trace-record"}
dir="$top/build/bench/wall"
n=${1:-100000}
mkdir -p "$dir"
${CC:-cc} -O2 -g -fno-omit-frame-pointer -pthread -o "$dir/pingpong" \
    "$top/tests/sample/pingpong.c"

now() { date +%s%N; }
# once CMD...: one run's wall time in ns.
once() {
	t0=$(now)
	"$@" > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
	echo $(($(now) - t0))
}

set -- "" "--mechanism=perf -g" "--mechanism=perf -g --wall" "--mechanism=signal -g" \
    "--mechanism=signal -g --wall"
: > "$dir/times"
# Seven rounds, each running every configuration once, so that a slow
# moment of the machine falls on all of them; the best of each.  Both
# threads on one CPU (taskset, when there): every round trip is then two
# context switches, not a wake-up across CPUs whose cost varies with
# what the other CPUs are doing.
pin=
command -v taskset > /dev/null 2>&1 && pin="taskset -c 0"
for round in 1 2 3 4 5 6 7; do
	i=0
	for args in "$@"; do
		i=$((i + 1))
		if [ -z "$args" ]; then
			t=$(once $pin "$dir/pingpong" "$n")
		elif $TR --sample $args -o /dev/null -- true 2> /dev/null; then
			# shellcheck disable=SC2086
			t=$(once $pin "$TR" --sample $args -o "$dir/out.txt" -- "$dir/pingpong" "$n")
			sed -n 's/.*: \([0-9]*\) samples, .*/\1/p' "$dir/err" > "$dir/n.$i"
		else
			t=skip
		fi
		echo "$i $t" >> "$dir/times"
	done
done
alone=$(awk '$1 == 1 { if (b == "" || $2 < b) b = $2 } END { print b }' "$dir/times")
i=0
for args in "$@"; do
	i=$((i + 1))
	b=$(awk -v i=$i '$1 == i && $2 != "skip" { if (b == "" || $2 < b) b = $2 } END { print b }' \
	    "$dir/times")
	if [ -z "$b" ]; then
		printf '%-30s skip (not permitted here)\n' "$args"
		continue
	fi
	awk -v a="$args" -v b="$b" -v r="$alone" -v n="$(cat "$dir/n.$i" 2> /dev/null)" \
	    'BEGIN { printf "%-30s %7.3f s  %5.2fx  %s\n", a == "" ? "alone" : a, b / 1e9,
		b / r, n == "" ? "" : n " samples" }'
done
