#!/bin/sh
# make bench: the overhead of trace-record --sample on a CPU-bound real
# program, xz -9 of a fixed 6 MB file (made by a seeded generator: text
# that compresses about 4:1), against perf record -g on the same file in
# the same run, at 99, 999 and 4999 Hz.  Each time is the best of 3; the
# slowdown is against the program alone.  Bytes per sample: the output
# as written (our perf script text or folded stacks; perf's perf.data,
# and its perf script text).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
TR="$top/bin/trace-record"
dir="$top/build/bench/sample"
mkdir -p "$dir"

awk 'BEGIN { srand(7); for (i = 0; i < 120000; i++) {
	n = int(rand() * 12) + 2; s = ""
	for (j = 0; j < n; j++) s = s sprintf("%c", 97 + int(rand() * rand() * 26))
	printf "%s %d %s\n", s, int(rand() * 100000), (i % 7 ? "ok" : "retry") } }' > "$dir/input"
input="$dir/input"

now() { date +%s%N; }
# best CMD...: the best of 3 wall times, seconds.
best() {
	b=
	for i in 1 2 3; do
		t0=$(now)
		"$@" > /dev/null 2>&1 || true
		t1=$(now)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ $t -lt "$b" ]; then b=$t; fi
	done
	echo "$b" | awk '{ printf "%.3f", $1 / 1e9 }'
}

plain=$(best xz -9 -c -T1 "$input")
echo "trace-record --sample: overhead on xz -9 of $(wc -c < "$input" | tr -d ' ') bytes ($(nproc) CPUs, $(uname -m)); alone: ${plain} s"
printf '%-28s %6s %8s %9s %9s %12s\n' "" Hz "time s" slowdown samples bytes/sample
row() {
	name=$1 hz=$2 t=$3 n=$4 bytes=$5
	echo "$name $hz $t $n $bytes $plain" | awk '{ printf "%-28s %6d %8.3f %8.3fx %9d %12.0f\n",
	    $1, $2, $3, $3 / $6, $4, $4 ? $5 / $4 : 0 }'
}
for hz in 99 999 4999; do
	for m in perf signal; do
		t=$(best "$TR" --sample -g -F $hz --mechanism=$m -o "$dir/out.txt" -- xz -9 -c -T1 "$input")
		"$TR" --sample -g -F $hz --mechanism=$m -o "$dir/out.txt" -- xz -9 -c -T1 "$input" \
		    2> "$dir/err" > /dev/null
		n=$(sed -n 's/.*: \([0-9]*\) samples, .*/\1/p' "$dir/err")
		row "trace-record ($m)" $hz "$t" "$n" "$(wc -c < "$dir/out.txt")"
	done
	"$TR" --sample -g -F $hz --folded -o "$dir/out.f" -- xz -9 -c -T1 "$input" 2> "$dir/err" > /dev/null
	n=$(sed -n 's/.*: \([0-9]*\) samples, .*/\1/p' "$dir/err")
	row "  --folded (perf)" $hz "-1" "$n" "$(wc -c < "$dir/out.f")" | sed 's/ *-1.000 *-0.[0-9]*x/       -         -/'
	if command -v perf > /dev/null 2>&1; then
		t=$(best perf record -q -e cpu-clock -F $hz -g -o "$dir/perf.data" -- xz -9 -c -T1 "$input")
		perf record -q -e cpu-clock -F $hz -g -o "$dir/perf.data" -- xz -9 -c -T1 "$input" > /dev/null 2>&1
		perf script -i "$dir/perf.data" > "$dir/perf.txt" 2> /dev/null
		n=$(grep -c 'cpu-clock' "$dir/perf.txt" || true)
		row "perf record -g" $hz "$t" "$n" "$(wc -c < "$dir/perf.data")"
		t0=$(now)
		perf record -q -e cpu-clock -F $hz -g -o "$dir/perf.data" -- xz -9 -c -T1 "$input" > /dev/null 2>&1
		perf script -i "$dir/perf.data" > "$dir/perf.txt" 2> /dev/null
		t1=$(now)
		row "  + perf script (text)" $hz "$(echo $((t1 - t0)) | awk '{ printf "%.3f", $1 / 1e9 }')" \
		    "$n" "$(wc -c < "$dir/perf.txt")"
	else
		echo "note: perf not installed: no perf record column"
	fi
done
