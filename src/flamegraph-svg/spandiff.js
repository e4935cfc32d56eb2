/*
 * spandiff: two selections of a span profile compared, as flamegraph-svg
 * --diff compares two profiles; after spanflame.js (whose samples' sums
 * it takes), before timeline.js.
 *
 * The user sets a source as A ("Set as A") and picks another, B, to
 * compare with it.  The two sides' stacks are merged here into the tree
 * diff.c builds for --diff (every node, breadth first, callees by name,
 * each its name, number of callees and both sides' totals and selves),
 * and handed to the flame graph's own diff view (diffview.js, in the
 * flameGraph function timeline.c embeds): its colours, titles, table,
 * sandwich and toggles are the --diff graph's, not a second
 * implementation.  Shares are compared (--normalize), and widths are the
 * larger side's (--diff-width=max): two selections seldom hold the same
 * functions, and with after's widths A's own would not be drawn.  Its
 * state in the URL has the prefix "d.".
 *
 * Contract, for spanflame.js:
 *   sdShow(a, b)   show the diff of stacks a (before) and b (after),
 *                  each [{ s, n }] as sfSum gives them; the graph is made
 *                  on first use, given new data after
 *   sdHide()       hide it
 *   sdSvg          its <svg>, or null before the first comparison
 * Names go in as the flame graph's do: text, never markup.
 */
var sdSvg = null;

/* The merged tree of a and b as diffview.js's loadDiff reads it. */
function sdData(a, b) {
	var rx = SF.fnames.length - 1, root = { x: rx, b: 0, a: 0, sb: 0, sa: 0, kids: new Map() };
	[[a, "b", "sb"], [b, "a", "sa"]].forEach((side) => side[0].forEach((e) => {
		var f = root;
		f[side[1]] += e.n;
		e.s.forEach((x) => {
			var c = f.kids.get(x);
			if (!c) f.kids.set(x, c = { x: x, b: 0, a: 0, sb: 0, sa: 0, kids: new Map() });
			c[side[1]] += e.n;
			f = c;
		});
		f[side[2]] += e.n;
	}));
	var X = { norm: 1, tb: root.b, ta: root.a, w: "max", cb: 0, clamp: 100, minw: 0.1, pct: 0, sw: 0,
		nm: [], k: [], b: [], a: [], sb: [], sa: [] }, order = [root];
	for (var i = 0; i < order.length; i++) {
		var f = order[i], kids = Array.from(f.kids.values());
		/* callees by name, as flame.c sorts a graph's frames */
		kids.sort((p, q) => (SF.fnames[p.x] < SF.fnames[q.x] ? -1 : SF.fnames[p.x] > SF.fnames[q.x] ? 1 : 0));
		order.push.apply(order, kids);
		["b", "a", "sb", "sa"].forEach((k) => X[k].push(f[k]));
		X.nm.push(f.x);
		X.k.push(kids.length);
	}
	return X;
}

function sdShow(a, b) {
	var X = sdData(a, b);
	if (sdSvg) {
		sdSvg.style.display = "";
		sdSvg.flamegraph.diff(X);
		return;
	}
	sdSvg = sfFrame();
	flameGraph({
		parentNode: sdSvg, prefix: "d.", data: {
			names: SF.fnames, diff: X, total: 0, unit: 1, factor: 1, negate: 0, fh: fh - 1,
			label: 3 + (fh - 1) / 2, nametype: "Function:", countname: "ns", rowy: [fontsize, fh], attrs: {}
		}
	});
}
function sdHide() {
	if (sdSvg) sdSvg.style.display = "none";
}
