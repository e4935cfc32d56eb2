#!/bin/sh
# Regenerate the expected output of the converters of issue 21 with the
# FlameGraph scripts themselves.  Not part of `make test`: run it by hand
# after adding a capture or a case, and review the diff before committing.
#
#   FLAMEGRAPH_DIR=../FlameGraph sh tests/record-converters.sh
#
# The awk scripts need gawk (mawk reads \s as s).
#
# Captures, tests/data/formats/FORMAT-NAME.txt, get FORMAT-NAME.folded from
# FORMAT's script; cases with a ref, tests/cases/*/ref, get their out from
# it, a sh script that runs the scripts the ways cmd runs stackcollapse.
set -eu
: "${FLAMEGRAPH_DIR:?set FLAMEGRAPH_DIR to a FlameGraph checkout}"
FG=$(cd "$FLAMEGRAPH_DIR" && pwd)
export FG
top=$(cd "$(dirname "$0")/.." && pwd)

# The script of a format, as a command, or nothing for the older formats.
script() {
	case $1 in
	elfutils) echo "perl $FG/stackcollapse-elfutils.pl" ;;
	faulthandler) echo "perl $FG/stackcollapse-faulthandler.pl" ;;
	esac
}

for in in "$top"/tests/data/formats/*.txt; do
	s=$(script "$(basename "$in" | sed 's/-.*//')")
	[ -n "$s" ] || continue
	$s "$in" > "${in%.txt}.folded"
done
for d in "$top"/tests/cases/*/; do
	[ -f "$d/ref" ] || continue
	(cd "$d" && sh ./ref > out)
done
