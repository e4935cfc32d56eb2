/*
 * flamegraph-svg timeline: overview and detail of laid-out spans, linked
 * by one window of time; after ui.js (see there).
 *
 * The spans come as JSON (per row, in time order; see timeline.h) and
 * are kept in typed arrays.  A row's spans do not overlap, so both their
 * starts and their ends ascend, and a binary search on the ends finds the
 * first span a window shows.  Spans narrower than a device pixel are
 * drawn as one run per pixel: the run's end is found by the same binary
 * search, so a draw costs rows x pixels x log(spans), never the number of
 * spans.  The overview, whose scale never changes, is drawn once into an
 * offscreen canvas and copied; the window, the selection box and the
 * mouse line are drawn over the copy.
 */
var PROMPT = "Search span names (regexp allowed)";
var tlv = q(".tlv");
if (!tlv) return;
var TOTAL = +tlv.getAttribute("data-total"), ROWS = +tlv.getAttribute("data-rows"),
	fh = +tlv.getAttribute("data-fh"), AXIS = +tlv.getAttribute("data-axis"),
	ov = tlv.getAttribute("data-ov").split(" "), ovy = +ov[0], ovh = +ov[1],
	dty = +tlv.getAttribute("data-dt");
var panel = [q(".p0"), q(".p1"), q(".p2")];
var names, tracks, colors, S, DU, E, NM, TR, PA, RW, rowA, rowB, openSpans,
	hitName = null, hitPre = null;
var W0 = 0, W1 = TOTAL, minW = Math.min(TOTAL, Math.max(1, TOTAL * 1e-7));
var selected = -1, hover = -1, mouseX = -1, dragging = null;
var ofo, ocanvas, octx, off, offctx, dfo, dcanvas, ctx, tip, outline, font;

/* The JSON into typed arrays; starts are deltas within a row. */
function load() {
	var d = D, n = d.dur.length, i = 0;
	names = d.names; tracks = d.tracks; colors = d.colors;
	S = new Float64Array(n); DU = new Float64Array(d.dur); E = new Float64Array(n);
	NM = new Uint32Array(d.name); TR = new Uint32Array(d.track); PA = new Int32Array(n);
	RW = new Uint32Array(n);
	rowA = new Uint32Array(ROWS); rowB = new Uint32Array(ROWS);
	for (var r = 0; r < ROWS; r++) {
		var t = 0;
		rowA[r] = i;
		for (var k = d.rowlen[r] || 0; k > 0; k--, i++) {
			t += d.start[i];
			S[i] = t;
			E[i] = t + DU[i];
			PA[i] = d.parent[i] - 1;
			RW[i] = r;
		}
		rowB[r] = i;
	}
	openSpans = new Set(d.open);
}
/* The first span in [a, b) that ends after t (b if none). */
function firstEnd(a, b, t) {
	while (a < b) {
		var mid = (a + b) >> 1;
		if (E[mid] <= t) a = mid + 1; else b = mid;
	}
	return a;
}

/* "512 ns", "13.89 µs", "13.39 ms", "1.20 s"; ticks by their step. */
var units = [[1e9, "s"], [1e6, "ms"], [1e3, "\u00b5s"]];
function unitOf(v) {
	for (var i = 0; i < 3; i++) if (v >= units[i][0]) return units[i];
	return null;
}
function fmt(ns) {
	var u = unitOf(ns);
	return u ? (ns / u[0]).toFixed(2) + " " + u[1] : Math.round(ns) + " ns";
}
/* In the value's unit if two decimals of it show the step, else the step's. */
function fmtTick(v, step) {
	if (v === 0) return "0";
	var u = unitOf(v);
	if (!u || step * 100 < u[0]) u = unitOf(step);
	return u ? (v / u[0]).toFixed(2) + " " + u[1] : Math.round(v) + " ns";
}
function tickStep(span, px) {
	var raw = span * 100 / px, p = 1;
	while (p * 10 <= raw) p *= 10;
	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}
function colorOf(i) { return colors[TR[i] % colors.length]; }

/* The label of a span w wide: "name  duration", the name, "na...", or "". */
function label(i, w) {
	var chars = w > 6 ? Math.floor((w - 6) / cw) : 0;
	if (chars < 4) return "";
	var name = names[NM[i]], cps = Array.from(name), dur = fmt(DU[i]);
	if (chars >= cps.length + 2 + Array.from(dur).length) return name + "  " + dur;
	if (chars >= cps.length && cps.length) return name;
	return cps.slice(0, chars - 3).join("") + "...";
}

/*
 * Draw rows [r0, r1) of the spans in [t0, t1) into g: x from x0 over ww
 * user units, row r's top at y0 + r * rh, rects rh - gap high.  dev is a
 * device pixel in user units.  Returns the spans drawn whole, for labels.
 */
function drawSpans(g, t0, t1, x0, ww, y0, rh, gap, r0, r1, dev, wide) {
	var k = ww / (t1 - t0), fills = new Map(), out = [];
	var box = (c, x, w, y) => {
		var a = fills.get(c);
		if (!a) fills.set(c, a = []);
		a.push(x, w, y);
	};
	for (var r = r0; r < r1; r++) {
		var y = y0 + r * rh, b = rowB[r];
		for (var i = firstEnd(rowA[r], b, t0); i < b && S[i] < t1;) {
			var x = x0 + (S[i] - t0) * k, w = DU[i] * k;
			if (x < x0) { w -= x0 - x; x = x0; }
			if (x + w > x0 + ww) w = x0 + ww - x;
			if (w >= dev) {
				box(hitName && hitName[NM[i]] ? MATCH : colorOf(i), x, w, y);
				if (wide) out.push(i, x, w, y);
				i++;
				continue;
			}
			/* A run: every span that ends within this device pixel. */
			var j = firstEnd(i + 1, b, t0 + (x + dev - x0) / k);
			var hit = hitPre && hitPre[j] - hitPre[i] > 0;
			var xe = Math.min(x0 + (E[j - 1] - t0) * k, x0 + ww);
			box(hit ? MATCH : colorOf(i), x, Math.max(xe - x, dev), y);
			i = j;
		}
	}
	fills.forEach((a, c) => {
		g.fillStyle = c;
		for (var n = 0; n < a.length; n += 3) g.fillRect(a[n], a[n + 2], a[n + 1], rh - gap);
	});
	return out;
}

function drawTicks(g, t0, t1, x0, ww, y, h, labels) {
	var step = tickStep(t1 - t0, ww), k = ww / (t1 - t0);
	g.strokeStyle = "#ddd";
	g.lineWidth = 0.5;
	g.fillStyle = "#666";
	g.font = (fontsize * 0.8) + "px " + font;
	g.beginPath();
	for (var v = Math.ceil(t0 / step) * step; v <= t1; v += step) {
		var x = x0 + (v - t0) * k;
		g.moveTo(x, y);
		g.lineTo(x, y + h);
		if (labels && x < x0 + ww - 50) g.fillText(fmtTick(v, step), x + 2, y + fontsize * 0.9);
	}
	g.stroke();
}

/* The overview's spans, drawn once (again after a search). */
function drawOffscreen() {
	var m = svg.getScreenCTM();
	if (!m || !m.a) return;
	var px = scale(m, ovh);
	off.width = Math.ceil(width * px);
	off.height = Math.ceil(ovh * px);
	offctx.setTransform(px, 0, 0, px, 0, 0);
	offctx.clearRect(0, 0, width, ovh);
	var rh = ovh / Math.max(ROWS, 1);
	drawSpans(offctx, 0, TOTAL, XPAD, width - 2 * XPAD, 0, rh, rh > 2 ? 0.5 : 0, 0, ROWS, 1 / px, false);
	off.px = px;
}

function drawOverview() {
	var m = svg.getScreenCTM();
	if (!m || !m.a) return;
	var h = AXIS + ovh, px = scale(m, h);
	if (off.px !== px) drawOffscreen();
	fit(ofo, ocanvas, octx, ovy, ovy + h, px, true);
	var g = octx, ww = width - 2 * XPAD, k = ww / TOTAL;
	drawTicks(g, 0, TOTAL, XPAD, ww, 0, h, true);
	g.drawImage(off, 0, AXIS, width, ovh);
	/* Outside the window: dimmed.  Its edges: handles. */
	var xl = XPAD + W0 * k, xr = XPAD + W1 * k;
	g.fillStyle = "rgba(128,128,128,0.35)";
	g.fillRect(XPAD, 0, xl - XPAD, h);
	g.fillRect(xr, 0, XPAD + ww - xr, h);
	g.fillStyle = "#555";
	g.fillRect(xl - 1, 0, 2, h);
	g.fillRect(xr - 1, 0, 2, h);
	if (dragging && dragging.kind === "select" && dragging.x !== undefined) {
		g.fillStyle = "rgba(80,140,255,0.3)";
		g.fillRect(Math.min(dragging.x0, dragging.x), 0, Math.abs(dragging.x - dragging.x0), h);
	}
	if (mouseX >= XPAD && mouseX <= XPAD + ww) {
		g.fillStyle = "#1e6fff";
		g.fillRect(mouseX - 0.5, 0, 1, h);
	}
}

function drawDetail() {
	var m = svg.getScreenCTM();
	if (!m || !m.a) return;
	var bx = visible(m, dty, dty + AXIS + ROWS * fh), top = bx[0], bot = bx[1];
	if (!(bot > top)) { setAttr(dfo, "height", 0); return; }
	var px = scale(m, bot - top), dev = 1 / px, ww = width - 2 * XPAD, k = ww / (W1 - W0);
	fit(dfo, dcanvas, ctx, top, bot, px);
	var g = ctx;
	drawTicks(g, W0, W1, XPAD, ww, dty, AXIS + ROWS * fh, true);
	var y0 = dty + AXIS, r0 = Math.max(0, Math.floor((top - y0) / fh)),
		r1 = Math.min(ROWS, Math.ceil((bot - y0) / fh));
	g.save();
	g.beginPath();
	g.rect(XPAD, dty, ww, AXIS + ROWS * fh);
	g.clip();
	var wide = drawSpans(g, W0, W1, XPAD, ww, y0, fh, 1, r0, r1, dev, true);
	/* Lines up to a parent more than one row above. */
	g.lineWidth = 0.5;
	for (var n = 0; n < wide.length; n += 4) {
		var i = wide[n], p = PA[i];
		if (p < 0) continue;
		var pr = RW[p];
		if (pr + 1 >= RW[i]) continue;
		g.strokeStyle = colorOf(i);
		g.beginPath();
		g.moveTo(wide[n + 1] + 0.25, y0 + (pr + 1) * fh);
		g.lineTo(wide[n + 1] + 0.25, wide[n + 3]);
		g.stroke();
	}
	g.font = fontsize + "px " + font;
	g.fillStyle = "#000";
	for (n = 0; n < wide.length; n += 4) {
		var t = label(wide[n], wide[n + 2]);
		if (t) g.fillText(t, wide[n + 1] + 3, wide[n + 3] + 3 + (fh - 1) / 2);
	}
	g.restore();
	if (selected >= 0) {
		var sb = spanBox(selected);
		setAttr(outline, "width", sb ? Math.max(sb.w, 1).toFixed(1) : 0);
		if (sb) { setAttr(outline, "x", sb.x.toFixed(1)); setAttr(outline, "y", sb.y); }
	} else setAttr(outline, "width", 0);
}

function draw() {
	drawOverview();
	drawDetail();
}

/* Where span i is in the detail view (user units), or null. */
function spanBox(i) {
	var ww = width - 2 * XPAD, k = ww / (W1 - W0);
	if (E[i] < W0 || S[i] > W1) return null;
	var x = XPAD + (Math.max(S[i], W0) - W0) * k, xe = XPAD + (Math.min(E[i], W1) - W0) * k;
	return { x: x, w: xe - x, y: dty + AXIS + RW[i] * fh, h: fh - 1 };
}

function timeOfOv(x) { return (x - XPAD) * TOTAL / (width - 2 * XPAD); }
function timeOfDetail(x) { return W0 + (x - XPAD) * (W1 - W0) / (width - 2 * XPAD); }

/* The span under a point of the detail view, or -1. */
function span_at(x, y) {
	var r = Math.floor((y - dty - AXIS) / fh);
	if (r < 0 || r >= ROWS || x < XPAD || x > width - XPAD) return -1;
	var t = timeOfDetail(x), slop = 2 * (W1 - W0) / (width - 2 * XPAD),
		i = firstEnd(rowA[r], rowB[r], t - slop);
	if (i >= rowB[r] || S[i] > t + slop) return -1;
	/* Of the spans within two pixels, the one under the point, else the first. */
	var best = i;
	for (var j = i; j < rowB[r] && S[j] <= t + slop; j++)
		if (S[j] <= t && E[j] >= t) { best = j; break; }
	return best;
}

function clampWindow(a, b) {
	if (b - a < minW) { var c = (a + b) / 2; a = c - minW / 2; b = c + minW / 2; }
	if (b - a > TOTAL) { a = 0; b = TOTAL; }
	if (a < 0) { b -= a; a = 0; }
	if (b > TOTAL) { a -= b - TOTAL; b = TOTAL; }
	return [Math.max(0, a), Math.min(TOTAL, b)];
}
function setWindow(a, b) {
	var w = clampWindow(a, b);
	W0 = w[0]; W1 = w[1];
	resetBtn.classList.toggle("hide", W0 <= 0 && W1 >= TOTAL);
	setTip(-1);
	redraw();
	saveState();
}
function zoomAt(t, f) { setWindow(t - (t - W0) * f, t + (W1 - t) * f); }
function reset(all) {
	setWindow(0, TOTAL);
	if (all) select(-1);
}

/* The tooltip: name, duration, start, track, parent. */
function setTip(i, x, y) {
	hover = i;
	if (i < 0) { setAttr(tip, "class", "hide"); return; }
	var lines = [names[NM[i]] + (openSpans.has(i) ? " (open)" : ""),
		"Duration: " + fmt(DU[i]), "Start: +" + fmt(S[i]),
		"Track: " + tracks[TR[i]], "Parent: " + (PA[i] >= 0 ? names[NM[PA[i]]] : "none")];
	var texts = tip.querySelectorAll("text"), wmax = 0;
	for (var n = 0; n < 5; n++) {
		texts[n].textContent = lines[n];
		wmax = Math.max(wmax, Array.from(lines[n]).length * cw);
	}
	var bg = tip.firstElementChild, w = wmax + 12, h = 5 * (fontsize + 3) + 8;
	setAttr(bg, "width", w);
	setAttr(bg, "height", h);
	setAttr(tip, "class", "tip");
	var tx = Math.min(x + 12, width - w - 2), ty = y + 16;
	setAttr(tip, "transform", "translate(" + Math.max(2, tx).toFixed(1) + " " + ty.toFixed(1) + ")");
}
function tipText() {
	return hover < 0 ? "" : Array.from(tip.querySelectorAll("text")).map((t) => t.textContent).join("\n");
}

/* Click: the span selected, outlined, its details in the panel. */
function select(i) {
	selected = i;
	if (i < 0) panel.forEach((p) => { p.textContent = " "; });
	else {
		var kids = 0;
		for (var j = 0; j < PA.length; j++) if (PA[j] === i) kids++;
		panel[0].textContent = "Selected: " + names[NM[i]] + (openSpans.has(i) ? " (open)" : "");
		panel[1].textContent = "Start: +" + fmt(S[i]) + "   Duration: " + fmt(DU[i]) + "   End: +" + fmt(E[i]);
		panel[2].textContent = "Track: " + tracks[TR[i]] + "   Parent: " +
			(PA[i] >= 0 ? names[NM[PA[i]]] : "none") + "   Children: " + kids;
	}
	redraw();
}

/* Search: names that match, counted once; time of matches not inside a match. */
function match(re) {
	hitName = new Uint8Array(names.length);
	names.forEach((nm, i) => { hitName[i] = re.test(nm) ? 1 : 0; });
	var n = S.length, count = 0, time = 0;
	hitPre = new Uint32Array(n + 1);
	for (var i = 0; i < n; i++) {
		var h = hitName[NM[i]];
		hitPre[i + 1] = hitPre[i] + h;
		if (!h) continue;
		count++;
		var p = PA[i], inside = false;
		for (var guard = 0; p >= 0 && guard < n; p = PA[p], guard++)
			if (hitName[NM[p]]) { inside = true; break; }
		if (!inside) time += DU[i];
	}
	off.px = 0;
	return "Matched: " + count + " span" + (count === 1 ? "" : "s") + ", " + fmt(time);
}
function unmatch() {
	hitName = hitPre = null;
	off.px = 0;
}

/* The window in the URL: ?t0=&t1= (ns). */
function view(p) {
	p.delete("t0");
	p.delete("t1");
	if (W0 > 0 || W1 < TOTAL) { p.set("t0", Math.round(W0)); p.set("t1", Math.round(W1)); }
}
function restore(p) {
	var a = p.get("t0"), b = p.get("t1");
	if (a !== null && b !== null && isFinite(+a) && isFinite(+b) && +b > +a) setWindow(+a, +b);
}

/* Overview: which drag the pointer at x would start. */
function ovAction(x) {
	var k = (width - 2 * XPAD) / TOTAL, xl = XPAD + W0 * k, xr = XPAD + W1 * k;
	if (Math.abs(x - xl) <= 4 && Math.abs(x - xr) > Math.abs(x - xl)) return "left";
	if (Math.abs(x - xr) <= 4) return "right";
	if (x > xl && x < xr) return "move";
	return "select";
}
var cursors = { left: "ew-resize", right: "ew-resize", move: "grab", select: "crosshair" };

function wheel(e, t) {
	e.preventDefault();
	var dy = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
	zoomAt(t, Math.pow(1.002, Math.max(-500, Math.min(500, dy))));
}

function start() {
	load();
	q(".sp").remove();
	font = getComputedStyle(q(".t")).fontFamily;
	var a = makeCanvas(tlv);
	ofo = a[0]; ocanvas = a[1]; octx = ocanvas.getContext("2d");
	a = makeCanvas(tlv);
	dfo = a[0]; dcanvas = a[1]; ctx = dcanvas.getContext("2d");
	off = el("canvas");
	offctx = off.getContext("2d");
	outline = el("rect", tlv, "fill:none;stroke:#000;stroke-width:1.5;pointer-events:none");
	setAttr(outline, "height", fh - 1);
	setAttr(outline, "width", 0);
	tip = el("g", null, "pointer-events:none");
	setAttr(tip, "class", "hide");
	var bg = el("rect", tip, "fill:#fffff0;stroke:#888;stroke-width:.5");
	for (var n = 0; n < 5; n++) {
		var t = el("text", tip);
		setAttr(t, "x", 6);
		setAttr(t, "y", 4 + (n + 1) * (fontsize + 3) - 2);
	}
	svg.appendChild(tip);
	begin();
	listen(window, "resize", () => { off.px = 0; });

	listen(ocanvas, "wheel", (e) => { active = true; wheel(e, timeOfOv(userPoint(e)[0])); }, { passive: false });
	listen(dcanvas, "wheel", (e) => { active = true; wheel(e, timeOfDetail(userPoint(e)[0])); }, { passive: false });
	listen(ocanvas, "mousemove", (e) => {
		mouseX = userPoint(e)[0];
		if (!dragging) ocanvas.style.cursor = cursors[ovAction(mouseX)];
		redraw();
	});
	listen(ocanvas, "mouseleave", () => { mouseX = -1; redraw(); });
	listen(ocanvas, "mousedown", (e) => {
		active = true;
		e.preventDefault();
		var x = userPoint(e)[0];
		dragging = { kind: ovAction(x), x0: x, w0: W0, w1: W1 };
		if (dragging.kind === "move") ocanvas.style.cursor = "grabbing";
	});
	listen(dcanvas, "mousedown", (e) => {
		active = true;
		e.preventDefault();
		var p = userPoint(e);
		dragging = { kind: "pan", x0: p[0], w0: W0, w1: W1, moved: false };
	});
	listen(window, "mousemove", (e) => {
		var p = userPoint(e), x = p[0];
		if (!dragging) {
			if (e.target === dcanvas) {
				var i = span_at(x, p[1]);
				dcanvas.style.cursor = i >= 0 ? "pointer" : "";
				if (i !== hover || i >= 0) setTip(i, x, p[1]);
			} else if (hover >= 0) setTip(-1);
			return;
		}
		var d = dragging, k = TOTAL / (width - 2 * XPAD), dt = (x - d.x0) * k;
		if (d.kind === "left") setWindow(Math.min(d.w0 + dt, d.w1 - minW), d.w1);
		else if (d.kind === "right") setWindow(d.w0, Math.max(d.w1 + dt, d.w0 + minW));
		else if (d.kind === "move") setWindow(d.w0 + dt, d.w1 + dt);
		else if (d.kind === "select") { d.x = x; mouseX = x; redraw(); }
		else if (d.kind === "pan") {
			if (Math.abs(x - d.x0) > 3) d.moved = true;
			if (d.moved) {
				dt = (x - d.x0) * (d.w1 - d.w0) / (width - 2 * XPAD);
				setWindow(d.w0 - dt, d.w1 - dt);
				dcanvas.style.cursor = "grabbing";
			}
		}
	});
	listen(window, "mouseup", (e) => {
		var d = dragging;
		if (!d) return;
		dragging = null;
		var p = userPoint(e);
		if (d.kind === "select" && d.x !== undefined && Math.abs(d.x - d.x0) >= 2)
			setWindow(timeOfOv(Math.min(d.x, d.x0)), timeOfOv(Math.max(d.x, d.x0)));
		else if (d.kind === "pan" && !d.moved && e.target === dcanvas)
			select(span_at(p[0], p[1]));
		ocanvas.style.cursor = cursors[ovAction(p[0])];
		dcanvas.style.cursor = "";
		redraw();
	});
	listen(dcanvas, "dblclick", (e) => {
		var p = userPoint(e), i = span_at(p[0], p[1]);
		if (i >= 0) setWindow(S[i], E[i]);
	});
	listen(dcanvas, "mouseleave", () => { if (!dragging) setTip(-1); });
	/* For tests and embedding pages: state, positions, and the actions. */
	svg.timeline = {
		window: () => [W0, W1], total: TOTAL, setWindow: setWindow, reset: reset,
		search: search, resetSearch: resetSearch, drawNow: draw,
		select: (name) => select(S.findIndex((x, i) => names[NM[i]] === name)),
		selected: () => selected < 0 ? null : names[NM[selected]],
		tooltip: tipText,
		panel: () => panel.map((p) => p.textContent),
		matched: () => matched.classList.contains("hide") ? "" : matched.textContent,
		/* Screen points: the middle of a span in the detail view; a time in the overview. */
		spanPoint: (name) => {
			var i = S.findIndex((x, j) => names[NM[j]] === name), b = i < 0 ? null : spanBox(i);
			if (!b) return null;
			var m = svg.getScreenCTM();
			return [m.e + (b.x + b.w / 2) * m.a, m.f + (b.y + b.h / 2) * m.d];
		},
		ovPoint: (t) => {
			var m = svg.getScreenCTM();
			return [m.e + (XPAD + t * (width - 2 * XPAD) / TOTAL) * m.a, m.f + (ovy + AXIS + ovh / 2) * m.d];
		},
		detailPoint: (t, row) => {
			var m = svg.getScreenCTM();
			return [m.e + (XPAD + (t - W0) * (width - 2 * XPAD) / (W1 - W0)) * m.a,
				m.f + (dty + AXIS + row * fh + fh / 2) * m.d];
		},
		count: S.length
	};
}
start();
