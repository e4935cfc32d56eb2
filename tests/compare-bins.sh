#!/bin/sh
# compare-bins.sh OLDBIN NEWBIN: byte-compare two builds' outputs (stdout,
# stderr, exit status) over the corpus and tests/data, for a change meant
# to keep behaviour (a refactor).  Not part of make test: it needs a
# second build, e.g. from a git worktree of the base commit.  With
# SCRIPTS=0, flamegraph-svg's <script> elements (the script and its data)
# are left out of the comparison, for a change of the script's form.
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-$top/../shared/corpus}
t=$(mktemp -d); n=0; bad=0
cmpout() { # label cmd-with-BIN
	n=$((n+1))
	BIN=$old sh -c "$2" > $t/a 2>$t/ae; sa=$?
	BIN=$new sh -c "$2" > $t/b 2>$t/be; sb=$?
	if [ "${SCRIPTS:-1}" = 0 ]; then
		sed '/^<script/,/<\/script>$/d' $t/a > $t/a2 && mv $t/a2 $t/a
		sed '/^<script/,/<\/script>$/d' $t/b > $t/b2 && mv $t/b2 $t/b
	fi
	if ! cmp -s $t/a $t/b || [ $sa != $sb ] || ! cmp -s $t/ae $t/be; then bad=$((bad+1)); echo "DIFF $1 (status $sa/$sb)"; fi
}
for f in $CORPUS/captures/*.perf.txt.gz $top/tests/data/*.perf.txt.gz; do
	for o in "" "--all" "--pid --tid" "--perl" "--addrs"; do
		cmpout "sc $o $(basename $f)" "\$BIN/stackcollapse $o $f"
	done
done
for f in $top/tests/data/formats/*; do
	case $f in *.folded) continue;; esac
	cmpout "sc $(basename $f)" "\$BIN/stackcollapse $f"
	cmpout "sc noagg $(basename $f)" "\$BIN/stackcollapse --no-aggregate $f"
done
for f in $CORPUS/captures/*.collapsed-default.txt.gz $top/tests/data/formats/*.folded; do
	cmpout "fg $(basename $f)" "\$BIN/flamegraph-svg $f"
	cmpout "sc folded $(basename $f)" "\$BIN/stackcollapse --format=folded $f"
done
for d in $CORPUS/flamegraph $CORPUS/inferno; do
	find $d -type f | head -400 > $t/list
	while read f; do
		cmpout "sc auto $f" "\$BIN/stackcollapse $f"
	done < $t/list
done
for f in $(find $top/tests -name '*.spans' -o -name '*.json' | grep -v node_modules | head -100); do
	cmpout "sl $f" "\$BIN/spanlayout $f"
	cmpout "sl fold $f" "\$BIN/spanlayout --fold $f"
	cmpout "sl->fg $f" "\$BIN/spanlayout $f | \$BIN/flamegraph-svg"
done
echo "$n compared, $bad differ"
rm -rf $t
