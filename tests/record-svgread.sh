#!/bin/sh
# Record flamegraph.pl's SVGs (--minwidth 0) of the profiles that
# tests/run.sh reads back ("svg: flame graphs read back"): the
# collapsed-default files of tests/data and of the corpus captures.  Not part of `make test`: run
# it by hand when the inputs or flamegraph.pl change, and review the diff.
# The SVGs are kept without flamegraph.pl's <script> (its code, not its
# drawing) and gzipped, in tests/svgread/flamegraph-pl/NAME.svg.gz.
#
#   FLAMEGRAPH_DIR=../FlameGraph sh tests/record-svgread.sh
set -eu
: "${FLAMEGRAPH_DIR:?set FLAMEGRAPH_DIR to a FlameGraph checkout}"
top=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-$top/../shared/corpus}
out=$top/tests/svgread/flamegraph-pl
mkdir -p "$out"
for in in "$top"/tests/data/*.collapsed-default.txt.gz \
    "$CORPUS"/captures/*.collapsed-default.txt.gz; do
	[ -f "$in" ] || continue
	b=$(basename "$in" .txt.gz)
	gzip -dc "$in" | perl "$FLAMEGRAPH_DIR/flamegraph.pl" --minwidth 0 2>/dev/null |
	    sed '/<script/,/<\/script>/d' | gzip -9n > "$out/$b.svg.gz"
done
