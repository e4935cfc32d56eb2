# The reference for cmd: stackcollapse-perf.pl on the same layouts.
for f in ../../data/layouts/*.txt; do
	for o in "" --tid --addrs; do
		echo "# $(basename "$f") $o"
		perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" $o "$f" 2> /dev/null
	done
done
