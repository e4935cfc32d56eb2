/*
 * views: the toolbar, the views (flame graph, table, both, sandwich),
 * the selected function, the frame menu and their keys and URL state;
 * the last file, it starts the script.
 *
 * The toolbar is HTML in a foreignObject above the graph: the viewBox
 * grows upwards by TB units (the height its buttons take), so that every
 * coordinate of the file (rows, details, buttons) stays where it is, and
 * the picture without scripts is the file's.  Its buttons are buttons: Tab reaches them, Enter
 * presses them.  A view other than the graph makes the SVG as tall as it
 * needs (the table at least TMIN units), and moves the details line and
 * the search's "Matched" to its bottom.
 *
 * The URL (ui.js's saveState) keeps, besides zoom and search: v= the
 * view, fn= the selected function, o= the table's order (a column, "-"
 * first when the other way than its first click), l=tail, r=zoomed (the
 * shares of the zoomed frame); and a --diff
 * graph's toggles (diffview.js); and t= the transforms (xform.js).
 *
 * The transforms: the frame menu's and the toolbar's Invert add a step
 * (apply), shown as a breadcrumb under the buttons, whose × removes it.
 *
 * Contract: views() builds it all, before ui.js's begin(); viewState(p)
 * and viewRestore(p) are flame.js's view() and restore() for it;
 * select(x) selects the name of index x (-1: none).
 */
var TB, TMIN = 500, VIEWS = { flame: "Flame graph", table: "Table", both: "Both", sandwich: "Sandwich" },
	cview = "flame", H0, detY, bar, tbFo, btn = {}, head, crumbs, menuFo = null, menuH, vtop, barsNow;

function views() {
	tbFo = el("foreignObject");
	H0 = vbox.height;
	detY = [details, matched].map((e) => +e.getAttribute("y"));
	fitRows();
	/* Below the title, the subtitle and a --diff graph's legend. */
	vtop = fontsize * (q(".dl") ? 7 : q(".st") ? 5 : 3);
	bar = el("div", tbFo, "display:flex;flex-wrap:wrap;align-items:center;gap:3px 4px;padding:3px " + XPAD +
		"px;white-space:nowrap;background:rgba(238,238,238,.95);border-bottom:1px solid #ccc;font:12px " + family);
	setAttr(bar, "class", "tbar");
	/* Last, so that it stays above the graph it is scrolled over. */
	svg.appendChild(tbFo);
	var button = (key, text, f) => {
		var b = btn[key] = el("button", bar, "font:inherit;padding:1px 6px", text);
		listen(b, "click", (e) => { e.stopPropagation(); active = true; f(); });
	};
	Object.keys(VIEWS).forEach((v) => button(v, VIEWS[v], () => setView(v)));
	searchBar(button);
	button("reset", "Reset zoom", reset);
	button("fit", "Labels: head first", () => {
		tail = !tail;
		saveState();
		draw();
	});
	/* (FlameGraph#330, inferno#228: a share of the zoomed frame is what a zoom asks) */
	button("rel", "Shares: of all", () => {
		rel = !rel;
		saveState();
		draw();
	});
	if (D.diff) diffButtons(button);
	button("invert", "Invert", () => (last("invert") ? unapply(xf.length - 1) : apply({ k: "invert", x: -1 })));
	head = el("span", bar, "flex:1 1 200px;min-width:0;overflow:hidden;text-overflow:ellipsis;margin-left:8px");
	setAttr(head, "class", "head");
	crumbs = el("div", bar, "flex:1 0 100%;display:none;flex-wrap:wrap;gap:3px 4px;align-items:center");
	setAttr(crumbs, "class", "crumbs");
	TB = 0;
	measureBar();
	fitWidth();
	listen(window, "resize", () => { if (fitWidth()) setView(cview); });
	listen(window, "popstate", () => { restoreState(); draw(); });
	listen(window, "scroll", stick, true);
	listen(window, "keydown", (e) => {
		if (!keysMine() || e.ctrlKey || e.metaKey || e.altKey || e.target.localName === "input") return;
		if (e.key === "Escape") closeMenu();
		if (e.key === "s") {
			if (sel < 0 && hover && hover !== rootFrame) select(hover.x);
			if (sel >= 0) setView("sandwich");
		}
	});
	listen(document, "mousedown", (e) => { if (menuFo && !menuFo.contains(e.target)) closeMenu(); });
	Object.assign(svg.flamegraph, {
		view: setView, select: (name) => select(nm.indexOf(name)),
		table: () => shown.map((r) => [r.name].concat(tableRow(r).map((v) => +v.toPrecision(15)), r.places)),
		sandwich: () => sw && [sw.up, sw.down],
		/* a transform step of the name (xform.js's kinds), as the menu adds it; none: remove all */
		transform: (k, name) => (k ? apply({ k: k, x: nm.indexOf(name) }) : (xf.length = 0, retransform())),
		/* a graph of stacks (xform.js): new ones, the view, transforms and search kept */
		stacks: (list) => { restack(list); retransform(); },
		/* the timeline's width, after it changed (ui.js's fitWindow) */
		fit: () => { if (fitWidth()) setView(cview); },
		/* a diff graph (spandiff.js): new data, the view, toggles and search kept */
		diff: (X) => {
			var w = dside, cb = dcb;
			D.diff = X;
			loadDiff();
			if (w !== dside) setSide(w, true);
			if (cb !== dcb) setPalette(cb, true);
			main.root = main.zoomed = rootFrame;
			main.eps = 1e-9 * total;
			tab = null;
			shownBy = "";
			if (sw) sw.x = -1;
			fitRows();
			showReset();
			if (term !== null) search(term);
			setView(cview);
		}
	});
	bars();
}
/* The toolbar as tall as its buttons need: a narrow graph's wrap. */
function measureBar() {
	var h = vbox.height - TB;
	setAttr(tbFo, "width", width);
	setAttr(tbFo, "height", 500);
	TB = Math.ceil(bar.offsetHeight);
	setAttr(tbFo, "height", TB);
	grow(h);
}
/*
 * The graph as wide as the window (ui.js's fitWindow), its title in
 * the middle; the caller lays the view out again.  Returns whether the
 * width changed.
 */
function fitWidth() {
	if (!fitWindow()) return false;
	setAttr(svg, "width", width);
	svg.querySelectorAll(".t, .st").forEach((t) => setAttr(t, "x", width / 2));
	measureBar();
	return true;
}
/*
 * The toolbar at the window's top while the SVG's top is scrolled away,
 * as a sticky header, which SVG has not: a tall graph opens scrolled to
 * its root, and there the views would be out of sight.
 */
function stick() {
	var m = svg.getScreenCTM();
	if (m && m.d) setAttr(tbFo, "y", Math.max(-TB, Math.min(-m.f / m.d, vbox.y + vbox.height - TB)));
}
/*
 * A graph the timeline makes (me.data: of stacks, xform.js, or a diff,
 * spandiff.js) is an icicle made in the browser, whose depth changes
 * with its stacks: the graph's view (H0) as tall as its rows, and the
 * details line under them.
 */
function fitRows() {
	if (!(me && me.data)) return;
	var h = D.rowy[0] + rows.length * D.rowy[1] + fontsize * 2 + 10;
	detY = detY.map((y) => y + h - H0);
	H0 = h;
}
/* The SVG h units tall under its toolbar, the details line at its bottom. */
function grow(h) {
	setAttr(svg, "viewBox", "0 " + -TB + " " + width + " " + (h + TB));
	if (svg.getAttribute("height") !== null && !/%/.test(svg.getAttribute("height"))) setAttr(svg, "height", h + TB);
	[details, matched].forEach((e, i) => setAttr(e, "y", detY[i] + h - H0));
	stick();
}
/*
 * The search box, where flamegraph.pl had a prompt and its Search, ic
 * and Reset buttons in the graph (hidden here; the picture without
 * scripts keeps them): the term, searched as typed; Enter and Next,
 * Shift-Enter and Previous zoom to the next match and the one before;
 * Match case; Escape clears.  The count of matches and their share
 * after them.
 */
var caseBox, count;
function searchBar(button) {
	[resetBtn, searchBtn, icBtn, matched].forEach((e) => { e.style.display = "none"; });
	searchBox = el("input", bar, "font:inherit;width:14em;padding:1px 4px");
	setAttr(searchBox, "type", "search");
	setAttr(searchBox, "placeholder", "Search (regexp)");
	setAttr(searchBox, "aria-label", "Search, a regular expression");
	listen(searchBox, "input", () => (searchBox.value ? search(searchBox.value) : resetSearch()));
	listen(searchBox, "keydown", (e) => {
		active = true;
		if (e.key === "Enter") nextMatch(e.shiftKey ? -1 : 1);
		else if (e.key === "Escape") {
			e.stopPropagation();
			searchBox.value = "";
			resetSearch();
			searchBox.blur();
		}
	});
	button("prev", "Previous", () => nextMatch(-1));
	button("next", "Next", () => nextMatch(1));
	var label = el("label", bar, "display:flex;align-items:center;gap:2px");
	caseBox = el("input", label);
	setAttr(caseBox, "type", "checkbox");
	el("span", label, "", "Match case");
	listen(caseBox, "change", () => { if (caseBox.checked === ignorecase) toggleCase(); });
	count = el("span", bar, "color:#555");
}
/* Zoom to the match k after the last (k = -1: before), in the graph. */
function nextMatch(k) {
	if (!matches.length) return;
	mi = mi < 0 && k < 0 ? matches.length - 1 : (mi + k + matches.length) % matches.length;
	if (cview !== "flame" && cview !== "both") setView("flame");
	zoom(main, matches[mi]);
}
/* The buttons' state: pressed for the view shown and the toggles on. */
function bars() {
	var now = [cview, tail, rel && main.zoomed, ignorecase, term, sel, mi, matched.textContent, D.diff && diffBars(), last("invert")].join("\n"),
		r = sel >= 0 && stats()[sel];
	if (now === barsNow) return;
	barsNow = now;
	head.textContent = !r ? "" : "Selected: " + r.name + " — total " + totalText(r) + " in " + places(r.places);
	if (document.activeElement !== searchBox) searchBox.value = term === null ? "" : term;
	caseBox.checked = !ignorecase;
	count.textContent = term !== null ? (mi >= 0 ? mi + 1 + " of " : "") + matches.length + (matches.length === 1 ? " match, " : " matches, ") +
		matched.textContent.replace(/^Matched: /, "") : matched.classList.contains("hide") ? "" : matched.textContent;
	btn.prev.disabled = btn.next.disabled = !matches.length;
	Object.keys(VIEWS).map((v) => [v, v === cview]).concat([["fit", tail], ["rel", rel], ["invert", last("invert")]]).forEach((a) => {
		setAttr(btn[a[0]], "aria-pressed", a[1]);
		btn[a[0]].style.fontWeight = a[1] ? "bold" : "";
	});
	btn.fit.textContent = "Labels: " + (tail ? "tail" : "head") + " first";
	btn.rel.textContent = "Shares: of " + (rel ? "zoomed" : "all");
	btn.sandwich.disabled = sel < 0;
	/* (the header's text may wrap the buttons to another line) */
	if (Math.ceil(bar.offsetHeight) !== TB) measureBar();
}

function setView(v) {
	/*
	 * Only VIEWS' own names (the URL's v= may be constructor, a name
	 * VIEWS has from Object); a function only in frames too narrow for
	 * the data (or not drawn at this width) has no sandwich.
	 */
	if (Object.keys(VIEWS).indexOf(v) < 0 || (v === "sandwich" && (sel < 0 || !stats()[sel].places || !frames.some((f) => f.x === sel)))) v = "flame";
	cview = v;
	var th = Math.max(H0, TMIN), left = width * 0.4, bot = fontsize * 2 + 10;
	main.hidden = v === "table" || v === "sandwich";
	main.x0 = v === "both" ? left + XPAD / 2 : XPAD;
	main.w = v === "both" ? width - left - 1.5 * XPAD : width - 2 * XPAD;
	if (v === "sandwich") grow(sandwich(vtop) + bot);
	else {
		unsandwich();
		grow(v === "flame" ? H0 : th);
	}
	tableView(XPAD, vtop, v === "table" ? width - 2 * XPAD : v === "both" ? left - 1.5 * XPAD : 0, th - vtop - bot);
	setHover(main, null);
	draw();
	saveState(true);
}

/* Select the name of index x: its frames drawn in SEL, the header (bars()). */
function select(x) {
	sel = x >= 0 && x < nm.length ? x : -1;
	if (cview === "sandwich") setView(sel < 0 ? "flame" : "sandwich");
	draw();
	saveState();
}

function viewState(p) {
	["v", "fn", "o", "l", "r"].forEach((k) => p.delete(k));
	if (D.diff) diffState(p);
	if (cview !== "flame") p.set("v", cview);
	if (sel >= 0) p.set("fn", nm[sel]);
	if (sortKey !== COLS[0] || !sortDesc) p.set("o", (sortDesc === (sortKey === "name") ? "-" : "") + sortKey);
	if (tail) p.set("l", "tail");
	if (rel) p.set("r", "zoomed");
}
function viewRestore(p) {
	var o = p.get("o") || "", k = o.replace(/^-/, "");
	if (COLS.indexOf(k) >= 0) { sortKey = k; sortDesc = (k !== "name") !== (o[0] === "-"); }
	tail = p.get("l") === "tail";
	rel = p.get("r") === "zoomed";
	showCrumbs();
	if (p.get("fn") !== null) select(nm.indexOf(p.get("fn")));
	else if (sel >= 0) select(-1);
	setView(p.get("v"));
}

/*
 * The menu of a frame of graph g, at the mouse: HTML buttons, the first
 * focused, arrows move, Enter acts, Escape or a click elsewhere closes.
 */
function menu(g, f, e) {
	closeMenu();
	var p = userPoint(e), items = [
			["Copy name", () => copy(f.name)],
			["Copy stack", () => copy(stackOf(g, f))],
			["Zoom", () => zoom(g, f)],
			["Search for this name", () => search("^" + f.name.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&") + "$")],
			["Show callers and callees", () => { select(f.x); setView("sandwich"); }]
		];
	/* The transforms (xform.js): of the name, or of this frame's stacks (the main graph's). */
	["merge", "focus", "subtree", "drop", "collapse", "rec"].forEach((k) => {
		if (k !== "subtree" || g === main) items.push([STEPS[k], () => apply(k === "subtree" ? { k: k, path: pathOf(f) } : { k: k, x: k === "rec" ? -1 : f.x })]);
	});
	menuFo = el("foreignObject");
	/* A graph shorter than the menu grows while it is open: the SVG clips what is outside its viewBox. */
	menuH = vbox.height - TB;
	if (menuH < 22 * items.length + 6) grow(22 * items.length + 6);
	var box = el("div", menuFo, "display:flex;flex-direction:column;background:#fff;border:1px solid #888;padding:2px;font:12px " + family);
	setAttr(menuFo, "x", Math.min(p[0], width - 190));
	/* Inside the SVG, which clips what is outside its viewBox. */
	setAttr(menuFo, "y", Math.max(-TB, Math.min(p[1], vbox.y + vbox.height - 22 * items.length - 6)));
	setAttr(menuFo, "width", 180);
	setAttr(menuFo, "height", 22 * items.length + 6);
	setAttr(box, "role", "menu");
	items.forEach((a) => {
		var b = el("button", box, "font:inherit;text-align:left;height:22px;border:0;background:none;cursor:pointer", a[0]);
		setAttr(b, "role", "menuitem");
		listen(b, "click", (ev) => { ev.stopPropagation(); closeMenu(); a[1](); });
	});
	listen(box, "keydown", (ev) => {
		var k = { ArrowDown: 1, ArrowUp: -1 }[ev.key], bs = Array.from(box.children);
		if (!k) return;
		ev.preventDefault();
		bs[(bs.indexOf(document.activeElement) + k + bs.length) % bs.length].focus();
	});
	svg.appendChild(menuFo);
	box.firstChild.focus();
}
function closeMenu() {
	if (!menuFo) return;
	menuFo.remove();
	menuFo = null;
	if (vbox.height - TB !== menuH) grow(menuH);
}
/*
 * Add transform step t (xform.js) and lay the graph out again; remove
 * the ith.  The view stays, the zoom does not (its frame may be gone).
 */
function apply(t) {
	xf.push(t);
	retransform();
}
function unapply(i) {
	xf.splice(i, 1);
	retransform();
}
function retransform() {
	transform();
	fitRows();
	showReset();
	showCrumbs();
	if (term !== null) search(term);
	setView(cview);
}
function last(k) { return xf.length > 0 && xf[xf.length - 1].k === k; }
/* The steps as breadcrumbs, each with its remove button; names as text. */
function showCrumbs() {
	crumbs.textContent = "";
	crumbs.style.display = xf.length ? "flex" : "none";
	if (xf.length) el("span", crumbs, "color:#555", "Transforms:");
	xf.forEach((t, i) => {
		var c = el("span", crumbs, "border:1px solid #aaa;border-radius:3px;padding:0 0 0 4px;background:#fff"),
			name = t.path ? nm[t.path[t.path.length - 1]] : t.x >= 0 ? nm[t.x] : "";
		setAttr(c, "class", "crumb");
		el("span", c, "", STEPS[t.k] + (name || t.path ? ": " + name : ""));
		var b = el("button", c, "font:inherit;border:0;background:none;cursor:pointer;padding:0 4px", "×");
		setAttr(b, "aria-label", "Remove " + STEPS[t.k]);
		setAttr(b, "title", "Remove");
		listen(b, "click", (e) => { e.stopPropagation(); active = true; unapply(i); });
	});
	measureBar();
}
/* A frame's names from the root's callee down to it. */
function pathOf(f) {
	tree();
	for (var s = []; f && f !== rootFrame; f = f.p) s.push(f.x);
	return s.reverse();
}
/* A frame's stack as folded text, root first: the callers' icicle reads down. */
function stackOf(g, f) {
	tree();
	for (var s = []; f && f !== rootFrame; f = f.p) s.push(f.name);
	return (g.up ? s : s.reverse()).join(";");
}

start();
