# The reference for cmd: stackcollapse-perf.pl with the same options.
in=../../data/layouts/inline.txt
for o in --inline "--inline --context" "--inline --all --tid"; do
	echo "# $o"
	perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" $o $in 2> /dev/null
done
echo "# --srcline"
perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --srcline ../../data/layouts/srcline.txt 2> /dev/null
perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --srcline --addrs ../../data/layouts/srcline.txt 2> /dev/null
