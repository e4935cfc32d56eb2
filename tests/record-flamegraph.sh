#!/bin/sh
# Record the frames of flamegraph.pl's SVGs for the conformance cases in
# tests/flamegraph/cases.tsv.  Not part of `make test`: run it by hand when
# cases change, and review the diff.  Only frame lists are kept, never
# flamegraph.pl's SVGs (they embed its script).
#
#   FLAMEGRAPH_DIR=../FlameGraph sh tests/record-flamegraph.sh
set -eu
: "${FLAMEGRAPH_DIR:?set FLAMEGRAPH_DIR to a FlameGraph checkout}"
top=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-$top/../shared/corpus}
grep -v '^#' "$top/tests/flamegraph/cases.tsv" |
while IFS='	' read -r name opts inputs; do
	[ "$opts" = - ] && opts=
	set --
	for i in $inputs; do set -- "$@" "$CORPUS/$i"; done
	cat "$@" | perl "$FLAMEGRAPH_DIR/flamegraph.pl" $opts 2>/dev/null |
	    sh "$top/tests/flamegraph/frames.sh" > "$top/tests/flamegraph/expected/$name.frames"
done
