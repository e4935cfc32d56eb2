#!/bin/sh
# Fold every perf script -F layout made of any of comm, pid, tid, cpu,
# time, tod, period and event (256 sets) with ip,sym, ip,sym,dso and
# ip,sym,symoff,dso: each must give the stacks of the full layout, rooted
# at comm where it is printed, weighed by periods where they are printed,
# with nothing on stderr; and with --perl, what stackcollapse-perf.pl
# gives (when FLAMEGRAPH_DIR is set).  One recording of
# tests/data/layouts/spin.c under perf record -e cpu-clock -g, with a cpu
# and a clock.  Not part of `make test` (it needs perf and a minute);
# prints the layouts that differ and "N layouts, N bad".
#
#   [FLAMEGRAPH_DIR=../FlameGraph] sh tests/sweep-layouts.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
S=$top/bin/stackcollapse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o spin \
    "$top/tests/data/layouts/spin.c"
perf record -q -e cpu-clock -F 199 -g --sample-cpu -k CLOCK_MONOTONIC \
    -o perf.data ./spin > /dev/null || exit 1
perf script -i perf.data -F comm,tid,time,period,event,ip,sym 2> /dev/null |
    "$S" > full.p
perf script -i perf.data -F comm,tid,time,ip,sym 2> /dev/null | "$S" > full.s
bad=0 n=0
for mask in $(seq 0 255); do
	fs= i=0
	for f in comm pid tid cpu time tod period event; do
		[ $(((mask >> i) & 1)) = 1 ] && fs="$fs$f,"
		i=$((i + 1))
	done
	case $fs in *period*) exp=full.p ;; *) exp=full.s ;; esac
	case $fs in *comm*) cat $exp > want ;; *) sed 's/^spin;//' $exp > want ;; esac
	for tail in ip,sym ip,sym,dso ip,sym,symoff,dso; do
		perf script -i perf.data -F "$fs$tail" > in.txt 2> /dev/null
		n=$((n + 1))
		"$S" in.txt > out 2> err
		if ! cmp -s out want || [ -s err ]; then
			bad=$((bad + 1))
			echo "differs: -F $fs$tail"
		fi
		[ -n "${FLAMEGRAPH_DIR:-}" ] || continue
		"$S" --perl in.txt > out 2> /dev/null
		perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" in.txt > want.pl 2> /dev/null
		cmp -s out want.pl || { bad=$((bad + 1)); echo "--perl differs: -F $fs$tail"; }
	done
done
echo "$n layouts, $bad bad"
