/*
 * table: the function table (Pyroscope's ProfilerTable, pprof's top),
 * a view of flame.js's frames; after flame.js.
 *
 * One row per name: self (the frames' counts less their callees') and
 * total (the frames' counts, a frame inside one of the same name left
 * out, so a recursive function counts once per stack), as counts and
 * shares with a bar, and the number of frames (places).  Computed once,
 * when first shown, walking the frames as a tree (flame.js's tree()),
 * plus what scriptdata.c says the frames too narrow to be in the data add
 * (D.tfix: a name's index, its self and its total, each after the
 * names skipped), so that the numbers are stackcollapse --to=table's.
 *
 * HTML in a foreignObject, and only the rows inside the box and the
 * window are elements (RH units a row, redrawn on a scroll of either,
 * the window's by ui.js's redraw): opening or sorting
 * 20,000 names costs one sort and fifty rows, where a row per name costs
 * the browser a layout of all of them (a quarter of a second), and text,
 * focus and hostile names (textContent) come with HTML, which a canvas
 * would have to redo.
 *
 * Contract, for views.js:
 *   tableView(x, y, w, h)  show the table in that box; w = 0 hides it
 *   drawTable()            redraw the rows in view (after a search, a sort)
 *   stats()                the rows, by name index
 *   sortKey, sortDesc      the order: "self", "total" or "name"
 *   tableEl                the scrolling box, to focus
 *   COLS                   the columns' sort keys, the first the default
 * and it calls select(x) (views.js) when a row is chosen.
 *
 * A graph with fractional counts rounds the sums (fractions: frac.js).
 * A --diff graph's table has columns of its own (diffview.js sets COLS,
 * HEADS, sortKey, and the hooks rowText and cellOf).
 */
var COLS = ["self", "total", "name"], HEADS = { self: "Self", total: "Total", name: "Name" },
	RH = 18, tab = null, shown = [], shownBy = "", sortKey = COLS[0], sortDesc = true,
	tfo = null, tableEl, tbody, thead, cur = 0, fractions = null, colW = {}, rowW = 0;

/*
 * The rows of tab, one a name with fields' sums at 0, and add(row, f,
 * first) for each frame f under the root, callers before callees (kids(f)
 * gives those walked); first is true for the outermost frame of its name
 * on its stack, so that a recursive function's total counts once.
 */
function walk(fields, kids, add) {
	var open = new Int32Array(nm.length), st = [rootFrame, 0], f, k, i;
	tab = nm.map((name, x) => Object.assign({ name: name, x: x, places: 0 }, fields));
	while (st.length) {
		var exit = st.pop();
		f = st.pop();
		if (exit) { open[f.x]--; continue; }
		if (f !== rootFrame) {
			tab[f.x].places++;
			add(tab[f.x], f, !open[f.x]++);
			st.push(f, 1);
		}
		for (k = kids(f), i = k.length; i--; ) st.push(k[i], 0);
	}
}

function stats() {
	if (tab) return tab;
	if (D.diff) return diffStats();
	tree();
	/* (the frames left out are the file's, not a transform's) */
	var r, i, fix = !xf.length && D.tfix;
	walk({ self: 0, total: 0 }, (f) => f.kids, (r, f, first) => {
		r.self += f.kids.reduce((c, k) => c - k.n, f.n);
		if (first) r.total += f.n;
	});
	if (fix) {
		fix = typeof fix === "string" ? vlq(fix) : fix;
		/* Whole ones as VLQ, in D.unit: self is zigzag, its sign in bit 0. */
		var vl = typeof D.tfix === "string", u = vl ? D.unit : 1;
		for (i = 0, r = -1; i < fix.length; i += 3) {
			r += fix[i] + 1;
			tab[r].self += vl ? (fix[i + 1] % 2 ? -1 : 1) * Math.floor(fix[i + 1] / 2) * u : fix[i + 1];
			tab[r].total += fix[i + 2] * u;
		}
	}
	if (fractions) fractions();
	return tab;
}

/* A share of the whole (or of the zoomed frame: flame.js's rel), as the titles write it. */
function share(v) { return pct(v, base()); }
function base() { return (relTo(main) || { n: total }).n; }
/* A count as shown (times --factor): in its unit, or for a cell, exact in samples. */
function inUnit(v) { return amount(v * D.factor); }
function cell(v) { return D.countname === "samples" ? exact(v * D.factor) : inUnit(v); }
/* A cell's bar: p percent of it. */
function gradient(p) { return "linear-gradient(90deg,rgba(255,140,0,.4) " + p + "%,transparent " + p + "%)"; }
/* Row r's counts (for tests), its total in the header, its details line, and its cell of column k: text, title, background. */
var tableRow = (r) => [r.self, r.total];
var totalText = (r) => inUnit(r.total) + " (" + share(r.total) + ")",
	rowText = (r) => "self " + inUnit(r.self) + " (" + share(r.self) + "), total " + totalText(r),
	cellOf = (r, k) => [cell(r[k]) + "  " + share(r[k]), exact(r[k] * D.factor) + " " + D.countname,
		gradient(base() > 0 ? 100 * r[k] / base() : 0)];

function tableView(x, y, w, h) {
	if (!tfo) build();
	setAttr(tfo, "x", x);
	setAttr(tfo, "y", y);
	setAttr(tfo, "width", w);
	setAttr(tfo, "height", w ? h : 0);
	tfo.style.display = w ? "" : "none";
	if (w) drawTable();
}

/* The box: a header of sort buttons, and the scrolling rows. */
function build() {
	tfo = el("foreignObject");
	var box = el("div", tfo, "display:flex;flex-direction:column;height:100%;font:12px " +
		family + ";background:#fff;border:1px solid #ccc;box-sizing:border-box");
	thead = el("div", box, "display:flex;flex:none;overflow:hidden;border-bottom:1px solid #ccc");
	COLS.forEach((k) => {
		var b = el("button", thead, "flex:1 0 " + NAMEW + "px;min-width:0;overflow:hidden;text-align:left;border:0;background:#eee;font:inherit;cursor:pointer;padding:0 4px");
		b.k = k;
		listen(b, "click", () => {
			sortDesc = sortKey === k ? !sortDesc : k !== "name";
			sortKey = k;
			drawTable();
			saveState();
		});
	});
	tableEl = el("div", box, "flex:1;overflow:auto;position:relative;outline:none");
	setAttr(tableEl, "tabindex", 0);
	setAttr(tableEl, "class", "tb");
	tbody = el("div", tableEl, "position:relative");
	svg.insertBefore(tfo, details);
	/* (the header scrolls sideways with the rows: a narrow box shows part of the columns) */
	listen(tableEl, "scroll", () => { thead.scrollLeft = tableEl.scrollLeft; drawTable(); });
	listen(tbody, "mousemove", (e) => {
		var row = e.target.closest("[data-i]"), r = row && shown[+row.dataset.i];
		details.textContent = !r ? " " : nametype + " " + r.name + ": " + rowText(r) + ", in " + places(r.places);
	});
	listen(tbody, "click", (e) => {
		var row = e.target.closest("[data-i]");
		if (!row) return;
		cur = +row.dataset.i;
		select(shown[cur].x);
	});
	listen(tableEl, "keydown", (e) => {
		var k = { ArrowDown: 1, ArrowUp: -1, PageDown: 20, PageUp: -20 }[e.key];
		if (k) {
			e.preventDefault();
			cur = Math.max(0, Math.min(shown.length - 1, cur + k));
			var top = cur * RH, sc = tableEl.scrollTop;
			if (top < sc) tableEl.scrollTop = top;
			else if (top + RH > sc + tableEl.clientHeight) tableEl.scrollTop = top + RH - tableEl.clientHeight;
			drawTable();
		} else if (e.key === "Enter" && shown[cur]) select(shown[cur].x);
	});
}
/*
 * Each count column as wide as its widest text, measured, or its
 * heading; the name has the rest, at least NAMEW pixels, and a box too
 * narrow for them all scrolls sideways.  Columns of equal shares (flex)
 * cut 11-digit counts in Both, where the table has 40% of the width.
 * The longest text in characters stands for the widest: digits are of
 * one width in the fonts graphs use.
 */
var NAMEW = 80;
function fitColumns() {
	var font = "12px " + family;
	rowW = NAMEW;
	Array.from(thead.children).forEach((b) => {
		var k = b.k, long = "";
		if (k === "name") return;
		shown.forEach((r) => {
			var t = cellOf(r, k)[0];
			if (t.length > long.length) long = t;
		});
		/* the padding (8) and a pixel for rounding */
		colW[k] = Math.ceil(Math.max(textWidth(long, font), textWidth(HEADS[k] + " ▼", font))) + 9;
		b.style.flex = "0 0 " + colW[k] + "px";
		b.style.boxSizing = "border-box";
		rowW += colW[k];
	});
	tbody.style.width = rowW + "px";
	tbody.style.minWidth = "100%";
}
function places(n) { return n + (n === 1 ? " place" : " places"); }

/* The rows that match the search, in order, then those in view. */
function drawTable() {
	if (!tfo || tfo.style.display === "none") return;
	var z = relTo(main), by = sortKey + sortDesc + (curRe && curRe.source + curRe.flags) + (z && z.row + ":" + z.s), t = stats();
	if (by !== shownBy) {
		shownBy = by;
		shown = t.filter((r) => (r.places || r.self || r.total) && (!curRe || curRe.test(r.name)));
		var d = sortDesc ? -1 : 1, k = sortKey === "ds" && D.diff.norm ? "key" : sortKey;
		shown.sort(k === "name" ? (a, b) => d * (a.name < b.name ? -1 : a.name > b.name) :
			(a, b) => d * (a[k] - b[k]) || (a.name < b.name ? -1 : a.name > b.name));
		cur = Math.min(cur, Math.max(shown.length - 1, 0));
		tbody.style.height = shown.length * RH + "px";
		Array.from(thead.children).forEach((b) => {
			b.textContent = HEADS[b.k] + (b.k === sortKey ? (sortDesc ? " ▼" : " ▲") : "");
		});
		fitColumns();
	}
	/*
	 * Of those, the rows inside the window too: the table is as tall as
	 * the graph, and a graph 100,000 frames deep made 90,000 rows of
	 * elements, five minutes to open.  Its box is scaled as the SVG
	 * (k: window pixels a pixel of the box).
	 */
	var b = tableEl.getBoundingClientRect(), k = b.height / tableEl.offsetHeight || 1,
		top = Math.max(0, -b.top / k), bot = Math.min(tableEl.clientHeight, (innerHeight - b.top) / k),
		first = Math.floor((tableEl.scrollTop + top) / RH), n = Math.ceil((bot - top) / RH) + 1;
	tbody.textContent = "";
	for (var i = first; i < shown.length && i < first + n; i++) {
		var r = shown[i], row = el("div", tbody, "position:absolute;left:0;min-width:100%;width:" + rowW + "px;display:flex;white-space:pre;cursor:pointer;top:" + i * RH +
			"px;height:" + RH + "px;line-height:" + RH + "px" + (i === cur ? ";outline:1px dotted #000;outline-offset:-1px" : "") +
			(r.x === sel ? ";background:rgba(0,160,255,.3)" : ""));
		row.dataset.i = i;
		COLS.forEach((k) => {
			if (k === "name") return;
			var a = cellOf(r, k);
			setAttr(el("span", row, "flex:0 0 " + colW[k] + "px;overflow:hidden;text-overflow:ellipsis;padding:0 4px;box-sizing:border-box;background:" + a[2], a[0]), "title", a[1]);
		});
		el("span", row, "flex:1 0 " + NAMEW + "px;overflow:hidden;text-overflow:ellipsis;padding:0 4px;box-sizing:border-box", r.name);
	}
}
