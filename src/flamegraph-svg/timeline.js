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
 *
 * Over the spans of the detail view: lane labels where a band of rows
 * holds one track, event marks, flow arrows from parents on another
 * track, and the selected span's critical path; the pane below
 * (tlpane.js) tells the rest of the selected span, and under it a span
 * profile's flame graph (spanflame.js) shows what the code did in it,
 * or in a window dragged out in the overview.  Colour is by name,
 * as in flame graphs, or by track ("By track").
 */
var PROMPT = "Search span names and properties, key=value (regexp allowed)";
var tlv = q(".tlv");
if (!tlv) return;
var TOTAL = +tlv.getAttribute("data-total"), ROWS = +tlv.getAttribute("data-rows"),
	fh = +tlv.getAttribute("data-fh"), AXIS = +tlv.getAttribute("data-axis"),
	ov = tlv.getAttribute("data-ov").split(" "), ovy = +ov[0], ovh = +ov[1],
	dty = +tlv.getAttribute("data-dt");
var names, tracks, colors, ncolors, S, DU, E, NM, TR, PA, RW, rowA, rowB, openSpans,
	hit = null, hitPre = null;
/* Notes: property lists by span; events by time, each its span, time, name. */
var noteKeys, props, evBySpan, EVP, EVT, EVK, flowList, rowTrack;
var byTrack = false, showFlows = false, crit = [];
var cbBtn = q(".cb"), flBtn = q(".fl");
var W0 = 0, W1 = TOTAL, minW = Math.min(TOTAL, Math.max(1, TOTAL * 1e-7));
var selected = -1, hover = -1, mouseX = -1, dragging = null;
var ofo, ocanvas, octx, off, offctx, dfo, dcanvas, ctx, tip, outline, font;

/* The JSON into typed arrays; starts are deltas within a row. */
function load() {
	var d = D, n = d.dur.length, i = 0;
	names = d.names; tracks = d.tracks; colors = d.colors;
	S = new Float64Array(n); DU = new Float64Array(d.dur); E = new Float64Array(n);
	NM = new Uint32Array(d.name); TR = new Uint32Array(n); PA = new Int32Array(n);
	RW = new Uint32Array(n);
	rowA = new Uint32Array(ROWS); rowB = new Uint32Array(ROWS);
	/* Tracks once a row where the row has one; parents 1 are the span of
	 * the row above that holds the start (see timeline.c): as the starts
	 * ascend, so does that span, found by walking the row above once
	 * (firstEnd for each was a tenth of opening 10M spans). */
	for (var r = 0, m = 0; r < ROWS; r++) {
		var t = 0, rt = d.rowtrack[r], up = r > 0 ? rowA[r - 1] : 0, upEnd = r > 0 ? rowB[r - 1] : 0;
		rowA[r] = i;
		for (var k = d.rowlen[r] || 0; k > 0; k--, i++) {
			t += d.start[i];
			S[i] = t;
			E[i] = t + DU[i];
			var p = d.parent[i];
			if (p === 1) while (up < upEnd && E[up] <= t) up++;
			PA[i] = p === 0 ? -1 : p === 1 ? up : p - 2;
			TR[i] = rt >= 0 ? rt : d.track[m++];
			RW[i] = r;
		}
		rowB[r] = i;
	}
	openSpans = new Set(d.open);
	ncolors = d.ncolors;
	noteKeys = d.keys;
	props = new Map();
	var addProp = (a, num) => {
		for (var n = 0; n < a.length; n += 3) {
			if (!props.has(a[n])) props.set(a[n], []);
			props.get(a[n]).push([noteKeys[a[n + 1]], num ? a[n + 2] : d.vals[a[n + 2]]]);
		}
	};
	addProp(d.sprops, false);
	addProp(d.iprops, true);
	var ev = d.events, ne = ev.length / 3, ord = [];
	for (i = 0; i < ne; i++) ord.push(i);
	ord.sort((a, b) => (S[ev[3 * a]] + ev[3 * a + 2]) - (S[ev[3 * b]] + ev[3 * b + 2]));
	EVP = new Uint32Array(ne); EVT = new Float64Array(ne); EVK = new Uint32Array(ne);
	evBySpan = new Map();
	ord.forEach((o, k) => {
		EVP[k] = ev[3 * o]; EVT[k] = S[EVP[k]] + ev[3 * o + 2]; EVK[k] = ev[3 * o + 1];
		if (!evBySpan.has(EVP[k])) evBySpan.set(EVP[k], []);
		evBySpan.get(EVP[k]).push(k);
	});
	/* Work handed to another thread: a parent on another track. */
	flowList = [];
	for (i = 0; i < n; i++) if (PA[i] >= 0 && TR[PA[i]] !== TR[i]) flowList.push(i);
	showFlows = flowList.length < 200;
	/* A row's track if all its spans share one, else -1: lanes to label. */
	rowTrack = new Int32Array(d.rowtrack);
}
function propsOf(i) { return props.get(i) || []; }
function eventsOf(i) { return evBySpan.get(i) || []; }
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
/* In the largest unit v reaches, with the decimals the step needs: ticks
 * 100 µs apart read "82.1 ms", "82.2 ms".  As timeline.c's fmt_tick. */
function fmtTick(v, step) {
	if (v === 0) return "0";
	var u = unitOf(v) || [1, "ns"], d = 0;
	for (var x = step / u[0]; d < 9 && x - Math.floor(x + 1e-9) > 1e-6; d++) x *= 10;
	return (v / u[0]).toFixed(d) + " " + u[1];
}
function tickStep(span, px) {
	var raw = span * 100 / px, p = 1;
	while (p * 10 <= raw) p *= 10;
	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}
function colorOf(i) { return byTrack ? colors[TR[i] % colors.length] : ncolors[NM[i]]; }

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
				box(hit && hit[i] ? MATCH : colorOf(i), x, w, y);
				if (wide) out.push(i, x, w, y);
				i++;
				continue;
			}
			/* A run: every span that ends within this device pixel. */
			var j = firstEnd(i + 1, b, t0 + (x + dev - x0) / k);
			var inRun = hitPre && hitPre[j] - hitPre[i] > 0;
			var xe = Math.min(x0 + (E[j - 1] - t0) * k, x0 + ww);
			box(inRun ? MATCH : colorOf(i), x, Math.max(xe - x, dev), y);
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
	drawCrit(g, y0, k, r0, r1);
	drawEvents(g, y0, k, r0, r1, dev);
	if (showFlows) drawFlows(g, y0, k, r0, r1, dev);
	drawLanes(g, y0, r0, r1);
	g.restore();
	if (selected >= 0) {
		var sb = spanBox(selected);
		setAttr(outline, "width", sb ? Math.max(sb.w, 1).toFixed(1) : 0);
		if (sb) { setAttr(outline, "x", sb.x.toFixed(1)); setAttr(outline, "y", sb.y); }
	} else setAttr(outline, "width", 0);
}

/* The selected span's critical path: a black bar along the foot of its
 * segments, under the labels. */
function drawCrit(g, y0, k, r0, r1) {
	g.fillStyle = "#000";
	for (var n = 0; n < crit.length; n += 3) {
		var r = RW[crit[n]], a = Math.max(crit[n + 1], W0), b = Math.min(crit[n + 2], W1);
		if (r < r0 || r >= r1 || b < a) continue;
		g.fillRect(XPAD + (a - W0) * k, y0 + (r + 1) * fh - 4, Math.max((b - a) * k, 1), 3);
	}
}

/* Events: a dark tick at the foot of their span, one per row and pixel. */
function drawEvents(g, y0, k, r0, r1, dev) {
	var lo = 0, hi = EVT.length, seen = new Set();
	while (lo < hi) { var mid = (lo + hi) >> 1; if (EVT[mid] < W0) lo = mid + 1; else hi = mid; }
	g.fillStyle = "#222";
	for (var e = lo; e < EVT.length && EVT[e] <= W1; e++) {
		var r = RW[EVP[e]], x = XPAD + (EVT[e] - W0) * k, key = r * 1e6 + Math.round(x / dev);
		if (r < r0 || r >= r1 || seen.has(key)) continue;
		seen.add(key);
		var y = y0 + (r + 1) * fh - 1;
		g.beginPath();
		g.moveTo(x, y - 5);
		g.lineTo(x - 3, y);
		g.lineTo(x + 3, y);
		g.fill();
	}
}

/* Arrows from a parent's row down (or up) to a child on another track,
 * at the child's start: where the work was handed over. */
function drawFlows(g, y0, k, r0, r1, dev) {
	var seen = new Set();
	g.strokeStyle = g.fillStyle = "#1e6fff";
	g.lineWidth = 1;
	flowList.forEach((i) => {
		var pr = RW[PA[i]], r = RW[i], x = XPAD + (S[i] - W0) * k;
		if (S[i] < W0 || S[i] > W1 || Math.max(pr, r) < r0 || Math.min(pr, r) >= r1) return;
		var key = pr * 1e9 + r * 1e4 + Math.round(x / dev);
		if (seen.has(key)) return;
		seen.add(key);
		var down = r > pr, ya = y0 + pr * fh + (down ? fh - 1 : 0), yb = y0 + r * fh + (down ? 0 : fh - 1);
		g.beginPath();
		g.moveTo(x, ya);
		g.lineTo(x, yb);
		g.stroke();
		g.beginPath();
		g.moveTo(x, yb);
		g.lineTo(x - 3, yb + (down ? -5 : 5));
		g.lineTo(x + 3, yb + (down ? -5 : 5));
		g.fill();
	});
}

/* Each band of rows of one track, labelled at its top right, clear of
 * the spans' own labels, which start at the left. */
function drawLanes(g, y0, r0, r1) {
	if (tracks.length < 2) return;
	g.font = (fontsize * 0.8) + "px " + font;
	for (var r = r0; r < r1; r++) {
		var t = rowTrack[r];
		if (t < 0 || (r > 0 && rowTrack[r - 1] === t)) continue;
		var y = y0 + r * fh, label = tracks[t], w = g.measureText(label).width + 6;
		if (r > 0) { g.fillStyle = "#999"; g.fillRect(XPAD, y - 0.5, width - 2 * XPAD, 0.5); }
		g.fillStyle = "rgba(255,255,255,0.85)";
		g.fillRect(width - XPAD - w, y, w, fontsize);
		g.fillStyle = "#333";
		g.fillText(label, width - XPAD - w + 3, y + fontsize * 0.8);
	}
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

/* Click: the span selected, outlined, its critical path drawn, its
 * details in the pane; kept in the URL (?sel=, a position in the data). */
function select(i) {
	selected = i >= 0 && i < S.length ? i : -1;
	crit = selected < 0 ? [] : critPath(selected);
	if (selected < 0) paneHide();
	else paneShow(selected);
	sfSpan(selected);
	redraw();
	saveState();
}

/* Keys on the selection: up to the parent, down to the first child, left
 * and right to the row's neighbours, Enter to zoom to it. */
function selectKey(e) {
	var i = selected, to = -1;
	if (i < 0 || e.ctrlKey || e.altKey || e.metaKey) return;
	if (e.key === "ArrowUp") to = PA[i];
	else if (e.key === "ArrowDown") to = kidsOf(i).length ? kidsOf(i)[0] : -1;
	else if (e.key === "ArrowLeft") to = i > rowA[RW[i]] ? i - 1 : -1;
	else if (e.key === "ArrowRight") to = i + 1 < rowB[RW[i]] ? i + 1 : -1;
	else if (e.key === "Enter" && !(e.target && e.target.localName === "button")) { e.preventDefault(); return setWindow(S[i], E[i]); }
	else return;
	e.preventDefault();
	if (to < 0) return;
	if (E[to] < W0 || S[to] > W1) setWindow(S[to] - (W1 - W0) / 2 + DU[to] / 2, S[to] + (W1 - W0) / 2 + DU[to] / 2);
	select(to);
}

function setColors(track) {
	byTrack = track;
	cbBtn.classList.toggle("on", byTrack);
	q(".lg").classList.toggle("hide", !byTrack);
	off.px = 0;
	redraw();
	saveState();
}
function setFlows(on) {
	showFlows = on;
	flBtn.classList.toggle("on", showFlows);
	redraw();
	saveState();
}

/*
 * Search: spans whose name matches, or one of whose properties does as
 * "key=value"; counted once, and the time of those not inside a match.
 */
function match(re) {
	var hitName = new Uint8Array(names.length), n = S.length, count = 0, time = 0;
	names.forEach((nm, i) => { hitName[i] = re.test(nm) ? 1 : 0; });
	hit = new Uint8Array(n);
	for (var i = 0; i < n; i++) hit[i] = hitName[NM[i]];
	props.forEach((kvs, i) => {
		if (!hit[i] && kvs.some((kv) => re.test(kv[0] + "=" + kv[1]))) hit[i] = 1;
	});
	hitPre = new Uint32Array(n + 1);
	for (i = 0; i < n; i++) {
		var h = hit[i];
		hitPre[i + 1] = hitPre[i] + h;
		if (!h) continue;
		count++;
		var p = PA[i], inside = false;
		for (var guard = 0; p >= 0 && guard < n; p = PA[p], guard++)
			if (hit[p]) { inside = true; break; }
		if (!inside) time += DU[i];
	}
	off.px = 0;
	return "Matched: " + count + " span" + (count === 1 ? "" : "s") + ", " + fmt(time);
}
function unmatch() {
	hit = hitPre = null;
	off.px = 0;
}

/* The view in the URL: the window ?t0=&t1= (ns), the selection ?sel=,
 * colour by track ?c=track, flows ?flows=1 or 0 against the default. */
function view(p) {
	["t0", "t1", "sel", "c", "flows"].forEach((k) => p.delete(k));
	if (W0 > 0 || W1 < TOTAL) { p.set("t0", Math.round(W0)); p.set("t1", Math.round(W1)); }
	if (selected >= 0) p.set("sel", selected);
	if (byTrack) p.set("c", "track");
	if (showFlows !== flowList.length < 200) p.set("flows", showFlows ? 1 : 0);
	sfState(p);
}
function restore(p) {
	var a = p.get("t0"), b = p.get("t1"), sel = p.get("sel");
	if (a !== null && b !== null && isFinite(+a) && isFinite(+b) && +b > +a) setWindow(+a, +b);
	if (p.get("c") === "track") setColors(true);
	if (p.get("flows") !== null) setFlows(p.get("flows") === "1");
	if (sel !== null && /^[0-9]+$/.test(sel)) select(+sel);
	sfRestore(p);
}

/* Overview: which drag the pointer at x would start. */
function ovAction(x, shift) {
	var k = (width - 2 * XPAD) / TOTAL, xl = XPAD + W0 * k, xr = XPAD + W1 * k;
	/* A window of the whole trace cannot move: a drag in it selects. */
	if (shift || (W0 <= 0 && W1 >= TOTAL && x > xl + 4 && x < xr - 4)) return "select";
	if (Math.abs(x - xl) <= 4 && Math.abs(x - xr) > Math.abs(x - xl)) return "left";
	if (Math.abs(x - xr) <= 4) return "right";
	if (x > xl && x < xr) return "move";
	return "select";
}
var cursors = { left: "ew-resize", right: "ew-resize", move: "grab", select: "crosshair" };

/*
 * The timeline as wide as the window (ui.js's fitWindow), as the flame
 * graph is: every drawing reads width, so what moves is what the file
 * placed, the title in the middle and the buttons at the right, and the
 * pane and the samples' graphs, which follow.  The picture without
 * scripts keeps the file's width.
 */
function fitWidth() {
	var was = width;
	if (!fitWindow()) return;
	setAttr(svg, "width", width);
	setAttr(q(".t"), "x", width / 2);
	[searchBtn, icBtn, matched, cbBtn, flBtn].forEach((b) => { if (b) setAttr(b, "x", +b.getAttribute("x") + width - was); });
	setAttr(q(".ovb"), "width", width - 2 * XPAD);
	[pfo, sfFo].forEach((fo) => { if (fo) setAttr(fo, "width", width - 2 * XPAD); });
	if (selected >= 0) paneShow(selected);
	else paneFit();
	[sfSvg, sdSvg].forEach((g) => { if (g) g.flamegraph.fit(); });
	off.px = 0;
	redraw();
}

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
	sfLoad();
	paneInit(vbox.height);
	fitWidth();
	flBtn.classList.toggle("on", showFlows);
	begin();
	listen(svg, "click", (e) => {
		if (e.target === cbBtn) setColors(!byTrack);
		else if (e.target === flBtn) setFlows(!showFlows);
	});
	listen(window, "keydown", (e) => { if (keysMine()) selectKey(e); });
	listen(window, "resize", () => { off.px = 0; fitWidth(); });

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
		dragging = { kind: ovAction(x, e.shiftKey), x0: x, w0: W0, w1: W1 };
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
		if (d.kind === "select" && d.x !== undefined && Math.abs(d.x - d.x0) >= 2) {
			setWindow(timeOfOv(Math.min(d.x, d.x0)), timeOfOv(Math.max(d.x, d.x0)));
			sfWindow(W0, W1);
		}
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
		panel: paneLines,
		selectAt: select,
		critical: () => { var a = []; for (var n = 0; n < crit.length; n += 3) a.push(names[NM[crit[n]]]); return a; },
		colorOf: (name) => colorOf(S.findIndex((x, i) => names[NM[i]] === name)),
		flows: () => showFlows,
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
		count: S.length,
		/* the samples' line, buttons in brackets, and their flame graph's <svg> (its .flamegraph) */
		samples: () => SF && sfSrc ? Array.from(sfLine.childNodes).map((c) => c.localName === "button" ? " [" + c.textContent + "]" : c.textContent).join("") : "",
		sampleGraph: () => sfSvg && sfSvg.style.display !== "none" ? sfSvg : null,
		/* the comparison's differential flame graph's <svg> (spandiff.js) */
		diffGraph: () => sdSvg && sdSvg.style.display !== "none" ? sdSvg : null
	};
}
start();
