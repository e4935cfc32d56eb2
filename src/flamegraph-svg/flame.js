/*
 * flamegraph-svg: hover, click-zoom, search; after ui.js (see there).
 *
 * The frames in the file are the picture for viewers without scripts
 * (an <img>, a code host's preview).  The script reads the frames as
 * data, from the JSON block scriptdata.c writes (per row, counts, names as
 * indexes into a table; colours made from the names as color.c makes
 * them, where they can be); it removes the
 * static frames before the browser lays them out, and draws on a canvas
 * that covers only the part of the graph inside the window: a zoom or a
 * search then costs one pass over the frames of the rows in view, where
 * restyling 50,000 SVG elements costs the browser half a second.  The
 * mouse finds its frame by binary search in its row.
 *
 * A graph (graph()) is its rows, root, zoom, place and canvas: the main
 * one here, and the sandwich view's two (sandwich.js), drawn, hovered and
 * zoomed by the same functions.  Here too what the views share: the
 * selected function (sel, a name's index), its frames drawn in SEL as
 * search draws its matches, and the label placement (tail first).
 * The search's matches in the main graph, in place order, are matches;
 * mi the one stepped to (views.js's search box), -1 before the first.
 */
var PROMPT = "Enter a search term (regexp allowed, eg: ^ext4_)", MINW = 0.1;
var root = q(".f"), details = q(".d");
if (!root) return;
var nametype = D.nametype, total = D.total, fh = D.fh, labelY = D.label;
var rows = [], frames = [], nm, fillOf = [], rootFrame, main, graphs = [], hover = null, hoverG, font, family,
	sel = -1, tail = false, curRe = null, SEL = "rgb(0,160,255)", link = null, matches = [], mi = -1;

/*
 * printf's "%.Nf": toFixed rounds a tie away from zero, printf to even.
 * A tie is exact: the digits after the Nth are a 5 and then zeros.
 */
function fixed(v, d) {
	var s = v.toFixed(d), all = Math.abs(v) < 1e21 ? v.toFixed(d + 60) : s,
		cut = all.length - 60;
	if (/^50*$/.test(all.slice(cut)) && (all.charCodeAt(cut - (d ? 1 : 2)) & 1) === 0)
		return all.slice(0, d ? cut : cut - 1);
	return s;
}
/* A count as the titles write it: "%.0f" with thousands separators. */
function samples(v) {
	return fixed(v, 0).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
/* A count as it was read: exact, a fraction with its digits (not 0.1 + 0.2's). */
function exact(v) { return Number.isInteger(v) ? samples(v) : String(+v.toPrecision(15)); }
/* A count in --countname's unit: samples exact, and their name (units.js
 * has the units; scriptdata.c embeds it where --countname is not samples). */
var amount = (v) => exact(v) + " " + D.countname;
/*
 * The title flamegraph.pl gives a frame (or the one --nameattr gave), in
 * graph g: its shares of the whole (kept), or with the toolbar's
 * "Shares: of zoomed" (rel), of g's zoomed frame, for it and the frames
 * above it (callers keep the whole's: their share of it is over 100%).
 */
var rel = false;
function title(f, g) {
	var z = relTo(g);
	return z && f.row >= z.row ? titleOf(f, z) : f.title || (f.title = titleOf(f, null));
}
/* The frame shares are of in graph g: its zoomed one, or null for the whole. */
function relTo(g) { return g && rel && g.zoomed !== g.root ? g.zoomed : null; }
function titleOf(f, z) {
	if (f.attr && f.attr.title !== undefined) return f.attr.title;
	if (D.diff) return diffTitle(f, z ? { norm: D.diff.norm, tb: z.b, ta: z.a, of: z.name } : D.diff);
	var c = samples(f.n * D.factor) + " " + D.countname + ", ";
	if (f === rootFrame) return "all (" + c + "100%)";
	if (D.countname !== "samples") c = amount(f.n * D.factor) + ", ";
	var t = f.name + " (" + c + fixed(100 * +fixed(f.n * D.factor, 0) / ((z ? z.n : total) * D.factor), 2) + "%" + (z ? " of " + z.name : "");
	/* a classic differential graph's delta (f.d): delta.js, which scriptdata.c embeds with it */
	/* a hot/cold graph's off-CPU share (f.o): hotcold.js, embedded with it */
	return t + (f.o !== undefined ? offOf(f) : "") + (f.d !== undefined ? deltaOf(f) : "") + ")";
}
/* Whole numbers written as VLQ (see scriptdata.c): those of a, from a[at[0]]
 * on, or all of them; at[0] is left after the last digit read. */
var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
function vlq(a, at, count) {
	var out = [], v = 0, k = 1, i = at ? at[0] : 0;
	for (; i < a.length && out.length !== count; i++) {
		var c = B64.indexOf(a[i]);
		v += (c & 31) * k;
		if (c & 32) k *= 32;
		else { out.push(v); v = 0; k = 1; }
	}
	if (at) at[0] = i;
	return out;
}
/*
 * The names, each ended by ';': each shares a prefix of the one before
 * (its length first).
 */
function names(list) {
	var prev = "";
	return list.split(";").map((e) => {
		var at = [0], k = vlq(e, at, 1)[0];
		return prev = prev.slice(0, k) + e.slice(at[0]);
	});
}
/*
 * A name's colour where the data has none (scriptdata.c writes only those that
 * differ): flamegraph.pl's "hot", its shade Perl's rand() after
 * srand(the sum of the name's code points), as color.c makes it: the
 * first step of drand48 (x * 0x5deece66d + 11, 48 bits), done here in
 * 24-bit halves to stay exact.
 */
function shadeOf(name) {
	var sum = 0;
	for (var ch of name) sum = sum + ch.codePointAt(0) >>> 0;
	var lo = sum % 256 * 65536 + 0x330e, hi = Math.floor(sum / 256), low = lo * 0xece66d + 11;
	return ((hi * 0xece66d + lo * 0x5de + Math.floor(low / 16777216)) % 16777216 * 16777216 + low % 16777216) / 281474976710656;
}
function hot(name) {
	var v = shadeOf(name);
	return "#" + ((205 + Math.floor(50 * v)) * 65536 + Math.floor(230 * v) * 256 + Math.floor(55 * v)).toString(16);
}
/*
 * The rows of the data, root first; a frame's start is the end of its
 * left neighbour plus its gap.  (A graph of stacks, not frames, is
 * xform.js's loadStacks.)  Counts are in units of D.unit; whole
 * ones come as one VLQ string, a frame's count times two, plus one if
 * its gap follows.
 */
function load() {
	/* (a list where the timeline's spandiff.js makes the data) */
	nm = typeof D.names === "string" ? names(D.names) : D.names;
	if (D.diff) return loadDiff();
	if (D.stacks) return loadStacks();
	var i = 0, u = D.unit, name = vlq(D.name), fills = [], byName = [],
		seq = typeof D.n === "string" ? vlq(D.n) : null, p = 0,
		color = D.color && vlq(D.color), ncolor = D.ncolor && vlq(D.ncolor);
	/* The colours: 24 bits each in four base-64 digits, highest first. */
	for (var c = 0; c < D.colors.length; c += 4) {
		for (var k = c, v = 1; k < c + 4; k++) v = v * 64 + B64.indexOf(D.colors[k]);
		fills.push("#" + v.toString(16).slice(1));
	}
	/*
	 * A colour per frame, or by name: the names that hot() gets wrong,
	 * each after the number of names skipped since the last, and how: 0
	 * to 3 hot() of the name with its annotation, 4 on from the table.
	 */
	for (var e = 0, at = 0; ncolor && e < ncolor.length; e += 2, at++) {
		c = ncolor[e + 1];
		byName[at += ncolor[e]] = c < 4 ? hot(nm[at] + "_[" + "kwij"[c] + "]") : fills[c - 4];
	}
	for (var r = 0; r < D.rowlen.length; r++) {
		var end = 0, list = [];
		for (var k = D.rowlen[r]; k > 0; k--, i++) {
			var x = name[i], v = seq && seq[p++], f = {
				name: nm[x], x: x, s: end + (!seq ? D.gap[i] : v % 2 ? seq[p++] * u : 0),
				n: seq ? Math.floor(v / 2) * u : D.n[i], row: r,
				fill: color ? fills[color[i]] : byName[x] || (byName[x] = hot(nm[x])), attr: D.attrs[x],
				title: "", hit: false, chars: -1, label: ""
			};
			if (D.delta && D.delta[i] !== null) f.d = D.delta[i];
			if (D.off) f.o = D.off[i];
			end = f.s + f.n;
			fillOf[x] = fillOf[x] || f.fill;
			list.push(f);
			frames.push(f);
		}
		rows.push({ y: D.rowy[0] + r * D.rowy[1], frames: list });
	}
	rootFrame = frames[0];
	rootFrame.name = "all";
}

/* The first frame of a row that ends after sample position v. */
function first(list, v) {
	var lo = 0, hi = list.length;
	while (lo < hi) {
		var mid = (lo + hi) >> 1;
		if (list[mid].s + list[mid].n <= v) lo = mid + 1; else hi = mid;
	}
	return lo;
}
/*
 * The frames as a tree, once, for the views: each frame's parent (p) and
 * callees (kids), from the rows as the mouse finds frames, by start.
 */
function tree() {
	if (rootFrame.kids) return;
	frames.forEach((f) => { f.kids = []; });
	for (var r = 1; r < rows.length; r++) {
		var up = rows[r - 1].frames, j = 0;
		rows[r].frames.forEach((f) => {
			while (j < up.length - 1 && up[j].s + up[j].n <= f.s + main.eps) j++;
			f.p = up[j];
			up[j].kids.push(f);
		});
	}
}
/*
 * A graph: rows ({y, frames}) from its root's, drawn between x0 and
 * x0 + w on a canvas of its own put before node.
 */
function graph(rows, node) {
	var a = makeCanvas(svg, node), g = {
		rows: rows, root: rows[0].frames[0], x0: XPAD, w: width - 2 * XPAD, fo: a[0], canvas: a[1],
		ctx: a[1].getContext("2d"), outline: el("rect", null, "fill:none;stroke:#000;stroke-width:.5;pointer-events:none;rx:2px"),
		hidden: false
	};
	g.zoomed = g.root;
	g.eps = 1e-9 * g.root.n;
	setAttr(g.outline, "height", fh);
	setAttr(g.outline, "width", 0);
	svg.insertBefore(g.outline, node);
	listen(g.canvas, "mousemove", (e) => { active = true; setHover(g, at(g, e)); });
	listen(g.canvas, "mouseleave", () => setHover(g, null));
	/* A click zooms, Ctrl copies the name; on a link, link() (links.js). */
	listen(g.canvas, "click", (e) => {
		var f = at(g, e);
		if (f && !(link && link(g, f, e))) e.ctrlKey || e.metaKey ? copy(f.name) : zoom(g, f);
	});
	listen(g.canvas, "contextmenu", (e) => {
		var f = at(g, e);
		if (!f || f === rootFrame) return;
		e.preventDefault();
		menu(g, f, e);
	});
	graphs.push(g);
	return g;
}
/*
 * Where a frame is in the zoomed view: callers of the zoomed frame span
 * the width, dimmed; it and its callees scale; every other frame hides.
 * In rows at or above the zoomed frame's, a frame that overlaps it is
 * one of its callees, so both tests are on ranges of samples.
 */
function callerOf(g, f, z) { return f.row < z.row && f.s <= z.s + g.eps && f.s + f.n >= z.s + z.n - g.eps; }
function place(g, f) {
	var z = g.zoomed, k = g.w / z.n;
	if (f.row < z.row) return callerOf(g, f, z) ? { x: g.x0, w: g.w, state: "parent" } : null;
	if (f.s + f.n <= z.s + g.eps || f.s >= z.s + z.n - g.eps) return null;
	return { x: g.x0 + (f.s - z.s) * k, w: f.n * k, state: "" };
}

/* A label that fits w: the name's head (or its tail) and "..". */
function label(f, w) {
	var chars = Math.floor(w / cw);
	if (chars < 3 || f === rootFrame) chars = 0;
	if (chars * 2 + tail !== f.chars) {
		f.chars = chars * 2 + tail;
		var cps = chars && f.name.length > chars ? Array.from(f.name) : null;
		f.label = !chars ? "" : !cps || cps.length <= chars ? f.name :
			tail ? ".." + cps.slice(2 - chars).join("") : cps.slice(0, chars - 2).join("") + "..";
	}
	return f.label;
}
function colorOf(f) { return f.hit ? MATCH : f.x === sel ? SEL : f.fill; }

/* Draw every graph shown, the table if it is, and the toolbar's state. */
function draw() {
	graphs.forEach(drawGraph);
	drawTable();
	bars();
}
/*
 * Draw the rows inside the window: rectangles batched by colour, one
 * path each, then the labels.  Frames narrower than a device pixel are
 * drawn in runs a pixel wide, each in the colour of its widest frame (or
 * the search colour if one matches): the band of colour that many tiny
 * rectangles make in the SVG, for the cost of one.  Runs narrower than
 * MINW are left out, as the file leaves such frames out.
 */
function drawGraph(g) {
	var m = svg.getScreenCTM(), rows = g.rows, fo = g.fo, ctx = g.ctx;
	if (!m || !m.a) return;
	var last = rows[rows.length - 1].y,
		v = visible(m, Math.min(rows[0].y, last), Math.max(rows[0].y, last) + fh),
		top = v[0], bot = v[1];
	if (g.hidden || !(bot > top)) { setAttr(fo, "height", 0); setAttr(g.outline, "width", 0); return; }
	var px = scale(m, bot - top), dev = 1 / px, x0 = g.x0, gw = g.w;
	fit(fo, g.canvas, ctx, top, bot, px);

	var z = g.zoomed, k = gw / z.n, zend = z.s + z.n - g.eps,
		fills = new Map(), dim = [], texts = [], y, run = null, rx = 0, rw = 0, rc;
	var box = (c, x, w) => {
		if (fills.has(c)) fills.get(c).push(x, w, y);
		else fills.set(c, [x, w, y]);
	};
	var flush = () => {
		if (run && rw >= MINW) box(rc, rx, rw);
		run = null;
	};
	for (var i = 0; i < rows.length; i++) {
		var list = rows[i].frames, j, f, x, w;
		y = rows[i].y;
		if (y + fh < top || y > bot) continue;
		j = first(list, z.s + g.eps);
		if (i < z.row) {
			if (j < list.length) dim.push(list[j], y);
			continue;
		}
		for (; j < list.length && list[j].s < zend; j++) {
			f = list[j];
			x = x0 + (f.s - z.s) * k;
			w = f.n * k;
			if (w >= dev) {
				flush();
				box(colorOf(f), x, w);
				if (w >= 3 * cw && f !== rootFrame) texts.push(f, x, w, y);
			} else if (run && x - rx - rw < dev / 2) {
				if (w > run.n * k) { run = f; if (rc === run.fill) rc = colorOf(f); }
				rw = x + w - rx;
				if (colorOf(f) !== f.fill) rc = colorOf(f);
			} else {
				flush();
				run = f; rx = x; rw = w; rc = colorOf(f);
			}
			if (run && rw >= dev) flush();
		}
		flush();
	}
	/* Wide frames round their corners as the SVG does; narrow ones are
	 * plain fillRects, as one path of thousands of rectangles rasterises
	 * many times slower. */
	var rr = (x, w, y) => {
		if (w >= 4 && ctx.roundRect) ctx.roundRect(x, y, w, fh, 2); else ctx.rect(x, y, w, fh);
	};
	fills.forEach((a, c) => {
		ctx.fillStyle = c;
		ctx.beginPath();
		for (var i = 0; i < a.length; i += 3)
			if (a[i + 1] >= 4) rr(a[i], a[i + 1], a[i + 2]);
			else ctx.fillRect(a[i], a[i + 2], a[i + 1], fh);
		ctx.fill();
	});
	ctx.font = font;
	ctx.globalAlpha = 0.5;
	for (i = 0; i < dim.length; i += 2) {
		f = dim[i];
		ctx.fillStyle = colorOf(f);
		ctx.beginPath();
		rr(x0, gw, dim[i + 1]);
		ctx.fill();
		ctx.fillStyle = "#000";
		if (f !== rootFrame && label(f, gw))
			ctx.fillText(f.label, x0 + 3, dim[i + 1] + labelY);
	}
	ctx.globalAlpha = 1;
	ctx.fillStyle = "#000";
	for (i = 0; i < texts.length; i += 4)
		if (label(texts[i], texts[i + 2]))
			ctx.fillText(texts[i].label, texts[i + 1] + 3, texts[i + 3] + labelY);
	if (hover && hoverG === g) outlineAt(g, hover);
}
/* The frame under the mouse: its row from y, then a binary search. */
function at(g, e) {
	var p = userPoint(e), rows = g.rows;
	if (!p || g.hidden) return null;
	var ux = p[0], uy = p[1];
	var step = rows.length > 1 ? rows[1].y - rows[0].y : fh + 1;
	var i = Math.round((uy - rows[0].y - fh / 2) / step), z = g.zoomed;
	if (i < 0 || i >= rows.length || uy < rows[i].y || uy >= rows[i].y + fh) return null;
	if (ux < g.x0 || ux >= g.x0 + g.w) return null;
	var list = rows[i].frames,
		v = i < z.row ? z.s + g.eps : z.s + (ux - g.x0) * z.n / g.w;
	var f = list[first(list, v)];
	return f && f.s <= v && place(g, f) ? f : null;
}
function outlineAt(g, f) {
	var p = place(g, f);
	if (!p) { setAttr(g.outline, "width", 0); return; }
	setAttr(g.outline, "x", p.x.toFixed(1));
	setAttr(g.outline, "y", g.rows[f.row].y);
	setAttr(g.outline, "width", p.w.toFixed(1));
}
function pct(v, of) { return (of ? 100 * v / of : 0).toFixed(2) + "%"; }
function setHover(g, f) {
	if (f === hover) return;
	if (hoverG) setAttr(hoverG.outline, "width", 0);
	hover = f;
	hoverG = g;
	if (!f) {
		details.textContent = " ";
		g.canvas.style.cursor = "";
		g.canvas.removeAttribute("title");
		return;
	}
	/* the title's share and the other one: of the zoomed frame, or of all */
	var text = nametype + " " + title(f, g), z = g.zoomed;
	if (z !== rootFrame && z !== f && f.row >= z.row && !(rel && D.diff))
		text = text.slice(0, -1) + ", " + (relTo(g) ? pct(f.n, total) + " of all" : pct(f.n, z.n) + " of " + z.name) + ")";
	details.textContent = text;
	g.canvas.style.cursor = "pointer";
	setAttr(g.canvas, "title", title(f, g));
	outlineAt(g, f);
}

function zoom(g, f) {
	g.zoomed = f;
	if (g === main) showReset();
	setHover(g, null);
	draw();
	saveState(true);
}
/* The Reset button, shown while the main graph is zoomed. */
function showReset() { resetBtn.classList.toggle("hide", main.zoomed === rootFrame); }
function reset() { graphs.forEach((g) => { g.zoomed = g.root; }); zoom(main, rootFrame); }

/* Count each sample once: a match inside a match adds nothing. */
function match(re) {
	curRe = re;
	var hits = frames.filter((f) => (f.hit = f !== rootFrame && re.test(f.name)));
	graphs.forEach((g) => { if (g !== main) g.frames.forEach((f) => { f.hit = re.test(f.name); }); });
	hits.sort((a, b) => a.s - b.s || b.n - a.n);
	matches = hits;
	mi = -1;
	var sum = 0, end = -Infinity;
	hits.forEach((f) => { if (f.s >= end) { sum += f.n; end = f.s + f.n; } });
	var p = 100 * sum / total;
	return "Matched: " + (p === 100 ? "100" : p.toFixed(1)) + "%";
}
function unmatch() {
	curRe = null;
	matches = [];
	if (term !== null) graphs.forEach((g) => g.frames.forEach((f) => { f.hit = false; }));
}

/* Copy text to the clipboard, and say so in the details line. */
function copy(t) {
	if (navigator.clipboard) navigator.clipboard.writeText(t).catch(() => {});
	svg.copied = t;
	details.textContent = "Copied: " + t;
}

/*
 * The view in the URL, as flamegraph.pl keeps it: ?x=&y= and ?s=, the
 * zoomed frame named by its rectangle's place in the file; the views'
 * own (views.js) after.
 */
function xOf(f) { return XPAD + f.s * (width - 2 * XPAD) / total; }
function view(p) {
	p.delete("x");
	p.delete("y");
	var z = main.zoomed;
	if (z !== rootFrame) { p.set("x", fixed(xOf(z), 1).replace(/\.0$/, "")); p.set("y", rows[z.row].y); }
	xfState(p);
	viewState(p);
}
function restore(p) {
	var x = p.get("x"), y = p.get("y");
	main.zoomed = rootFrame;
	xfRestore(p);
	if (D.diff) diffRestore(p);
	if (x !== null && y !== null)
		frames.forEach((f) => {
			if (f !== rootFrame && Math.abs(rows[f.row].y - y) < 0.051 && Math.abs(xOf(f) - x) < 0.051) main.zoomed = f;
		});
	showReset();
	viewRestore(p);
}

/*
 * A tall graph opens on its frames, not on the empty background above a
 * flame graph's root at the bottom of the file: the window scrolls, if
 * the zoomed frame's row (the root's, or the URL's zoom) is below it, to
 * show that row with its callees (above it; below it in an icicle) and,
 * under the root, the details line, and draws there at once rather
 * than a frame later.  Only in a standalone SVG: a page that embeds
 * graphs owns its scrolling.  The static picture is unchanged.
 */
function scrollToZoomed() {
	var m = svg.getScreenCTM(), zoomed = main.zoomed;
	if (!standalone() || !m || !m.d || main.hidden) return;
	/* The window's height without the scrollbar a wide graph adds. */
	var h = window.visualViewport ? visualViewport.height : innerHeight,
		y = rows[zoomed.row].y, up = D.rowy[1] < 0,
		bot = up && zoomed === rootFrame ? vbox.y + vbox.height : y + fh;
	if (m.f + (y + fh) * m.d <= h) return;
	scrollBy(0, Math.ceil(up ? m.f + bot * m.d - h : m.f + y * m.d));
	draw();
}

function start() {
	load();
	main = graph(rows, root);
	main.frames = frames;
	/*
	 * The static frames go before the browser styles them: hidden, they
	 * would still cost a style pass over every element.
	 */
	root.remove();
	family = getComputedStyle(details).fontFamily;
	font = fontsize + "px " + family;
	/* For tests and embedding pages: the same actions as the mouse and keys. */
	svg.flamegraph = {
		zoom: (name) => {
			var f = frames.find((e) => e.name === name);
			if (f) zoom(main, f);
		},
		unzoom: reset, search: search, resetSearch: resetSearch,
		frames: (g) => (g = g || main).frames.map((f) => {
			var p = !g.hidden && place(g, f) || { x: 0, w: 0, state: "hide" };
			return {
				name: f.name, title: title(f, g), n: f.n, fill: f.fill, hit: f.hit, label: f.label,
				x: p.x, y: g.rows[f.row].y, w: p.w, h: fh, state: p.state
			};
		})
	};
	views();
	begin();
	scrollToZoomed();

}
