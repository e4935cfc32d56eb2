/* flamegraph-svg: hover, click-zoom, search.  Scoped to its own <svg>. */
(function () {
"use strict";
var me = document.currentScript, svg = me ? me.parentNode : document.documentElement;
if (!svg || svg.localName !== "svg") return;
var NS = "http://www.w3.org/2000/svg", XPAD = 10;
var q = function (sel) { return svg.querySelector(sel); };
var root = q(".f"), details = q(".d"), unzoomBtn = q(".u"), searchBtn = q(".s"),
	icBtn = q(".ic"), matched = q(".m");
var width = svg.viewBox.baseVal.width, fontsize = +svg.getAttribute("data-fontsize"),
	cw = fontsize * +svg.getAttribute("data-fontwidth"),
	nametype = svg.getAttribute("data-nametype"), total = +root.getAttribute("data-total");
var frames = [], byG = new Map(), rootFrame = null, zoomed = null, term = null,
	ignorecase = false, active = false, moved = [], hits = [];

/* A frame's count: n, or else the exact count in its title. */
function count(g, title) {
	var n = g.getAttribute("n");
	if (n !== null) return +n;
	var m = / \(([0-9,]+) [^(]*$/.exec(title);
	return m ? +m[1].replace(/,/g, "") : 0;
}
/*
 * The frames, read on first use so that loading costs nothing: one group
 * per depth ("translate(0 Y)"), each frame a <g> (or <a>) holding title,
 * rect and maybe text; s is left out where a frame starts where its left
 * neighbour ends.  Depth grows upward, or downward in an icicle graph.
 */
function load() {
	if (rootFrame) return;
	for (var row = root.firstElementChild; row; row = row.nextElementSibling) {
		var y = /translate\(0 ([-0-9.e]+)\)/.exec(row.getAttribute("transform"))[1], end = 0;
		for (var g = row.firstElementChild; g; g = g.nextElementSibling) {
			var title = g.firstElementChild, rect = title.nextElementSibling;
			var t = title.textContent, cut = t.lastIndexOf(" ("), s = g.getAttribute("s");
			var f = {
				g: g, rect: rect, text: rect.nextElementSibling, title: t,
				name: cut > 0 ? t.slice(0, cut) : t,
				s: s === null ? end : +s, n: count(g, t), x: rect.getAttribute("x"), y: y,
				w: rect.getAttribute("width"), fill: rect.getAttribute("fill"),
				state: "", chars: -1
			};
			end = f.s + f.n;
			frames.push(f);
			byG.set(g, f);
		}
	}
	rootFrame = frames[0];
	var inverted = frames.length > 1 && +frames[frames.length - 1].y > +rootFrame.y;
	frames.forEach(function (f) { f.depth = inverted ? +f.y : -f.y; });
}

function label(f, chars) {
	if (chars < 3 || f === rootFrame) return "";
	if (f.name.length <= chars) return f.name;
	var cps = Array.from(f.name);
	return cps.length <= chars ? f.name : cps.slice(0, chars - 2).join("") + "..";
}
/* Move a frame; relabel only when the characters that fit change. */
function place(f, x, w) {
	f.rect.setAttribute("x", x.toFixed(1));
	f.rect.setAttribute("width", w.toFixed(1));
	var chars = Math.floor(w / cw);
	if (chars < 3) chars = 0;
	if (f.text) f.text.setAttribute("x", (x + 3).toFixed(1));
	if (chars === f.chars) return;
	f.chars = chars;
	var t = label(f, chars);
	if (!f.text && t === "") return;
	if (!f.text) {
		f.text = document.createElementNS(NS, "text");
		f.text.setAttribute("y", root.getAttribute("data-label"));
		f.text.setAttribute("x", (x + 3).toFixed(1));
		f.g.appendChild(f.text);
	}
	f.text.textContent = t;
}
function setState(f, state) {
	if (f.state === state) return;
	if (f.state) f.g.classList.remove(f.state);
	if (state) f.g.classList.add(state);
	f.state = state;
}
function pct(v, of) { return (100 * v / of).toFixed(2) + "%"; }
function frameOf(node) {
	for (; node && node !== svg; node = node.parentNode)
		if (node.parentNode && node.parentNode.parentNode === root) return node;
	return null;
}
function find(g) { load(); return byG.get(g) || null; }

/*
 * Zoom: the frame and its callees fill the width, its callers stay dimmed,
 * the rest hide.  Only frames whose state changes are touched, and frames
 * that stay hidden are not moved, so a zoom costs what it shows.
 */
function zoom(f) {
	var eps = 1e-9 * total, scale = (width - 2 * XPAD) / f.n, changed = [];
	unzoom(true);
	zoomed = f;
	frames.forEach(function (e) {
		if (e.depth >= f.depth && e.s >= f.s - eps && e.s + e.n <= f.s + f.n + eps) {
			place(e, XPAD + (e.s - f.s) * scale, e.n * scale);
		} else if (e.depth < f.depth && e.s <= f.s + eps && e.s + e.n >= f.s + f.n - eps) {
			setState(e, "parent");
			place(e, XPAD, width - 2 * XPAD);
		} else {
			setState(e, "hide");
			return;
		}
		changed.push(e);
	});
	moved = changed;
	unzoomBtn.classList.remove("hide");
	saveState();
}
function unzoom(quiet) {
	load();
	frames.forEach(function (e) { if (e.state) setState(e, ""); });
	moved.forEach(function (e) { place(e, +e.x, +e.w); });
	moved = [];
	zoomed = null;
	unzoomBtn.classList.add("hide");
	if (!quiet) saveState();
}

function search(t) {
	var re;
	resetSearch(true);
	if (t === null || t === "") return;
	try {
		re = new RegExp(t, ignorecase ? "i" : "");
	} catch (err) {
		matched.classList.remove("hide");
		matched.textContent = "Invalid regular expression";
		return;
	}
	load();
	term = t;
	frames.forEach(function (f) {
		if (f !== rootFrame && re.test(f.name)) {
			f.rect.setAttribute("fill", "rgb(230,0,230)");
			hits.push(f);
		}
	});
	/* Count each sample once: a match inside a match adds nothing. */
	var sorted = hits.slice().sort(function (a, b) { return a.s - b.s || b.n - a.n; });
	var sum = 0, end = -Infinity;
	sorted.forEach(function (f) { if (f.s >= end) { sum += f.n; end = f.s + f.n; } });
	searchBtn.classList.add("on");
	searchBtn.textContent = "Reset Search";
	matched.classList.remove("hide");
	var p = 100 * sum / total;
	matched.textContent = "Matched: " + (p === 100 ? "100" : p.toFixed(1)) + "%";
	saveState();
}
function resetSearch(quiet) {
	term = null;
	hits.forEach(function (f) { f.rect.setAttribute("fill", f.fill); });
	hits = [];
	searchBtn.classList.remove("on");
	searchBtn.textContent = "Search";
	matched.classList.add("hide");
	if (!quiet) saveState();
}
function promptSearch() {
	var t = window.prompt("Enter a search term (regexp allowed, eg: ^ext4_)"
		+ (ignorecase ? ", ignoring case" : "")
		+ "\nPress Ctrl-I to toggle case sensitivity", term || "");
	if (t !== null) search(t);
}
function toggleCase() {
	ignorecase = !ignorecase;
	icBtn.classList.toggle("on", ignorecase);
	if (term !== null) search(term);
}

/* The view in the URL, as flamegraph.pl keeps it: ?x=&y= and ?s=. */
function standalone() { return document.documentElement === svg; }
function saveState() {
	if (!standalone() || !window.history || !history.replaceState) return;
	var p = new URLSearchParams(location.search);
	p.delete("x"); p.delete("y"); p.delete("s");
	if (zoomed && zoomed !== rootFrame) { p.set("x", zoomed.x); p.set("y", zoomed.y); }
	if (term !== null) p.set("s", term);
	var qs = p.toString();
	history.replaceState(null, "", location.pathname + (qs ? "?" + qs : "") + location.hash);
}
function restoreState() {
	if (!standalone()) return;
	var p = new URLSearchParams(location.search), x = p.get("x"), y = p.get("y");
	if (x !== null && y !== null) {
		load();
		frames.forEach(function (f) { if (f.x === x && f.y === y && f !== rootFrame) zoom(f); });
	}
	if (p.get("s") !== null) search(p.get("s"));
}

svg.addEventListener("mouseover", function (e) {
	active = true;
	var g = frameOf(e.target), f = g && find(g);
	if (!f) return;
	var text = nametype + " " + f.title;
	if (zoomed && zoomed !== rootFrame && zoomed !== f && f.state !== "parent")
		text = text.slice(0, -1) + ", " + pct(f.n, zoomed.n) + " of " + zoomed.name + ")";
	details.textContent = text;
});
svg.addEventListener("mouseout", function (e) { if (frameOf(e.target)) details.textContent = " "; });
svg.addEventListener("click", function (e) {
	active = true;
	if (e.target === unzoomBtn) return unzoom();
	if (e.target === searchBtn) return term === null ? promptSearch() : resetSearch();
	if (e.target === icBtn) return toggleCase();
	var g = frameOf(e.target), f = g && find(g);
	if (!f) return;
	/* A frame made a link by --nameattr: a click follows it, Ctrl zooms. */
	if (g.localName === "a") {
		if (!e.ctrlKey && !e.metaKey) return;
		e.preventDefault();
		return f === rootFrame ? unzoom() : zoom(f);
	}
	if (e.ctrlKey || e.metaKey) {
		if (navigator.clipboard) navigator.clipboard.writeText(f.name);
		details.textContent = "Copied: " + f.name;
		return;
	}
	if (f === rootFrame) unzoom(); else zoom(f);
});
window.addEventListener("keydown", function (e) {
	if (!active && !standalone()) return;
	if ((e.ctrlKey && e.key === "f") || (e.key === "/" && !e.ctrlKey)) {
		e.preventDefault();
		promptSearch();
	} else if (e.ctrlKey && e.key === "i") {
		e.preventDefault();
		toggleCase();
	} else if (e.key === "Escape") {
		unzoom();
		resetSearch();
	}
});
document.addEventListener("mousedown", function (e) { active = svg.contains(e.target); });
restoreState();
/* For tests and embedding pages: the same actions as the mouse and keys. */
svg.flamegraph = {
	zoom: function (name) { load(); var f = frames.filter(function (e) { return e.name === name; })[0]; if (f) zoom(f); },
	unzoom: unzoom, search: search, resetSearch: resetSearch,
	frames: function () { load(); return frames; }
};
})();
