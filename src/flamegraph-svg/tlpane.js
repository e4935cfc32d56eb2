/*
 * flamegraph-svg timeline: the detail pane of the selected span, below
 * the toolbar; after ui.js, before timeline.js (whose arrays it reads).
 *
 * Contract:
 *   paneInit(y)    make the pane, hidden, its top at y; the SVG's height
 *                  is y while the pane is hidden
 *   paneShow(i)    fill it for span i and grow the SVG to hold it
 *   paneHide()     hide it and shrink the SVG back
 *   paneLines()    its text, a string per line (for tests)
 *   paneFit()      the SVG as tall as the pane and, under it, the
 *                  samples' flame graph (spanflame.js's sfPlace) need
 *   kidsOf(i)      span i's children, in time order (built on first use)
 *   selfTime(i)    span i's duration less the union of its children's
 *   critPath(i)    [span, from, to, ...]: the segments of i's critical
 *                  path, in time order
 *   textRegion(label, f)  a region of text as wide as the graph, the
 *                  pane's and spanflame.js's samples line
 *
 * The pane is HTML in a foreignObject: its parents are buttons, so a
 * keyboard reaches them with Tab, and every name or value from the input
 * goes in with textContent, never as markup.
 */
/* A region of text as wide as the graph, for the caller to place: its
 * foreignObject (height 0 until filled) and its div, named label for
 * screen readers, in CSS font f. */
function textRegion(label, f) {
	var fo = el("foreignObject", svg), d = el("div", fo, "font:" + f + ";line-height:1.5;" +
		"border-top:1px solid #ccc;padding:4px 0;white-space:pre-wrap;overflow-wrap:anywhere");
	setAttr(fo, "x", XPAD);
	setAttr(fo, "width", width - 2 * XPAD);
	setAttr(fo, "height", 0);
	setAttr(d, "role", "region");
	setAttr(d, "aria-label", label);
	return [fo, d];
}
var pfo, pane, paneY = 0, paneH = 0, kidA = null, kidL = null;

function paneInit(y) {
	paneY = y;
	var r = textRegion("Selected span", fontsize + "px " + font);
	pfo = r[0];
	pane = r[1];
	setAttr(pfo, "y", y);
	setAttr(pane, "tabindex", "-1");
	paneFit();
}

function paneFit() { setHeight(sfPlace(paneY + paneH)); }

/* The SVG as tall as h user units. */
function setHeight(h) {
	setAttr(svg, "height", h);
	setAttr(svg, "viewBox", "0 0 " + width + " " + h);
}

/* A line of the pane, its parts text or [label, action] buttons. */
function paneLine(parts, style) {
	var d = el("div", pane, style);
	parts.forEach((p) => {
		if (typeof p === "string") return d.appendChild(document.createTextNode(p));
		var b = el("button", d, "font:inherit;margin:0 2px;padding:0 4px;cursor:pointer", p[0]);
		b.addEventListener("click", (e) => { e.stopPropagation(); p[1](); });
	});
	return d;
}

function paneShow(i) {
	pane.textContent = "";
	var kids = kidsOf(i), chain = [];
	for (var p = PA[i], guard = 0; p >= 0 && guard < S.length; p = PA[p], guard++) chain.unshift(p);
	paneLine(["Selected: " + names[NM[i]] + (openSpans.has(i) ? " (open)" : ""), ["Zoom", () => setWindow(S[i], E[i])],
		["Close", () => select(-1)]], "font-weight:bold");
	paneLine(["Start: +" + fmt(S[i]) + "   Duration: " + fmt(DU[i]) + "   Self: " + fmt(selfTime(i)) +
		"   End: +" + fmt(E[i])]);
	paneLine(["Track: " + tracks[TR[i]] + "   Children: " + kids.length]);
	/* a span profile's: how much the flame graph below stands on */
	var sc = sfCount(i);
	if (sc) paneLine(["Samples: " + sc[0] + " (" + sc[1] + " in the span itself, " + (sc[0] - sc[1]) + " in its children)"]);
	paneLine(["Parents:"].concat(chain.length ? chain.map((q) => [names[NM[q]], () => select(q)]) : [" none"]));
	var props = propsOf(i);
	if (props.length) paneLine(["Properties: " + props.map((kv) => kv[0] + "=" + kv[1]).join("   ")]);
	var evs = eventsOf(i);
	if (evs.length) paneLine(["Events: " + evs.map((e) => noteKeys[EVK[e]] + " at +" + fmt(EVT[e] - S[i])).join("   ")]);
	var cp = critPath(i), nc = new Set();
	for (var n = 0; n < cp.length; n += 3) nc.add(cp[n]);
	paneLine(["Critical path: " + nc.size + " span" + (nc.size === 1 ? "" : "s") + " (drawn black)"]);
	pfo.classList.remove("hide");
	setAttr(pfo, "height", 1000);
	var h = pane.getBoundingClientRect().height / (svg.getScreenCTM() || { a: 1 }).a + 4;
	setAttr(pfo, "height", h);
	paneH = h;
	paneFit();
}

function paneHide() {
	pane.textContent = "";
	setAttr(pfo, "height", 0);
	paneH = 0;
	paneFit();
}

/* Buttons' text in brackets: "Parents: [main] [exec]". */
function paneLines() {
	return Array.from(pane.children).map((d) => Array.from(d.childNodes).map((c) =>
		c.localName === "button" ? " [" + c.textContent + "]" : c.textContent).join(""));
}

/* Children lists, in one array, each list in position (time) order. */
function kidsOf(i) {
	if (!kidL) {
		var n = S.length;
		kidA = new Uint32Array(n + 1);
		for (var j = 0; j < n; j++) if (PA[j] >= 0) kidA[PA[j] + 1]++;
		for (j = 0; j < n; j++) kidA[j + 1] += kidA[j];
		var fill = kidA.slice(0, n);
		kidL = new Uint32Array(kidA[n]);
		for (j = 0; j < n; j++) if (PA[j] >= 0) kidL[fill[PA[j]]++] = j;
		/* Rows come one after another: sort each list by start. */
		for (j = 0; j < n; j++)
			if (kidA[j + 1] - kidA[j] > 1) kidL.subarray(kidA[j], kidA[j + 1]).sort((a, b) => S[a] - S[b]);
	}
	return Array.from(kidL.subarray(kidA[i], kidA[i + 1]));
}

function selfTime(i) {
	var busy = 0, at = S[i];
	kidsOf(i).forEach((k) => {
		var a = Math.max(S[k], at), b = Math.min(E[k], E[i]);
		if (b > a) { busy += b - a; at = b; }
	});
	return DU[i] - busy;
}

/*
 * Jaeger's critical path: from the span's end back to its start, the
 * child that ended last before the point reached is on the path (and
 * so, recursively, its own), the point moves back to that child's start,
 * and the time between children is the span's own.  A stack, not
 * recursion: a chain of spans may be deeper than the script's stack.
 * The segments come back in time order.
 */
function critPath(root) {
	var out = [], stack = [[root, E[root]]];
	while (stack.length) {
		var top = stack.pop(), i = top[0], t = Math.min(E[i], top[1]);
		var kids = kidsOf(i).filter((k) => S[k] < t).sort((a, b) => E[b] - E[a]), todo = [];
		for (var n = 0; n < kids.length && t > S[i]; n++) {
			var k = kids[n];
			if (S[k] >= t) continue;
			var ke = Math.min(E[k], t);
			if (ke < t) out.push(i, ke, t);
			todo.push([k, ke]);
			t = Math.max(S[k], S[i]);
		}
		if (t > S[i]) out.push(i, S[i], t);
		while (todo.length) stack.push(todo.pop());
	}
	var segs = [];
	for (var n = 0; n < out.length; n += 3) segs.push(out.slice(n, n + 3));
	segs.sort((a, b) => a[1] - b[1]);
	return [].concat.apply([], segs);
}
