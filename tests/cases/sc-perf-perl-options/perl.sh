# The reference for cmd: stackcollapse-perf.pl with the same options.
in=../../data/layouts/pid-tid.txt
for o in "" --pid --tid --kernel --jit --all --addrs "--all --tid" \
    --event-filter=cpu-clock "--event-filter cpu-clock" \
    -pid -tid -kernel -jit -all -addrs "-event-filter cpu-clock"; do
	echo "# $o"
	perl "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" $o $in 2> /dev/null
done
