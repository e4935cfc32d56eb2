/*
 * ui: what the flame graph's script (flame.js) and the timeline's
 * (timeline.js) share.  svg.c's svg_script writes this file and one of
 * them as one function, run where the SVG embeds it and scoped to its
 * own <svg>, so that several graphs on one page keep apart; this file
 * comes first.  The function's argument, me, is its <script>
 * (document.currentScript); or, for a flame graph the timeline's script
 * makes of a span profile's samples (spanflame.js), { parentNode: the
 * <svg> it made, data: the data }, which that script builds, not parses.
 *
 * Here: the SVG, its data (the JSON block scriptdata.c or timeline.c writes)
 * and its buttons; canvases in a foreignObject, scaled to the device and
 * capped at what a canvas may be; a redraw once per frame; the width of
 * the window (fitWindow); search (the
 * prompt or the graph's search box, the case toggle, the buttons); the
 * view in the URL and the history; keys.  The
 * graph's file defines what differs:
 *   PROMPT      the search prompt
 *   draw()      draw now
 *   match(re)   mark what matches re; returns the "Matched: ..." text
 *   unmatch()   clear the marks
 *   view(p)     put the view in URLSearchParams p (s is this file's)
 *   restore(p)  set the view from p
 *   reset(all)  the Reset button; Escape passes all, to clear the rest
 */
"use strict";
var svg = me ? me.parentNode : document.documentElement;
if (!svg || svg.localName !== "svg") return;
var NS = "http://www.w3.org/2000/svg", XHTML = "http://www.w3.org/1999/xhtml",
	XPAD = 10, MATCH = "rgb(230,0,230)";
var q = (sel) => svg.querySelector(sel);
/* the data: the one <script> with a type, JSON (see scriptdata.c) */
var data = me && me.data ? null : q("script[type]");
if (!data && !(me && me.data)) return;
var D = data ? JSON.parse(data.textContent) : me.data;
if (data) data.remove();
var vbox = svg.viewBox.baseVal, width = vbox.width, fontsize = +svg.getAttribute("data-fontsize"),
	cw = fontsize * +svg.getAttribute("data-fontwidth");
var resetBtn = q(".u"), searchBtn = q(".s"), icBtn = q(".ic"), matched = q(".m");
var term = null, ignorecase = false, queued = false, active = false, restoring = false, searchBox = null;

/* The DOM calls both scripts make most, in short. */
function setAttr(e, name, v) { e.setAttribute(name, v); }
function listen(target, type, f, opts) { target.addEventListener(type, f, opts); }
/* A new element (SVG's if tag is one of SVG's few we make, else HTML's)
 * put in parent, with style and text if given. */
function el(tag, parent, style, text) {
	var e = document.createElementNS(/^(foreignObject|rect|g|text|svg)$/.test(tag) ? NS : XHTML, tag);
	if (style) setAttr(e, "style", style);
	if (text) e.textContent = text;
	if (parent) parent.appendChild(e);
	return e;
}

/* Text t's width in pixels in CSS font f: a canvas measures it without a layout. */
var measurer = null;
function textWidth(t, f) {
	measurer = measurer || el("canvas").getContext("2d");
	measurer.font = f;
	return measurer.measureText(t).width;
}

/* A canvas in a foreignObject as wide as the SVG, put in parent before node. */
function makeCanvas(parent, node) {
	var fo = el("foreignObject"), c = el("canvas", fo, "display:block;width:100%;height:100%");
	setAttr(fo, "x", 0);
	setAttr(fo, "width", width);
	parent.insertBefore(fo, node || null);
	return [fo, c];
}
/* Device pixels per user unit, capped so that canvases stay legal. */
function scale(m, h) {
	return Math.min(m.a * (devicePixelRatio || 1), 16384 / width, 16384 / Math.max(h, 1));
}
/* Where mouse event e is, in user units; null while the SVG is not laid
 * out (no screen matrix). */
function userPoint(e) {
	var m = svg.getScreenCTM();
	return m && m.a ? [(e.clientX - m.e) / m.a, (e.clientY - m.f) / m.d] : null;
}
/* The part of [top, bot) inside the browser's viewport, in whole units. */
function visible(m, top, bot) {
	return [Math.floor(Math.max(top, -m.f / m.d)), Math.ceil(Math.min(bot, (innerHeight - m.f) / m.d))];
}
/*
 * Put the canvas c of fo over [top, bot) at px device pixels a unit,
 * cleared, with its context g drawing in user units: from the SVG's top,
 * or from top if local.
 */
function fit(fo, c, g, top, bot, px, local) {
	var w = Math.ceil(width * px), h = Math.ceil((bot - top) * px);
	setAttr(fo, "width", width);
	setAttr(fo, "y", top);
	setAttr(fo, "height", bot - top);
	if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
	g.setTransform(1, 0, 0, 1, 0, 0);
	g.clearRect(0, 0, w, h);
	g.setTransform(px, 0, 0, px, 0, local ? 0 : -top * px);
}
function redraw() {
	if (!queued) {
		queued = true;
		requestAnimationFrame(() => { queued = false; draw(); });
	}
}

function search(t) {
	var re;
	resetSearch(true);
	if (t === null || t === "") return draw();
	try {
		re = new RegExp(t, ignorecase ? "i" : "");
	} catch (err) {
		matched.classList.remove("hide");
		matched.textContent = "Invalid regular expression";
		return draw();
	}
	term = t;
	searchBtn.classList.add("on");
	searchBtn.textContent = "Reset Search";
	matched.classList.remove("hide");
	matched.textContent = match(re);
	draw();
	saveState();
}
function resetSearch(quiet) {
	unmatch();
	term = null;
	searchBtn.classList.remove("on");
	searchBtn.textContent = "Search";
	matched.classList.add("hide");
	if (!quiet) { draw(); saveState(); }
}
/* The graph's search box if it has one (views.js), else a prompt. */
function promptSearch() {
	if (searchBox) { searchBox.focus(); searchBox.select(); return; }
	var t = prompt(PROMPT + (ignorecase ? ", ignoring case" : "")
		+ "\nPress Ctrl-I to toggle case sensitivity", term || "");
	if (t !== null) search(t);
}
function toggleCase() {
	ignorecase = !ignorecase;
	icBtn.classList.toggle("on", ignorecase);
	if (term !== null) search(term);
}

/*
 * The view and the search term (?s=) in the URL of a standalone SVG, or
 * of a graph inside one that gave it a prefix for its keys (me.prefix:
 * spanflame.js's "f.", so that its ?f.s= is not the timeline's ?s=).
 */
var PREFIX = me && me.prefix || "";
function standalone() { return document.documentElement === svg; }
/* The URL's keys that are this graph's, without the prefix; others. */
function params(mine) {
	var p = new URLSearchParams();
	new URLSearchParams(location.search).forEach((v, k) => {
		if (k.startsWith(PREFIX) === mine) p.append(mine ? k.slice(PREFIX.length) : k, v);
	});
	return p;
}
/*
 * A standalone SVG as wide as the window, as a page is: the file's width
 * (1200 by default, the picture without scripts) left a third of a
 * 1920-pixel window blank and cut a 900-pixel one off.  A graph the
 * timeline makes (me.data) is as wide as the timeline; an SVG in a page
 * keeps the width the page gave it.  Returns whether width changed.
 */
function fitWindow() {
	var w = standalone() ? Math.max(document.documentElement.clientWidth, 300) :
		me && me.data ? svg.ownerSVGElement.viewBox.baseVal.width : width;
	if (w === width) return false;
	width = w;
	return true;
}
/*
 * push: a new entry in the history (a zoom, a view), so that Back
 * undoes it; not while restoring one.
 */
function saveState(push) {
	if (!(standalone() || PREFIX) || !window.history || !history.replaceState) return;
	var p = params(true), all = params(false);
	p.delete("s");
	view(p);
	if (term !== null) p.set("s", term);
	p.forEach((v, k) => all.append(PREFIX + k, v));
	var qs = all.toString(), url = location.pathname + (qs ? "?" + qs : "") + location.hash;
	if (push && !restoring && url !== location.pathname + location.search + location.hash) history.pushState(null, "", url);
	else history.replaceState(null, "", url);
}
function restoreState() {
	if (!(standalone() || PREFIX)) return;
	var p = params(true);
	restoring = true;
	restore(p);
	if (p.get("s") !== null) search(p.get("s"));
	else if (term !== null) resetSearch(true);
	restoring = false;
}

/*
 * Whether keys are this graph's: no graph inside it (spanflame.js's) was
 * clicked or hovered last, and it was, or it is a standalone SVG.
 */
function keysMine() {
	return !Array.from(svg.querySelectorAll("svg")).some((s) => s.keysMine && s.keysMine()) && (active || standalone());
}
svg.keysMine = keysMine;
/*
 * The first picture, then the buttons, keys and redraws.  Keys act on
 * the graph last clicked, or on the only one of a standalone SVG.
 */
function begin() {
	restoreState();
	draw();
	listen(window, "scroll", redraw, true);
	listen(window, "resize", redraw);
	listen(window, "load", redraw);
	listen(svg, "click", (e) => {
		active = true;
		if (e.target === resetBtn) return reset();
		if (e.target === searchBtn) return term === null ? promptSearch() : resetSearch();
		if (e.target === icBtn) return toggleCase();
	});
	listen(window, "keydown", (e) => {
		/* (keys typed into the search box are its own, Ctrl's too are ours) */
		if (!keysMine() || (e.target.localName === "input" && !e.ctrlKey)) return;
		if ((e.ctrlKey && e.key === "f") || (e.key === "/" && !e.ctrlKey)) {
			e.preventDefault();
			promptSearch();
		} else if (e.ctrlKey && e.key === "i") {
			e.preventDefault();
			toggleCase();
		} else if (e.key === "Escape") {
			reset(true);
			resetSearch();
		}
	});
	/* (a click in a graph inside this one is that one's) */
	listen(document, "mousedown", (e) => { active = svg.contains(e.target) && e.target.closest("svg") === svg; });
}
