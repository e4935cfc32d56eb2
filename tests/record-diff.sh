#!/bin/sh
# Record the two captures of flamegraph-svg(1)'s differential example:
# tests/diff/prog.c built as it was before a change and after it (-DAFTER:
# the hot insertion sort replaced by a merge sort, legacy_scan by a longer
# validate), each run sampled by perf on the CPU clock with call graphs
# (frame pointers), folded by our stackcollapse.  Both builds are named
# prog, so that their stacks share a root.  Not part of `make test` (the
# samples differ from run to run): run it by hand, look at the diff graph,
# and commit tests/data/diff-before.folded and diff-after.folded.
#
#   sh tests/record-diff.sh        (needs perf and a C compiler)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for side in before after; do
	mkdir "$tmp/$side"
	# shellcheck disable=SC2046
	${CC:-cc} -O0 -fno-omit-frame-pointer $([ $side = after ] && echo -DAFTER) \
	    -o "$tmp/$side/prog" "$top/tests/diff/prog.c"
	(cd "$tmp/$side" && perf record -q -e cpu-clock -g -o perf.data ./prog 100)
	perf script -i "$tmp/$side/perf.data" 2> /dev/null |
	    "$top/bin/stackcollapse" > "$top/tests/data/diff-$side.folded"
done
