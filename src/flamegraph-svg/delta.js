/*
 * delta: a classic differential graph's (three-column input's) part of
 * a frame's title, as flamegraph.pl writes it; scriptdata.c embeds this file
 * only into those graphs, whose frames have a delta (f.d).
 */
function deltaOf(f) {
	var d = D.negate ? -f.d : f.d;
	return "; " + (d > 0 ? "+" : "") + fixed(100 * d / (total * D.factor), 2) + "%";
}
