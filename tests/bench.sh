#!/bin/sh
# make bench: wall time and MB/s of stackcollapse against references run on
# the same file in the same run: `wc -l` (the I/O floor) and, when
# FLAMEGRAPH_DIR names a FlameGraph checkout, stackcollapse-perf.pl.
# Inputs: FlameGraph's example-perf-stacks (from ../shared/corpus) and a
# capture of at least 100 MB recorded here with perf (BENCH_CAPTURE names an
# existing one instead).  Times are the best of 3 runs (the Perl: 1 run).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
SC="$top/bin/stackcollapse"
CORPUS=${CORPUS:-$top/../shared/corpus}
dir="$top/build/bench"
mkdir -p "$dir"

now() { date +%s%N; }

# best TIMES CMD...: best wall time in seconds over TIMES runs
best() {
	times=$1
	shift
	b=
	i=0
	while [ $i -lt "$times" ]; do
		t0=$(now)
		"$@" > /dev/null 2>&1
		t1=$(now)
		t=$((t1 - t0))
		if [ -z "$b" ] || [ $t -lt "$b" ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b" | awk '{ printf "%.3f", $1 / 1e9 }'
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
printf '%-28s %8s %10s %16s %16s %16s %9s %9s\n' file MB "wc -l s" \
    "sc -j1 s (x wc)" "sc s (x wc)" "perl s" "vs perl" "MB/s"
for f in $inputs; do
	cat "$f" > /dev/null
	mb=$(wc -c < "$f" | awk '{ printf "%.1f", $1 / 1048576 }')
	wc=$(best 3 wc -l "$f")
	j1=$(best 3 "$SC" -j1 --all "$f")
	jn=$(best 3 "$SC" --all "$f")
	perl=-
	vs=-
	if [ -n "${FLAMEGRAPH_DIR:-}" ]; then
		perl=$(best 1 perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --all "$f")
		vs=$(echo "$perl $jn" | awk '{ printf "%.0fx", $1 / $2 }')
	fi
	x1=$(echo "$j1 $wc" | awk '{ printf "%.1f", $1 / $2 }')
	xn=$(echo "$jn $wc" | awk '{ printf "%.1f", $1 / $2 }')
	mbs=$(echo "$mb $jn" | awk '{ printf "%.0f", $1 / $2 }')
	printf '%-28s %8s %10s %16s %16s %16s %9s %9s\n' "$(basename "$f")" "$mb" \
	    "$wc" "$j1 ($x1)" "$jn ($xn)" "$perl" "$vs" "$mbs"
done
