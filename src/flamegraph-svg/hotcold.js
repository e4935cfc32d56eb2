/*
 * hotcold: a hot/cold graph's (--colors=hotcold) part of a frame's
 * title, as hotcold.c writes it; scriptdata.c embeds this file only into
 * those graphs, whose frames have their off-CPU time (f.o).
 */
function offOf(f) {
	return "; off-CPU " + fixed(f.n > 0 ? 100 * Math.min(f.o / f.n, 1) : 0, 2) + "%";
}

/*
 * The table's Off-CPU column: each function's time off the CPU, counted
 * as its total is (the outermost frame of its name on a stack), from the
 * marks under each frame ([off-cpu], folded(5)) rather than the file's
 * numbers, so that it follows the graph's transforms.
 */
COLS = ["self", "total", "off", "name"];
HEADS.off = "Off-CPU";
var statsOnCPU = stats, rowTextOnCPU = rowText;
stats = function () {
	if (tab) return tab;
	var t = statsOnCPU(), r;
	for (r = rows.length; r--; )
		rows[r].frames.forEach((f) => {
			f.oc = (f.name === "[off-cpu]" ? f.n : f.oc || 0);
			if (f.p) f.p.oc = (f.p.oc || 0) + f.oc;
		});
	walk({ off: 0 }, (f) => f.kids, (r, f, first) => { if (first) r.off += f.oc; });
	t.forEach((row, x) => { row.off = tab[x].off; });
	frames.forEach((f) => { f.oc = 0; });
	return (tab = t);
};
rowText = (r) => rowTextOnCPU(r) + ", off-CPU " + inUnit(r.off) + " (" + share(r.off) + ")";
