/*
 * diffview: what only a --diff graph's script has (scriptdata.c embeds this file
 * into --diff graphs only, after sandwich.js): the merged tree laid out
 * by the width toggle and coloured by the palette toggle, the frames'
 * titles, the diff table's columns and the toolbar's two toggles.
 *
 * Contract, for the others, which call it only when D.diff is set:
 *   loadDiff()        flame.js's load() for diff.c's data
 *   diffTitle(f, X)   a frame's title, its shares of X.tb and X.ta
 *                     (named X.of when not the totals: views.js's Shares)
 *   diffFill(f)       a frame's (or a table row's) colour
 *   diffStats()       table.js's stats()
 *   diffButtons(b)    add the toggles with views.js's button maker b
 *   diffBars()        set the toggles' text; returns their state
 *   diffState(p)      put the toggles in URLSearchParams p (dw=, dp=)
 *   diffRestore(p)    set them from p
 *   diffStacks()      the file's tree as stacks, for xform.js
 *   diffTree(stacks)  the tree of transformed stacks (null: the file's)
 * and on its load it sets table.js's columns (COLS, HEADS, sortKey) and
 * hooks (totalText, rowText, cellOf, tableRow) and sandwich.js's add().
 *
 * The diff table has Self and Total before and after (sb, tb, sa, ta)
 * and their differences (ds, dt: points of share when normalized, else
 * counts), from the whole merged tree (dnodes), whatever the width
 * drawn: the numbers of stackcollapse --diff --to=table, first in its
 * order (the largest growth of self share).
 */
/*
 * The hooks, for a --diff graph only: the timeline's flame graph function
 * (scriptdata.c's sd_script_function) has this file for its plain graphs
 * too, and makes a diff graph only to compare two selections.
 */
if (D.diff) diffHooks();
function diffHooks() {
	COLS = ["ds", "sb", "sa", "dt", "tb", "ta", "name"];
	sortKey = COLS[0];
	Object.assign(HEADS, { sb: "Self before", sa: "Self after", ds: "Self Δ", tb: "Total before", ta: "Total after", dt: "Total Δ" });
	totalText = (r) => "before " + inUnit(r.tb) + " (" + pct(r.tb, sideTotal("b")) + "), after " + inUnit(r.ta) + " (" + pct(r.ta, sideTotal("a")) + ")";
	rowText = (r) => "self " + inUnit(r.sb) + " → " + inUnit(r.sa) + " (" + change(r.ds, r.sb, r.sa) + "), total " +
		inUnit(r.tb) + " → " + inUnit(r.ta) + " (" + change(r.dt, r.tb, r.ta) + ")";
	tableRow = (r) => [r.sb, r.tb, r.sa, r.ta];
	/* Seven columns: a count's share, a change's percent, in the cell's title. */
	cellOf = (r, k) => {
		var v = r[k], s = k[1] === "s", all = sideTotal(k[1] === "a" ? "a" : "b");
		return k[0] === "d" ? [change(v, 0, 0, 1), change(v, r[s ? "sb" : "tb"], r[s ? "sa" : "ta"]), k === "ds" ? r.fill : "#eee"] :
			[cell(v), exact(v * D.factor) + " " + D.countname + ", " + pct(v, all), gradient(all > 0 ? 100 * v / all : 0)];
	};
	/* The sandwich's merged frames sum both sides: self, or (callers) total. */
	add = (a, f, self) => {
		a.n += f.n;
		a.b = (a.b || 0) + f.b;
		a.a = (a.a || 0) + f.a;
		a.sb = (a.sb || 0) + (self ? f.sb : f.b);
		a.sa = (a.sa || 0) + (self ? f.sa : f.a);
	};
}

/* Side k's ("b" or "a") count the table's shares are of: the whole's, or the zoomed frame's. */
function sideTotal(k) {
	var z = relTo(main);
	return z ? z[k] : D.diff["t" + k];
}

/*
 * --diff (diff.c's data): the whole merged tree, drawn or not, breadth
 * first; node k's callees (all) are the next D.diff.k[k] nodes not yet
 * taken.  The rows are laid out from it (relayout) by the width side
 * (dside: "after", "before" or "max") and coloured by the palette (dcb:
 * blue-orange), both toggled in the toolbar (views.js).
 */
var dnodes = null, dside, dcb, ENDS = [[[50, 170, 80], [220, 220, 220], [230, 60, 50]],
	[[40, 120, 220], [220, 220, 220], [240, 140, 30]]];
function loadDiff() {
	var X = D.diff, next = 1;
	/* (arrays when the timeline's spandiff.js builds the data) */
	["nm", "k", "b", "a", "sb", "sa"].forEach((k) => { if (typeof X[k] === "string") X[k] = vlq(X[k]); });
	var x = X.nm, nk = X.k;
	dnodes = [dnode(x[0], null, X.b[0], X.a[0], X.sb[0], X.sa[0])];
	for (var i = 0; i < dnodes.length; i++)
		for (var j = 0; j < nk[i]; j++, next++) dnodes.push(dnode(x[next], dnodes[i], X.b[next], X.a[next], X.sb[next], X.sa[next]));
	rootFrame = dnodes[0];
	rootFrame.name = "all";
	rootFrame.s = 0;
	dside = X.w;
	dcb = !!X.cb;
	relayout();
	recolor();
}
/*
 * A node of name x under p with its totals and selves.  Every field set
 * here, widths as doubles (0.5, not 0): a field added later, or an
 * integer field given a fraction, changes the shape of 100,000 objects,
 * which costs V8 more than the layout.
 */
function dnode(x, p, b, a, sb, sa) {
	var f = {
		name: nm[x], x: x, b: b, a: a, sb: sb, sa: sa, all: [], kids: [], p: p,
		row: p ? p.row + 1 : 0, s: 0.5, n: 0.5, at: 0.5, cs: 0.5, shown: false, pos: 0.5, fill: "", attr: D.attrs[x],
		title: "", hit: false, chars: -1, label: ""
	};
	f.pos = diffPos(f) * (D.negate ? -1 : 1);
	if (p) p.all.push(f);
	return f;
}

/*
 * The transforms (xform.js) rewrite a --diff graph's stacks, both
 * sides' at once, as stackcollapse --diff does before it writes them:
 * diffStacks gives the file's tree as stacks, { s, n, a } (before's
 * self, after's) for each node with a self, and diffTree makes the tree
 * again from such stacks summed, merged as diff.c's merge_stacks does,
 * the callees of a node in the byte order of their names.
 */
var dfile = null;
function diffStacks() {
	var X = D.diff;
	dfile = { nodes: dnodes, tb: X.tb, ta: X.ta };
	return dnodes.filter((f) => f !== rootFrame && (f.sb > 0 || f.sa > 0)).map((f) => {
		for (var s = [], a = f; a !== rootFrame; a = a.p) s.push(a.x);
		return { s: s.reverse(), n: f.sb, a: f.sa };
	});
}
/* The tree of stacks (stacksOf's Map), or the file's (null), laid out. */
function diffTree(stacks) {
	var X = D.diff, top = trie(dfile.nodes[0].x), queue = [[top, null]], i;
	function trie(x) { return { x: x, b: 0, a: 0, sb: 0, sa: 0, by: new Map() }; }
	if (stacks) {
		stacks.forEach((e) => {
			var t = top;
			t.b += e.n;
			t.a += e.a;
			e.s.forEach((x) => {
				var c = t.by.get(x);
				if (!c) t.by.set(x, (c = trie(x)));
				c.b += e.n;
				c.a += e.a;
				t = c;
			});
			t.sb += e.n;
			t.sa += e.a;
		});
		/* the totals first: a node's colour is the change of its share */
		X.tb = top.b;
		X.ta = top.a;
		dnodes = [];
		for (i = 0; i < queue.length; i++) {
			var e = queue[i][0], f = dnode(e.x, queue[i][1], e.b, e.a, e.sb, e.sa);
			dnodes.push(f);
			Array.from(e.by.values()).sort((u, v) => byBytes(nm[u.x], nm[v.x])).forEach((c) => queue.push([c, f]));
		}
	} else {
		dnodes = dfile.nodes;
		X.tb = dfile.tb;
		X.ta = dfile.ta;
	}
	rootFrame = dnodes[0];
	rootFrame.name = "all";
	rootFrame.s = 0;
	/* A side left with nothing has no width: max, as diff_build does. */
	if ((dside === "after" && !X.ta) || (dside === "before" && !X.tb)) dside = "max";
	relayout();
	recolor();
}
/*
 * a before b in the order of their UTF-8 bytes, diff.c's: UTF-16 code
 * units sort U+E000 to U+FFFF after the surrogates, code points before.
 */
function byBytes(a, b) {
	var key = (c) => (c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c);
	for (var i = 0; i < a.length && i < b.length; i++)
		if (a.charCodeAt(i) !== b.charCodeAt(i)) return key(a.charCodeAt(i)) - key(b.charCodeAt(i));
	return a.length - b.length;
}
/*
 * The rows by the width dside, as diff.c's diff_build: after's or
 * before's totals, or the larger of the two (before scaled to after's
 * total when normalized) and at least the callees' sum plus the larger
 * self; a frame of width 0, or narrower than --minwidth, is not drawn.
 */
function relayout() {
	var X = D.diff, k = X.norm && X.tb > 0 && X.ta > 0 ? X.ta / X.tb : 1, n = dnodes.length, i, j, f, c, w, at, all, min;
	/* Plain loops, no arrays made: this runs on every toggle, over every node. */
	for (i = 0; i < n; i++) dnodes[i].cs = 0;
	/* Callees first: cs sums their widths into their caller. */
	for (i = n; i--; ) {
		f = dnodes[i];
		w = dside === "before" ? f.b : f.a;
		if (dside === "max") w = Math.max(w, f.b * k, f.cs + Math.max(f.sb * k, f.sa));
		f.n = w;
		if (f.p) f.p.cs += w;
	}
	/* (the file's root width, diff.c's sum in long double) */
	if (dside === X.w && (!dfile || dnodes === dfile.nodes)) rootFrame.n = Math.max(rootFrame.n, D.total);
	total = rootFrame.n;
	min = X.pct ? total * X.minw / 100 : X.minw * total / (width - 2 * XPAD);
	rows.length = frames.length = 0;
	for (i = 0; i < n; i++) {
		f = dnodes[i];
		at = f.s;
		f.kids.length = 0;
		f.shown = f === rootFrame || (f.p.shown && f.n > 0 && f.n >= min);
		/* --sort weight: the widest callees first, as flame.c's flame_sort_weight */
		all = X.sw ? f.all.slice().sort((a, b) => b.n - a.n) : f.all;
		for (j = 0; j < all.length; j++) {
			c = all[j];
			c.s = at;
			at += c.n;
		}
		if (!f.shown) continue;
		if (f.p) f.p.kids.push(f);
		if (!rows[f.row]) rows.push({ y: D.rowy[0] + f.row * D.rowy[1], frames: [] });
		rows[f.row].frames.push(f);
		frames.push(f);
	}
	if (X.sw) rows.forEach((r) => r.frames.sort((a, b) => a.s - b.s));
}
/* The change of a frame's self on the colour scale, -1 to 1, as diff.c's scale_pos. */
function diffPos(f) {
	var X = D.diff, vb = f.sb, va = f.sa, t;
	if (!f.a || !f.b) return f.a > 0 ? 1 : f.b > 0 ? -1 : 0;
	if (X.norm) { vb = X.tb > 0 ? vb / X.tb : 0; va = X.ta > 0 ? va / X.ta : 0; }
	if (!vb) return va > 0 ? 1 : 0;
	t = (va - vb) / vb * 100 / X.clamp;
	return t > 1 ? 1 : t < -1 ? -1 : t;
}
/* Its fill: pos, the change, kept on the frame (it does not change with the palette). */
function diffFill(f) {
	if (f.name === "--" || f.name === "-") return f.name === "-" ? "#c8c8c8" : "#a0a0a0";
	if (f.pos === undefined) f.pos = diffPos(f) * (D.negate ? -1 : 1);
	var t = f.pos, e = ENDS[+dcb], to = e[t < 0 ? 0 : 2], a = Math.abs(t), c = 1;
	for (var i = 0; i < 3; i++) c = c * 256 + Math.floor(e[1][i] + (to[i] - e[1][i]) * a + 0.5);
	return "#" + c.toString(16).slice(1);
}
/* Every frame's fill and the legend's stops by the palette dcb. */
function recolor() {
	dnodes.forEach((f) => { f.fill = diffFill(f); });
	graphs.forEach((g) => { if (g !== main) g.frames.forEach((f) => { f.fill = diffFill(f); }); });
	svg.querySelectorAll("linearGradient[id$='-dl'] stop").forEach((s, k) => {
		var c = ENDS[+dcb][D.negate ? 2 - k : k];
		setAttr(s, "stop-color", "rgb(" + c + ")");
	});
}

/* A --diff frame's title, as diff.c's diff_title writes it. */
function diffTitle(f, X) {
	var b = f.b, a = f.a, t = f.name + " (";
	function side(v, all) {
		return samples(v * D.factor) + " " + D.countname + ", " + fixed(all > 0 ? 100 * v / all : 0, 2) + "%" + (X.of ? " of " + X.of : "");
	}
	function titleChange(vb, va) {
		var c;
		if (X.norm) {
			vb = X.tb > 0 ? vb / X.tb : 0;
			va = X.ta > 0 ? va / X.ta : 0;
			c = signed(100 * (va - vb)) + " points";
		} else c = (va > vb ? "+" : "") + samples((va - vb) * D.factor) + " " + D.countname;
		return c + ", " + (vb > 0 ? signed(100 * (va - vb) / vb) + "%" : "new");
	}
	if (a === 0 || b === 0)
		return t + (a === 0 ? "only in before: " + side(b, X.tb) : "only in after: " + side(a, X.ta)) + ")";
	t += "before: " + side(b, X.tb) + "; after: " + side(a, X.ta) + "; " + titleChange(b, a);
	if (f.sb > 0 || f.sa > 0) t += "; self: " + titleChange(f.sb, f.sa);
	return t + ")";
}
/* A signed number with two decimals, as diff.c's out_signed2. */
function signed(v) {
	if (Math.abs(v) >= 1e12) return v > 0 ? "+>1e12" : "-<1e12";
	var s = fixed(v, 2);
	return /^-?0\.00$/.test(s) ? "0.00" : (v > 0 ? "+" : "") + s;
}
/* The diff table: a name's totals once per stack (open), as stats(). */
function diffStats() {
	var X = D.diff, dec = 0;
	walk({ sb: 0, sa: 0, tb: 0, ta: 0 }, (f) => f.all, (r, f, first) => {
		r.sb += f.sb;
		r.sa += f.sa;
		if (first) { r.tb += f.b; r.ta += f.a; }
	});
	/* Fractions back to the decimals they were read with (see stats). */
	dnodes.forEach((f) => [f.b, f.a].forEach((v) => {
		if (!Number.isInteger(v)) dec = Math.max(dec, /(?:\.(\d+))?$/.exec(v.toPrecision(15).replace(/0+$/, ""))[1].length);
	}));
	tab.forEach((r) => {
		if (dec) ["sb", "sa", "tb", "ta"].forEach((k) => { r[k] = +r[k].toFixed(dec); });
		/* stackcollapse's order: the growth of self share; shown in points */
		r.key = (X.ta > 0 ? r.sa / X.ta : 0) - (X.tb > 0 ? r.sb / X.tb : 0);
		r.ds = X.norm ? 100 * r.key : r.sa - r.sb;
		r.dt = X.norm ? 100 * ((X.ta > 0 ? r.ta / X.ta : 0) - (X.tb > 0 ? r.tb / X.tb : 0)) : r.ta - r.tb;
		r.b = r.tb;
		r.a = r.ta;
		r.fill = diffFill(r);
	});
	return tab;
}
/* A difference as the table shows it: points (or a count), and percent (or "new"). */
function change(d, vb, va, part) {
	var c = [D.diff.norm ? signed(d) + " pts" : (d > 0 ? "+" : "") + cell(d), vb > 0 ? signed(100 * (va - vb) / vb) + "%" : va > 0 ? "new" : ""];
	return part ? c[0] : c.join(" ").trim();
}

/*
 * A --diff graph's toggles: the width side lays the rows out again
 * (flame.js's relayout), keeping the zoom if its frame is still drawn;
 * the palette recolours.  Neither regenerates anything but the picture.
 */
var SIDES = ["after", "before", "max"];
function setSide(v, quiet) {
	var X = D.diff;
	/* A side with nothing has no width: the next one. */
	while ((v === "after" && !X.ta) || (v === "before" && !X.tb)) v = SIDES[SIDES.indexOf(v) + 1];
	dside = v;
	relayout();
	main.eps = 1e-9 * total;
	if (!main.zoomed.shown) main.zoomed = rootFrame;
	showReset();
	var st = q(".st");
	if (st) st.textContent = st.textContent.replace(/width: \w+$/, "width: " + v);
	if (sw) sw.x = -1;
	if (quiet) return;
	/* One redraw: the search's, the sandwich's (made anew), or draw's. */
	setHover(main, null);
	if (term !== null) search(term);
	if (cview === "sandwich") setView(cview);
	else if (term === null) { draw(); saveState(); }
}
function setPalette(cb, quiet) {
	dcb = cb;
	recolor();
	if (tab) tab.forEach((r) => { r.fill = diffFill(r); });
	if (!quiet) { draw(); saveState(); }
}
function diffRestore(p) {
	var w = p.get("dw"), c = p.get("dp");
	if (SIDES.indexOf(w) >= 0 && w !== dside) setSide(w, true);
	if (c === "cb" || c === "rg") setPalette(c === "cb", true);
}

function diffButtons(button) {
	button("dw", "", () => setSide(SIDES[(SIDES.indexOf(dside) + 1) % 3]));
	button("dp", "", () => setPalette(!dcb));
}
function diffBars() {
	btn.dw.textContent = "Width: " + dside;
	btn.dp.textContent = "Palette: " + (dcb ? "blue-orange" : "red-green");
	return dside + dcb;
}
function diffState(p) {
	p.delete("dw");
	p.delete("dp");
	if (dside !== D.diff.w) p.set("dw", dside);
	if (dcb !== !!D.diff.cb) p.set("dp", dcb ? "cb" : "rg");
}
