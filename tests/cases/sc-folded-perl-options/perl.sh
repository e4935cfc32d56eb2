# The reference for cmd: difffolded.pl and stackcollapse-recursive.pl.
for o in "" -n -s -ns "-n -s"; do
	echo "# --diff $o"
	perl "$FLAMEGRAPH_DIR/difffolded.pl" $o before.folded after.folded | sort
done
echo "# --recursive"
cat before.folded after.folded |
    perl "$FLAMEGRAPH_DIR/stackcollapse-recursive.pl" | sort
