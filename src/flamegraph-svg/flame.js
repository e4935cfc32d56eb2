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
	fontwidth = +svg.getAttribute("data-fontwidth"),
	nametype = svg.getAttribute("data-nametype"), total = +root.getAttribute("data-total");
var frames = [], zoomed = null, term = null, ignorecase = false, active = false;

/* A frame's count: n, or else the exact count in its title. */
function count(g, title) {
	if (g.hasAttribute("n")) return +g.getAttribute("n");
	var m = / \(([0-9,]+) [^(]*$/.exec(title);
	return m ? +m[1].replace(/,/g, "") : 0;
}
/*
 * The frames, with what zoom and search need, read once.  They sit in one
 * group per depth ("translate(0 Y)"); s is left out where a frame starts
 * where its left neighbour ends.
 */
Array.prototype.forEach.call(root.children, function (row) {
	var y = /translate\(0 ([-0-9.e]+)\)/.exec(row.getAttribute("transform"))[1], end = 0;
	Array.prototype.forEach.call(row.children, function (g) {
		var rect = g.querySelector("rect"), title = g.querySelector("title").textContent;
		var cut = title.lastIndexOf(" ("), s = g.hasAttribute("s") ? +g.getAttribute("s") : end;
		var f = {
			g: g, rect: rect, text: g.querySelector("text"), title: title,
			name: cut > 0 ? title.slice(0, cut) : title, s: s, n: count(g, title),
			x: rect.getAttribute("x"), y: y,
			w: rect.getAttribute("width"), fill: rect.getAttribute("fill")
		};
		end = f.s + f.n;
		frames.push(f);
	});
});
/* Depth grows upward in a flame graph and downward in an icicle graph. */
var rootFrame = frames[0], inverted = frames.length > 1 && +frames[1].y > +rootFrame.y;
frames.forEach(function (f) { f.depth = inverted ? +f.y : -f.y; });

function label(f, w) {
	var chars = Math.floor(w / (fontsize * fontwidth));
	if (chars < 3 || f === rootFrame) return "";
	var cps = Array.from(f.name);
	return cps.length <= chars ? f.name : cps.slice(0, chars - 2).join("") + "..";
}
function place(f, x, w) {
	f.rect.setAttribute("x", x.toFixed(1));
	f.rect.setAttribute("width", w.toFixed(1));
	var t = label(f, w);
	if (!f.text && t === "") return;
	if (!f.text) {
		f.text = document.createElementNS(NS, "text");
		f.text.setAttribute("y", root.getAttribute("data-label"));
		f.g.appendChild(f.text);
	}
	f.text.setAttribute("x", (x + 3).toFixed(2));
	f.text.textContent = t;
}
function pct(v, of) { return (100 * v / of).toFixed(2) + "%"; }
function frameOf(node) {
	for (; node && node !== svg; node = node.parentNode)
		if (node.parentNode && node.parentNode.parentNode === root) return node;
	return null;
}
function find(g) { for (var i = 0; i < frames.length; i++) if (frames[i].g === g) return frames[i]; return null; }

function zoom(f) {
	var eps = 1e-9 * total, scale = (width - 2 * XPAD) / f.n;
	zoomed = f;
	frames.forEach(function (e) {
		var within = e.s >= f.s - eps && e.s + e.n <= f.s + f.n + eps;
		var contains = e.s <= f.s + eps && e.s + e.n >= f.s + f.n - eps;
		e.g.classList.remove("hide", "parent");
		if (e.depth >= f.depth && within) {
			place(e, XPAD + (e.s - f.s) * scale, e.n * scale);
		} else if (e.depth < f.depth && contains) {
			e.g.classList.add("parent");
			place(e, XPAD, width - 2 * XPAD);
		} else {
			e.g.classList.add("hide");
		}
	});
	unzoomBtn.classList.remove("hide");
	saveState();
}
function unzoom() {
	zoomed = null;
	frames.forEach(function (e) {
		e.g.classList.remove("hide", "parent");
		place(e, +e.x, +e.w);
	});
	unzoomBtn.classList.add("hide");
	saveState();
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
	term = t;
	var hits = [];
	frames.forEach(function (f) {
		if (f !== rootFrame && re.test(f.name)) {
			f.rect.setAttribute("fill", "rgb(230,0,230)");
			hits.push(f);
		}
	});
	/* Count each sample once: a match inside a match adds nothing. */
	hits.sort(function (a, b) { return a.s - b.s || b.n - a.n; });
	var sum = 0, end = -Infinity;
	hits.forEach(function (f) { if (f.s >= end) { sum += f.n; end = f.s + f.n; } });
	searchBtn.classList.add("on");
	searchBtn.textContent = "Reset Search";
	matched.classList.remove("hide");
	var p = 100 * sum / total;
	matched.textContent = "Matched: " + (p === 100 ? "100" : p.toFixed(1)) + "%";
	saveState();
}
function resetSearch(quiet) {
	term = null;
	frames.forEach(function (f) { f.rect.setAttribute("fill", f.fill); });
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
	if (x !== null && y !== null)
		frames.forEach(function (f) { if (f.x === x && f.y === y && f !== rootFrame) zoom(f); });
	if (p.get("s") !== null) search(p.get("s"));
}

svg.addEventListener("mouseover", function (e) {
	active = true;
	var g = frameOf(e.target), f = g && find(g);
	if (!f) return;
	var text = nametype + " " + f.title;
	if (zoomed && zoomed !== rootFrame && zoomed !== f && !f.g.classList.contains("parent"))
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
svg.flamegraph = { zoom: function (name) {
		frames.forEach(function (f) { if (f.name === name && !zoomed) zoom(f); }); },
	unzoom: unzoom, search: search, resetSearch: resetSearch,
	frames: function () { return frames; } };
})();
