#!/bin/sh
# Regenerate the expected folded output of the bundled captures with
# FlameGraph's stackcollapse-perf.pl.  Not part of `make test`: run it by
# hand after adding a capture, and review the diff before committing.
#
#   FLAMEGRAPH_DIR=../FlameGraph sh tests/record-captures.sh
set -eu
: "${FLAMEGRAPH_DIR:?set FLAMEGRAPH_DIR to a FlameGraph checkout}"
cd "$(dirname "$0")/data"
for in in *.perf.txt.gz; do
	b=${in%.perf.txt.gz}
	gzip -dc "$in" > "/tmp/$b.txt"
	for o in default pid tid kernel jit all addrs; do
		opt=--$o
		[ $o = default ] && opt=
		perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" $opt "/tmp/$b.txt" |
		    gzip -9n > "$b.collapsed-$o.txt.gz"
	done
	rm -f "/tmp/$b.txt"
done
