/*
 * xform: stackcollapse's transforms (stackcollapse(1) TRANSFORMS) in
 * the graph, from views.js's frame menu and toolbar; after sandwich.js.
 *
 * The file's frames are its stacks: a frame's self (its count less its
 * callees') is the count of the stack from the root to it.  Each step
 * rewrites each stack as src/stackcollapse/transform.c does, the
 * function named exactly (its name's index: --hide='^NAME$'); the
 * stacks are then summed, sorted and merged as flame.c builds a graph,
 * so that the frames drawn are those of
 *   stackcollapse --hide='^NAME$' IN | flamegraph-svg
 * Frames the file left out (narrower than --minwidth) are in their
 * caller's self, and stay there.  Done on the stacks, as the command
 * line does, rather than on the tree: invert and a step after it need
 * whole stacks, and one way for all is one way to get right.
 *
 * A step: { k, x }, k a key of STEPS and x a name's index; "rec" and
 * "invert" have no name; "subtree" has path, the names from the root's
 * callee to the frame, and keeps only the stacks through it, from it.
 *
 * A --diff graph's stacks are its merged tree's (diffview.js's
 * diffStacks), each with both sides' selves, rewritten the same way and
 * merged into a tree again (diffTree): what flamegraph-svg --diff draws
 * of stackcollapse --diff with the same transforms, which transforms
 * both columns before it writes them.
 *
 * A graph may come as stacks rather than frames (D.stacks: the samples
 * of a span profile, which the timeline's spanflame.js sums for what
 * the user picked): laid out here too, as flame.c would lay them out.
 *
 * Contract, for views.js and flame.js:
 *   xf              the steps applied, in order
 *   STEPS           each kind's words, for the menu and the breadcrumbs
 *   transform()     lay the graph out from the file's frames through
 *                   xf (the file's own frames when xf is empty); the
 *                   zoom, table and sandwich start again
 *   xfState(p)      xf in URLSearchParams p: t=KIND:NAME each, in order
 *   xfRestore(p)    xf from p, then transform()
 *   loadStacks()    flame.js's load() of a graph of stacks: D.names the
 *                   names, the root's last; D.stacks [{ s, n }], s its
 *                   names' indexes from the root's callee, n its count
 *   restack(list)   such a graph's stacks replaced by list (D.stacks'
 *                   form); the caller then calls transform()
 */
var xf = [], file = null, STEPS = {
	merge: "Merge function", focus: "Focus on function", subtree: "Focus on subtree",
	drop: "Drop samples with function", collapse: "Collapse function", rec: "Collapse recursion", invert: "Invert"
};

/* Stack s (name indexes, root's callee first) after step t; null: dropped. */
function xstep(s, t) {
	var x = t.x, i;
	switch (t.k) {
	case "merge":
		s = s.filter((y) => y !== x);
		return s.length ? s : null;
	case "focus":
		i = s.indexOf(x);
		return i < 0 ? null : s.slice(i);
	case "drop":
		return s.indexOf(x) < 0 ? s : null;
	case "collapse":
		i = s.indexOf(x);
		return i < 0 ? s : s.slice(0, i + 1);
	case "rec":
		return s.filter((y, j) => !j || y !== s[j - 1]);
	case "invert":
		return s.reverse();
	case "subtree":
		for (i = 0; i < t.path.length; i++) if (s[i] !== t.path[i]) return null;
		return s.slice(i - 1);
	}
	return s;
}

/*
 * The file's frames and stacks, kept at the first step, or before it
 * when the page is idle (xfRestore): on a graph of 100,000 frames they
 * cost as much again as the step, 170 ms where the step takes 45.
 * While file is null the frames drawn are the file's own (or restack's
 * new ones, not yet transformed).
 */
function keepFile() {
	if (file) return;
	file = D.diff ? { stacks: diffStacks() } :
		{ rows: rows, frames: frames, root: rootFrame, total: total, stacks: fileStacks() };
}
function transform() {
	keepFile();
	if (D.diff) {
		diffTree(xf.length ? stacksOf(file.stacks) : null);
		main.root = main.zoomed = rootFrame;
		main.eps = 1e-9 * total;
	} else {
		if (!xf.length) setFrames(file.rows, file.frames, file.root, file.total);
		else setFrames.apply(null, layout(stacksOf(file.stacks), file.root.x));
	}
	tab = null;
	shownBy = "";
	if (sw) sw.x = -1;
}
/*
 * The file's stacks, once: { s, n } for each frame with a self.  Kept,
 * as each transform starts from them: made anew, they were half of a
 * transform's 60 ms on a graph of 100,000 frames.
 */
function fileStacks() {
	var out = [], eps = 1e-9 * rootFrame.n;
	tree();
	frames.forEach((f) => {
		var n = f.kids.reduce((c, k) => c - k.n, f.n), s = [], a;
		if (f === rootFrame || !(n > eps)) return;
		for (a = f; a !== rootFrame; a = a.p) s.push(a.x);
		/* a hot/cold graph's off-CPU time: its stacks' leaf mark */
		out.push({ s: s.reverse(), n: n, o: D.off ? (nm[f.x] === "[off-cpu]" ? n : 0) : undefined });
	});
	return out;
}
/* Stacks ({ s, n }) through xf, summed: a Map from the names joined by ';'. */
function stacksOf(list) {
	var out = new Map();
	list.forEach((e) => {
		for (var s = e.s.slice(), i = 0; i < xf.length && s; i++) s = xstep(s, xf[i]);
		if (!s) return;
		var key = s.map((x) => nm[x]).join(";"), sum = out.get(key);
		/* (a --diff graph's stacks have two counts: n before's, a after's) */
		if (sum) {
			sum.n += e.n;
			if (D.diff) sum.a += e.a;
			if (D.off) sum.o += e.o;
		} else out.set(key, { s: s, n: e.n, a: e.a, o: e.o });
	});
	return out;
}
/*
 * The stacks as frames, as flame.c (flamegraph.pl's flow) makes them:
 * stacks sorted, a frame kept open while the next stack has the same
 * names down to it, each opened at the time so far; the root's name
 * index rx.  Returns setFrames' arguments.
 */
function layout(stacks, rx) {
	var root = newFrame(rx, 0, 0), open = [root], all = [root], rs = [], t = 0;
	root.name = "all";
	Array.from(stacks.keys()).sort().forEach((key) => {
		var e = stacks.get(key), s = e.s, d = 0, i;
		while (d < s.length && d + 1 < open.length && open[d + 1].x === s[d]) d++;
		open.length = d + 1;
		for (; d < s.length; d++) {
			var f = newFrame(s[d], d + 1, t);
			open.push(f);
			all.push(f);
		}
		for (i = 0; i < open.length; i++) open[i].n += e.n;
		if (D.off) for (i = 0; i < open.length; i++) open[i].o += e.o;
		t += e.n;
	});
	all.forEach((f) => {
		if (!rs[f.row]) rs[f.row] = { y: D.rowy[0] + f.row * D.rowy[1], frames: [] };
		rs[f.row].frames.push(f);
	});
	/* all has callers first, as sandwich() needs */
	return [rs, all, root, root.n];
}
/* (no transform is in the URL yet: restore() comes after) */
function loadStacks() {
	nm = D.names;
	var l = layout(stacksOf(D.stacks), nm.length - 1);
	rows = l[0];
	frames = l[1];
	rootFrame = l[2];
	total = l[3];
}
/* The transforms start again from the new stacks, not from the file's. */
function restack(list) {
	var steps = xf;
	xf = [];
	D.stacks = list;
	setFrames.apply(null, layout(stacksOf(list), nm.length - 1));
	file = null;
	xf = steps;
}
function newFrame(x, row, s) {
	return {
		name: nm[x], x: x, s: s, n: 0, row: row, fill: fillOf[x] || hot(nm[x]), attr: D.attrs[x],
		o: D.off ? 0 : undefined, title: "", hit: false, chars: -1, label: ""
	};
}
function setFrames(rs, fs, root, sum) {
	rows = rs;
	frames = fs;
	rootFrame = root;
	total = sum;
	main.rows = rows;
	main.frames = frames;
	main.root = main.zoomed = root;
	main.eps = 1e-9 * root.n;
	frames.forEach((f) => { f.hit = false; f.chars = -1; });
}

function xfState(p) {
	p.delete("t");
	xf.forEach((t) => p.append("t", t.k + (t.path ? ":" + t.path.map((x) => nm[x]).join(";") : t.x >= 0 ? ":" + nm[t.x] : "")));
}
function xfRestore(p) {
	var was = JSON.stringify(xf);
	xf = [];
	p.getAll("t").forEach((v) => {
		var i = v.indexOf(":"), k = i < 0 ? v : v.slice(0, i), name = v.slice(i + 1), t = { k: k, x: -1 };
		if (!Object.prototype.hasOwnProperty.call(STEPS, k)) return;
		if (k === "subtree") t.path = name.split(";").map((n) => nm.indexOf(n));
		else if (k !== "rec" && k !== "invert") t.x = nm.indexOf(name);
		if (t.x >= 0 || !(i >= 0) || t.path) xf.push(t);
	});
	/* (Back to a zoom or a view: the same steps, laid out already) */
	if (JSON.stringify(xf) !== was) transform();
	else if (!file && window.requestIdleCallback) requestIdleCallback(keepFile, { timeout: 5000 });
}
