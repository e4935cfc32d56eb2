# The reference for cmd: FlameGraph's script with the same options.
in=../../data/formats/jstack-busy.txt
for o in --include-tname --no-include-tname --noinclude-tname --include-tid \
    --no-include-tid "--include-tid --no-include-tid" \
    "--no-include-tname --include-tname" "--no-include-tname --include-tid" \
    "--shorten-pkgs --no-shorten-pkgs"; do
	echo "# $o"
	perl "$FLAMEGRAPH_DIR/stackcollapse-jstack.pl" $o $in 2>/dev/null
done
