# The reference for cmd: stackcollapse-perf.pl with the same options.
in=../../data/layouts/inline.txt
for o in --inline "--inline --context" "--inline --all --tid"; do
	echo "# $o"
	perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" $o $in 2> /dev/null
done
echo "# --srcline"
perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --srcline ../../data/layouts/srcline.txt 2> /dev/null
perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --srcline --addrs ../../data/layouts/srcline.txt 2> /dev/null
sed 's/^\t *\(1[0-9a-f]\{3\}\) \(.*spin[.]bin\)/\t    7f000000\1 \2/' $in > abs.txt
echo "# --inline --context, run-time addresses"
perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" --inline --context abs.txt 2> /dev/null
rm -f abs.txt
