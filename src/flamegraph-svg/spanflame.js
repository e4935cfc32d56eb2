/*
 * spanflame: a span profile's flame graphs in the timeline, under the
 * detail pane; after tlpane.js, before timeline.js (whose arrays it
 * reads).
 *
 * The samples (timeline.h: in time order, each its span, track, stack
 * and weight) are summed for a source the user picks: a span, its
 * samples and its descendants' (a click), or with "Self only" those
 * whose innermost span it is; every span of the selected one's name,
 * summed the same way; or a window of time (a drag in the overview), of
 * every track or of the selected span's.  The line above the graph says
 * which, and how many samples that is: at 999 Hz a 2 ms span holds two,
 * which are not a profile.
 *
 * The graph is flamegraph-svg's own: timeline.c writes the flame graph's
 * script as the function flameGraph, run once here on an <svg> made
 * for it, from stacks (xform.js's loadStacks), an icicle whose depth
 * follows its stacks; each new source gives it new stacks, and it keeps
 * its view, search and transforms.  Its state in the URL has the prefix
 * "f." (ui.js), the source's is ?fg=.
 *
 * Two sources compare: "Set as A" keeps the one shown (with its Self
 * only) as A, and "Compare with A" shows, in the graph's place, the
 * differential flame graph of A (before) against the source shown (B,
 * after), which spandiff.js makes; ?fa= is A (sfKey's form) and ?fc=1
 * the comparison.
 *
 * Contract:
 *   sfLoad()        the samples from D, after timeline.js's load()
 *   sfSpan(i)       span i selected (-1: none): its samples, if the
 *                   source is a span's or a name's
 *   sfWindow(a, b)  the samples of the window [a, b), every track
 *   sfCount(i)      [samples in span i and its descendants, in i alone]
 *   sfPlace(y)      put the line and the graph at y; returns the y
 *                   under them (tlpane.js's paneFit)
 *   sfState(p), sfRestore(p)   the source in URLSearchParams p
 *   sfFrame()       an empty <svg> for a flame graph, under the line
 * Names from the input go in as text (textContent), never as markup.
 */
var SF = null, sfSrc = null, sfSelf = false, sfTrackOnly = false, sfFo, sfLine, sfSvg = null, sfY = 0,
	sfPre = null, sfSize, sfPaths = [], sfA = null, sfCmp = false;

function sfLoad() {
	var d = D, n = d.stime ? d.stime.length : 0, t = 0;
	if (!n) return;
	SF = {
		T: new Float64Array(n), SP: new Int32Array(n), TR: new Uint32Array(d.strack),
		ST: new Uint32Array(d.sstack), W: typeof d.sweight === "number" ? null : new Float64Array(d.sweight),
		w: d.sweight, node: d.snode, fnames: d.fnames.concat(["all"]), n: n
	};
	for (var i = 0; i < n; i++) {
		t += d.stime[i];
		SF.T[i] = t;
		SF.SP[i] = d.sspan[i] - 1;
	}
	var r = textRegion("Samples", fontsize + "px " + font);
	sfFo = r[0];
	sfLine = r[1];
}

/*
 * Each span's place in a walk of the spans as a tree, parents before
 * their children: span j is in i's subtree when its place is within
 * sfSize[i] of i's.  Once; a stack, not recursion, for deep chains.
 */
function sfTree() {
	if (sfPre) return;
	var n = S.length, at = 0, st = [];
	sfPre = new Int32Array(n).fill(-1);
	sfSize = new Int32Array(n);
	for (var r = 0; r < n; r++) {
		if (PA[r] >= 0 || sfPre[r] >= 0) continue;
		st.push(r, 0);
		while (st.length) {
			var exit = st.pop(), i = st.pop();
			if (exit) { sfSize[i] = at - sfPre[i]; continue; }
			sfPre[i] = at++;
			st.push(i, 1);
			var kids = kidsOf(i);
			for (var k = kids.length; k--; ) if (sfPre[kids[k]] < 0) st.push(kids[k], 0);
		}
	}
}
function sfUnder(j, i) { return sfPre[j] >= sfPre[i] && sfPre[j] < sfPre[i] + sfSize[i]; }

/* Whether the source takes only its spans' own samples: A keeps its own. */
function sfSelfOf(src) { return src.self !== undefined ? src.self : sfSelf; }
/* Which samples the source takes: a test of sample s. */
function sfTest(src) {
	var P = SF.SP, self = sfSelfOf(src);
	sfTree();
	if (src.k === "span") return self ? (s) => P[s] === src.i : (s) => P[s] >= 0 && sfUnder(P[s], src.i);
	if (src.k === "name") {
		if (self) return (s) => P[s] >= 0 && NM[P[s]] === src.x;
		/* a span in one of the name: itself or an ancestor has it, parents first */
		var inName = new Uint8Array(S.length), ord = new Int32Array(S.length);
		for (var j = 0; j < S.length; j++) ord[sfPre[j]] = j;
		ord.forEach((j) => { inName[j] = NM[j] === src.x || (PA[j] >= 0 && inName[PA[j]]) ? 1 : 0; });
		return (s) => P[s] >= 0 && inName[P[s]] === 1;
	}
	var tr = src.track;
	return (s) => SF.T[s] >= src.a && SF.T[s] < src.b && (tr < 0 || SF.TR[s] === tr);
}
/* The names' indexes of a stack's node, root first, made once. */
function sfPath(k) {
	if (!sfPaths[k]) {
		var up = SF.node[2 * k];
		sfPaths[k] = (up ? sfPath(up - 1) : []).concat([SF.node[2 * k + 1]]);
	}
	return sfPaths[k];
}
/* The samples the source takes, summed by stack: { stacks, count, weight }. */
function sfSum(src) {
	var test = sfTest(src), by = new Map(), count = 0, weight = 0, a = 0, b = SF.n;
	/* a window's samples are a run of the time order */
	if (src.k === "window") {
		a = sfFirst(src.a);
		b = sfFirst(src.b);
	}
	for (var s = a; s < b; s++) {
		if (!test(s)) continue;
		var w = SF.W ? SF.W[s] : SF.w;
		count++;
		weight += w;
		by.set(SF.ST[s], (by.get(SF.ST[s]) || 0) + w);
	}
	var stacks = [];
	by.forEach((n, k) => stacks.push({ s: sfPath(k), n: n }));
	return { stacks: stacks, count: count, weight: weight };
}
/* The first sample at t or after. */
function sfFirst(t) {
	var lo = 0, hi = SF.n;
	while (lo < hi) { var mid = (lo + hi) >> 1; if (SF.T[mid] < t) lo = mid + 1; else hi = mid; }
	return lo;
}
function sfCount(i) {
	if (!SF) return null;
	var all = 0, self = 0;
	sfTree();
	for (var s = 0; s < SF.n; s++) {
		var j = SF.SP[s];
		if (j < 0 || !sfUnder(j, i)) continue;
		all++;
		if (j === i) self++;
	}
	return [all, self];
}

function sfSpan(i) {
	if (!SF) return;
	if (i < 0) { if (sfSrc && sfSrc.k !== "window") sfShow(null); return; }
	sfShow(sfSrc && sfSrc.k === "name" && sfSrc.x === NM[i] ? sfSrc : { k: "span", i: i });
}
function sfWindow(a, b) {
	if (SF) sfShow({ k: "window", a: a, b: b, track: sfTrackOnly && selected >= 0 ? TR[selected] : -1 });
}

/* What the source is, in words; its buttons. */
function sfWhat(src) {
	var self = sfSelfOf(src);
	if (src.k === "span") return "span " + names[NM[src.i]] + (self ? ", itself only" : ", its children included");
	if (src.k === "name") return "every span " + names[src.x] + (self ? ", each itself only" : ", children included");
	return "+" + fmt(src.a) + " to +" + fmt(src.b) + ", " + (src.track < 0 ? "every track" : "track " + tracks[src.track]);
}
function sfButton(text, on, f) {
	var b = el("button", sfLine, "font:inherit;margin:0 2px;padding:0 4px;cursor:pointer" + (on ? ";font-weight:bold" : ""), text);
	setAttr(b, "aria-pressed", !!on);
	listen(b, "click", (e) => { e.stopPropagation(); active = true; f(); });
}

/*
 * Show the source's flame graph (src null: none): the line, then the
 * graph, made on first use, given the stacks after.  With no samples,
 * no graph: an empty one would be a root of zero width.
 */
function sfShow(src) {
	sfSrc = src;
	sfLine.textContent = "";
	sdHide();
	if (!src) {
		if (sfSvg) sfSvg.style.display = "none";
		saveState();
		return paneFit();
	}
	var sum = sfSum(src), few = sum.count < 20;
	el("span", sfLine, "font-weight:bold", "Samples: " + sum.count + (sum.count ? " (" + fmt(sum.weight) + ")" : "") + " in " + sfWhat(src));
	if (few && sum.count) el("span", sfLine, "color:#b00", "  too few to read as a profile");
	el("span", sfLine, "", "  ");
	if (src.k !== "window") {
		var i = src.k === "span" ? src.i : selected;
		sfButton("Self only", sfSelf, () => { sfSelf = !sfSelf; sfShow(sfSrc); });
		if (i >= 0) sfButton("Every " + names[NM[i]], src.k === "name", () => sfShow(src.k === "name" ? { k: "span", i: i } : { k: "name", x: NM[i] }));
	} else if (selected >= 0)
		sfButton("Track " + tracks[TR[selected]] + " only", src.track >= 0, () => { sfTrackOnly = src.track < 0; sfWindow(src.a, src.b); });
	var isA = sfA !== null && sfKey(sfA) === sfKey(src), cmp = sfCmp && sfA !== null && !isA;
	sfButton("Set as A", isA, () => { sfA = Object.assign({}, sfSrc, { self: sfSelf }); sfShow(sfSrc); });
	if (sfA && !isA) sfButton("Compare with A", cmp, () => { sfCmp = !cmp; sfShow(sfSrc); });
	sfButton("Close", false, () => sfShow(null));
	if (cmp) {
		var sumA = sfSum(sfA);
		el("div", sfLine, "", "A, before: " + sumA.count + " samples in " + sfWhat(sfA) + ".  B, after: " + sum.count +
			" samples in " + sfWhat(src) + ".  Red: a larger share of B's samples than of A's, green: smaller.");
		if (sfSvg) sfSvg.style.display = "none";
		if (sum.count || sumA.count) sdShow(sumA.stacks, sum.stacks);
	} else if (!sum.count) {
		if (sfSvg) sfSvg.style.display = "none";
	} else if (!sfSvg) sfMake(sum.stacks);
	else {
		sfSvg.style.display = "";
		sfSvg.flamegraph.stacks(sum.stacks);
	}
	saveState();
	paneFit();
}

/* The flame graph's <svg>, and the flame graph's script on it. */
function sfMake(stacks) {
	sfSvg = sfFrame();
	flameGraph({
		parentNode: sfSvg, prefix: "f.", data: {
			names: SF.fnames, stacks: stacks, total: 0, unit: 1, factor: 1, negate: 0, fh: fh - 1,
			label: 3 + (fh - 1) / 2, nametype: "Function:", countname: "ns", rowy: [fontsize, fh], attrs: {}
		}
	});
}
/*
 * What flame.js and views.js find in a file (title, the static frames'
 * group, details line, buttons), empty, at the timeline's width.
 */
function sfFrame() {
	var fs = fontsize, H = fs + fh + fs * 2 + 10, g = el("svg", svg);
	[["x", 0], ["width", width], ["height", H], ["viewBox", "0 0 " + width + " " + H],
		["data-fontsize", fs], ["data-fontwidth", svg.getAttribute("data-fontwidth")]].forEach((a) => setAttr(g, a[0], a[1]));
	[["t", width / 2, fs * 2, ""], ["d", XPAD, H - fs - 5, " "], ["u hide", XPAD, fs * 2, "Reset Zoom"],
		["s", width - XPAD - 100, fs * 2, "Search"], ["ic", width - XPAD - 16, fs * 2, "ic"],
		["m hide", width - XPAD - 100, H - fs - 5, " "]].forEach((a) => {
		var t = el("text", g, "", a[3]);
		setAttr(t, "class", a[0]);
		setAttr(t, "x", a[1]);
		setAttr(t, "y", a[2]);
	});
	el("g", g).setAttribute("class", "f");
	/* the timeline's height follows the graph's, which its views change */
	new MutationObserver(paneFit).observe(g, { attributes: true, attributeFilter: ["height", "style"] });
	return g;
}

function sfPlace(y) {
	if (!SF) return y;
	sfY = y;
	setAttr(sfFo, "y", y);
	if (!sfSrc) { setAttr(sfFo, "height", 0); return y; }
	setAttr(sfFo, "height", 1000);
	var h = sfLine.getBoundingClientRect().height / (svg.getScreenCTM() || { a: 1 }).a + 4;
	setAttr(sfFo, "height", h);
	var g = [sfSvg, sdSvg].find((e) => e && e.style.display !== "none");
	if (!g) return y + h;
	setAttr(g, "y", y + h);
	return y + h + +g.getAttribute("height");
}

/*
 * A source as text, for ?fa= and to tell two apart: span:INDEX or
 * name:NAME (span-self:, name-self: with Self only), win:A-B (ns) or
 * track:TRACK:A-B.
 */
function sfKey(src) {
	var self = sfSelfOf(src) ? "-self:" : ":";
	if (src.k === "span") return "span" + self + src.i;
	if (src.k === "name") return "name" + self + names[src.x];
	return (src.track < 0 ? "win:" : "track:" + src.track + ":") + Math.round(src.a) + "-" + Math.round(src.b);
}
function sfUnkey(v) {
	var m = /^(span|name)(-self)?:([^]*)$/.exec(v), w = /^(?:win|track:(\d+)):(\d+)-(\d+)$/.exec(v), src = null;
	if (m && m[1] === "span" && /^\d+$/.test(m[3]) && +m[3] < S.length) src = { k: "span", i: +m[3] };
	else if (m && m[1] === "name" && names.indexOf(m[3]) >= 0) src = { k: "name", x: names.indexOf(m[3]) };
	else if (w) return { k: "window", a: +w[2], b: +w[3], track: w[1] !== undefined && +w[1] < tracks.length ? +w[1] : -1, self: false };
	if (src) src.self = !!m[2];
	return src;
}

/* ?fg=: self, name, name-self (with ?sel=), or win:A-B or track:A-B (ns); ?fa=, ?fc=. */
function sfState(p) {
	["fg", "fa", "fc"].forEach((k) => p.delete(k));
	if (sfA) p.set("fa", sfKey(sfA));
	if (sfCmp) p.set("fc", 1);
	if (!sfSrc) return;
	if (sfSrc.k === "window") p.set("fg", (sfSrc.track < 0 ? "win:" : "track:") + Math.round(sfSrc.a) + "-" + Math.round(sfSrc.b));
	else if (sfSrc.k === "name" || sfSelf) p.set("fg", sfSrc.k === "name" ? (sfSelf ? "name-self" : "name") : "self");
}
function sfRestore(p) {
	var v = p.get("fg") || "", m = /^(win|track):(\d+)-(\d+)$/.exec(v);
	if (!SF) return;
	sfA = sfUnkey(p.get("fa") || "");
	sfCmp = p.get("fc") === "1";
	sfSelf = /self$/.test(v);
	if (m) { sfTrackOnly = m[1] === "track"; sfWindow(+m[2], +m[3]); }
	else if (/^name/.test(v) && selected >= 0) sfShow({ k: "name", x: NM[selected] });
	else if (selected >= 0) sfSpan(selected);
}
