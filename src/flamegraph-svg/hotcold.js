/*
 * hotcold: a hot/cold graph's (--colors=hotcold) part of a frame's
 * title, as hotcold.c writes it; scriptdata.c embeds this file only into
 * those graphs, whose frames have their off-CPU time (f.o).
 */
function offShare(f) { return f.n > 0 ? Math.min(f.o / f.n, 1) : 0; }
function offOf(f) {
	return "; off-CPU " + fixed(100 * offShare(f), 2) + "%";
}

/*
 * A transformed graph's frames (xform.js's layout, which sums each
 * frame's off-CPU time, f.o, from the marks of the file's stacks) are
 * coloured as hotcold.c colours the file's: between the name's hot and
 * blue shades by the frame's share off the CPU.
 */
var layoutOnCPU = layout;
layout = function (stacks, rx) {
	var l = layoutOnCPU(stacks, rx);
	l[1].forEach((f) => {
		var v = shadeOf(nm[f.x]), k = offShare(f),
			h = [205 + Math.floor(50 * v), Math.floor(230 * v), Math.floor(55 * v)],
			c = [80 + Math.floor(60 * v), 80 + Math.floor(60 * v), 205 + Math.floor(50 * v)];
		f.fill = "#" + h.map((x, i) => (256 + Math.floor(x + (c[i] - x) * k + 0.5)).toString(16).slice(1)).join("");
	});
	return l;
};

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
