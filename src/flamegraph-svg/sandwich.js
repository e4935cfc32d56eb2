/*
 * sandwich: the selected function's callers and callees (Pyroscope's
 * sandwich view), after table.js.
 *
 * Two graphs of flame.js's graph(), zoomed, hovered and searched as the
 * main one: above, the callers as an icicle ending in the function, on
 * its bottom row (every stack that reaches it, merged from it upwards);
 * below, the function on its top row and its callees under it (merged
 * over every place it is called).  Both are built from the frames as a
 * tree (tree()) out of the function's outermost frames, those with no
 * frame of the same name below them: so a recursive function counts once
 * per stack, and the function's width is its total in the table.  Like
 * the main graph's, callees are in name order.  In a --diff graph the
 * merged frames sum both sides too (diffview.js) and are coloured by diff as the
 * graph's (diffFill): callees by the change of their self; callers, and
 * the function above, by the change of the function's total through them.
 *
 * Contract, for views.js:
 *   sandwich(top)  show the graphs of the function sel from y = top down;
 *                  returns the y where they end
 *   unsandwich()   hide them (kept for the same function)
 *   sw             the graphs shown, { x, up, down }, or null
 * Each half has its heading, "Callers of" and "Callees of" the function
 * (swHeads, SVG text), in a row of its own above it.
 */
var sw = null, swHeads = null;

/* A merged frame: count, callees by name, and what a graph's frame has. */
function node(x, p) {
	return { name: nm[x], x: x, n: 0, s: 0, row: 0, p: p, fill: fillOf[x], by: null, hit: false, title: "", chars: -1, label: "" };
}
function child(a, x) {
	var c = a.by && a.by.get(x);
	if (!c) (a.by || (a.by = new Map())).set(x, (c = node(x, a)));
	return c;
}
/*
 * Add frame f's subtree into merged frame a (a --diff graph's: both
 * sides too, diffview.js).  Loops with a stack of their own, not
 * recursion: a stack 100,000 frames deep overflows the script's.  Both
 * take frames in the order recursion would (callers first, callees in
 * order), so that fractional sums add up in the same order.
 */
var add = (a, f) => { a.n += f.n; };
function addUnder(a, f) {
	for (var st = [a, f], i; st.length; ) {
		f = st.pop();
		a = st.pop();
		add(a, f, 1);
		for (i = f.kids.length; i--; ) st.push(child(a, f.kids[i].x), f.kids[i]);
	}
}
/* The merged frames in rows at y0, y0 + dy, ...: starts, rows and frames. */
function rowsOf(a, y0, dy) {
	var rows = [], all = [], st = [a], kids, i, s;
	a.s = 0;
	a.row = 0;
	while (st.length) {
		a = st.pop();
		if (!rows[a.row]) rows[a.row] = { y: y0 + a.row * dy, frames: [] };
		rows[a.row].frames.push(a);
		all.push(a);
		if (!a.by) continue;
		kids = Array.from(a.by.values()).sort((x, y) => x.x - y.x);
		for (i = 0, s = a.s; i < kids.length; s += kids[i++].n) {
			kids[i].s = s;
			kids[i].row = a.row + 1;
		}
		for (i = kids.length; i--; ) st.push(kids[i]);
	}
	return [rows, all];
}

function sandwich(top) {
	var x = sel, step = Math.abs(D.rowy[1]);
	if (!sw || sw.x !== x) {
		if (sw) [sw.up, sw.down].forEach((g) => {
			g.fo.remove();
			g.outline.remove();
			graphs.splice(graphs.indexOf(g), 1);
		});
		tree();
		/*
		 * The frames at or under one of the function's, found in one
		 * pass, as frames come callers first: a walk up from each of
		 * them cost a recursion 100,000 deep 5 billion steps.
		 */
		var up = node(x, null), down = node(x, null), inside = new Set();
		frames.forEach((f) => {
			if (f.p && inside.has(f.p)) {
				inside.add(f);
				return;
			}
			if (f.x !== x) return;
			inside.add(f);
			if (f === rootFrame) return;
			addUnder(down, f);
			add(up, f, 0);
			for (var c = up, a = f.p; a !== rootFrame; a = a.p) add(c = child(c, a.x), f, 0);
		});
		sw = { x: x };
		[up, down].forEach((r, i) => {
			var rs = rowsOf(r, 0, i ? step : -step), g = graph(rs[0], details);
			g.frames = rs[1];
			if (D.diff) g.frames.forEach((f) => { f.fill = diffFill(f); });
			if (curRe) g.frames.forEach((f) => { f.hit = curRe.test(f.name); });
			g.up = !i;
			sw[i ? "down" : "up"] = g;
		});
	}
	if (!swHeads) swHeads = [0, 1].map(() => svg.insertBefore(el("text", null, "font-weight:bold"), details));
	/* The callers' heading and rows from the top down to the function's, then the callees'. */
	var u = sw.up.rows, d = sw.down.rows, y = top + u.length * step;
	heading(0, "Callers of ", top);
	u.forEach((r, i) => { r.y = y - i * step; });
	y += 2 * step;
	heading(1, "Callees of ", y - step);
	d.forEach((r, i) => { r.y = y + i * step; });
	[sw.up, sw.down].forEach((g) => { g.hidden = false; g.w = width - 2 * XPAD; });
	return y + d.length * step;
}
/* Heading i at row y: text, as names are (never markup). */
function heading(i, text, y) {
	var h = swHeads[i];
	h.textContent = text + nm[sw.x];
	setAttr(h, "x", XPAD);
	setAttr(h, "y", y + labelY);
	h.style.display = "";
}
function unsandwich() {
	if (sw) sw.up.hidden = sw.down.hidden = true;
	if (swHeads) swHeads.forEach((h) => { h.style.display = "none"; });
}
