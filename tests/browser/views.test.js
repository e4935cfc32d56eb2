// Browser tests of flamegraph-svg's views (issue 17) in headless
// Chromium, with the mouse and keys: the toolbar (Tab, Enter), the
// function table (numbers equal to stackcollapse --to=table's, sort,
// search filter, hover, click and arrow keys to select), the selected
// function drawn in the graph and named in the header, Both, the
// sandwich view (menu, key, zoom, search), the frame menu (copy name and
// stack, zoom, search), tail-first labels, units of --countname, the
// views in the URL, hostile names and two graphs on one page.  Pixels
// are checked where a view draws.  Prints "ok NAME" or "FAIL NAME: why"
// per check and "done" at the end, for tests/run.sh; leaves table.png
// and sandwich.png in TMP_DIR (the README's doc/table.png and
// doc/sandwich.png are these).
//   node views.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");
const { pngPixels, pixel } = require("./png.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
function write(name, text) {
	const file = path.join(tmp, name);
	fs.writeFileSync(file, text);
	return file;
}
function svgOf(name, folded, args) {
	return write(name + ".svg", execFileSync(path.join(bin, "flamegraph-svg"), (args || []).concat([write(name + ".folded", folded)]),
		{ stdio: ["ignore", "pipe", "ignore"] }));
}
// stackcollapse --to=table's rows: [self, total, name] (its shares left out).
function totalOf(name) {
	return +execFileSync(path.join(bin, "stackcollapse"), ["--to=table", path.join(tmp, name + ".folded")]).toString().split("\n")[0].split("\t")[1];
}
function tableOf(name) {
	return execFileSync(path.join(bin, "stackcollapse"), ["--to=table", path.join(tmp, name + ".folded")]).toString()
		.split("\n").filter((l) => l && l[0] !== "#").map((l) => { const c = l.split("\t"); return [c[0], c[1], c.slice(4).join("\t")]; });
}

// In-page helpers: elements by text, centres, the frames of a graph.
const helpers = `
	window.T = {
		svg() { return document.querySelector("svg"); },
		frames(g) { return T.svg().flamegraph.frames(g); },
		find(name, g) { return T.frames(g).find((f) => f.name === name); },
		center(name, g) {
			const f = T.find(name, g), m = T.svg().getScreenCTM();
			return [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d];
		},
		button(text) {
			const b = Array.from(document.querySelectorAll("button")).find((e) => e.textContent.startsWith(text));
			const r = b.getBoundingClientRect();
			return [r.x + r.width / 2, r.y + r.height / 2];
		},
		rows() { return Array.from(document.querySelectorAll(".tb [data-i]")).map((r) => Array.from(r.children).map((c) => c.textContent)); },
		row(i) {
			const r = document.querySelector(".tb [data-i='" + i + "']").getBoundingClientRect();
			return [r.x + r.width * 0.8, r.y + r.height / 2];
		},
		text(sel) { return document.querySelector(sel).textContent; },
		head() { return document.querySelector(".tbar .head").textContent; },
		sw() { return T.svg().flamegraph.sandwich(); },
	};`;
const paint = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`;
function rgb(fill) {
	const m = /^#(..)(..)(..)$/.exec(fill);
	return m ? m.slice(1).map(h => parseInt(h, 16)).join(",") : fill.replace(/^rgb\(|\)$/g, "").replace(/ /g, "");
}
const SEL = "0,160,255", MATCH = "230,0,230";

// Recursion, a function at several depths, one-frame stacks, an empty
// frame, and thousands of frames too narrow for the data (--minwidth).
let big = "main;rec;rec;rec;malloc 7000\nmain;a;malloc 10000\nmain;b;malloc 20000\nmain;b;c;malloc;sys 5000\nmain;c 7000\nmain;a;d 3000\nsolo 4000\nmain;;x 5000\n";
for (let i = 0, r = 1; i < 3000; i++) {
	r = (r * 1103515245 + 12345) % 2147483648;
	big += "main;f" + (r % 37) + ";g" + (r % 11) + " " + (1 + r % 3) + "\n";
}
big += "main;heavy 20000\n";

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const exceptions = () => page.events.filter(e => e.method === "Runtime.exceptionThrown").length;
		const file = svgOf("views", big);
		await page.goto("file://" + file);
		await page.eval(helpers);

		// The toolbar: Tab reaches its buttons, Enter presses them.
		const tb = await page.eval(`Array.from(document.querySelectorAll(".tbar button")).map((b) => b.textContent).join("|")`);
		check("toolbar: views, search, case, reset, labels", tb === "Flame graph|Table|Both|Sandwich|Previous|Next|Reset zoom|Labels: head first|Shares: of all|Invert", tb);
		await page.key("Tab", "Tab");
		await page.key("Tab", "Tab");
		let a = await page.eval(`document.activeElement.textContent`);
		check("toolbar: Tab reaches the buttons", a === "Table", a);
		await page.key("Enter", "Enter", 0, "\r");
		await page.eval(paint);
		a = await page.eval(`[location.search, T.rows().length > 10, T.find("main").state]`);
		check("toolbar: Enter opens the table", a[0] === "?v=table" && a[1], a.join(" "));

		// The table: stackcollapse --to=table's numbers, exactly.
		const ref = tableOf("views");
		let t = await page.eval(`T.svg().flamegraph.table()`);
		const mine = t.map((r) => [String(r[1]), String(r[2]), r[0]]);
		check("table: equal to stackcollapse --to=table (left-out frames, recursion, empty name)",
			JSON.stringify(mine) === JSON.stringify(ref), JSON.stringify(mine.slice(0, 4)) + " vs " + JSON.stringify(ref.slice(0, 4)));
		let rows = await page.eval(`T.rows()`);
		const all = totalOf("views"), share = (v) => (100 * v / all).toFixed(2) + "%";
		check("table: cells show count, share and name", rows[0][0] === Number(ref[0][0]).toLocaleString("en-US") + "  " + share(ref[0][0]) && rows[0][2] === ref[0][2], rows[0].join("|"));
		let shot = pngPixels(await page.screenshot());
		let [x, y] = await page.eval(`T.row(0)`);
		const bar = pixel(shot, 20, y);
		check("table: a bar drawn in the cell", /^2\d\d,(1|2)\d\d,\d+$/.test(bar) && bar !== "255,255,255", bar);

		// Sort by each column, with the mouse.
		[x, y] = await page.eval(`T.button("Total")`);
		await page.click(x, y);
		t = await page.eval(`T.svg().flamegraph.table()`);
		check("table: sort by total", t[0][0] === "main" && t.every((r, i) => !i || t[i - 1][2] >= r[2]), t.slice(0, 3).join(" "));
		await page.click(x, y);
		t = await page.eval(`T.svg().flamegraph.table()`);
		check("table: sort by total, the other way", t.every((r, i) => !i || t[i - 1][2] <= r[2]), t.slice(0, 3).join(" "));
		[x, y] = await page.eval(`T.button("Name")`);
		await page.click(x, y);
		t = await page.eval(`T.svg().flamegraph.table()`);
		check("table: sort by name", t[0][0] === "" && t[1][0] === "a" && t.every((r, i) => !i || t[i - 1][0] < r[0]), t.slice(0, 3).join(" "));
		rows = await page.eval(`T.rows()`);
		check("table: header shows the order", (await page.eval(`T.button("Name ▲") && 1`)) === 1 && rows[1][2] === "a", rows[1].join("|"));
		[x, y] = await page.eval(`T.button("Self")`);
		await page.click(x, y);

		// The search filters the rows.
		await page.key("/", "Slash", 0, "/");
		await page.type("^f1");
		t = await page.eval(`T.svg().flamegraph.table()`);
		check("table: filtered by the search", t.length === 11 && t.every((r) => /^f1/.test(r[0])), t.map((r) => r[0]).join(","));
		a = await page.eval(`Array.from(document.querySelectorAll(".tbar button")).map((b) => b.getAttribute("aria-pressed")).join()`);
		check("toolbar: shows the view and the search as pressed", a === "false,true,false,false,,,,false,false,false", a);
		await page.key("Escape", "Escape");
		t = await page.eval(`T.svg().flamegraph.table()`);
		check("table: all rows again after Escape", t.length === ref.length, String(t.length));

		// Hover shows the details; a click selects.
		[x, y] = await page.eval(`T.row(1)`);
		await page.mouse("mouseMoved", x, y);
		let d = await page.eval(`T.text(".d")`);
		const r1 = ref[1];
		check("table: hover shows the row's details", d.startsWith("Function: " + r1[2] + ": self " + Number(r1[0]).toLocaleString("en-US") + " samples (")
			&& / in \d+ places?$/.test(d), d);
		await page.click(x, y);
		d = await page.eval(`T.head()`);
		const places = await page.eval(`T.frames().filter((f) => f.name === ${JSON.stringify(r1[2])}).length`);
		check("table: click selects, header names it", d === "Selected: " + r1[2] + " — total " + Number(r1[1]).toLocaleString("en-US") + " samples ("
			+ share(r1[1]) + ") in " + places + (places === 1 ? " place" : " places"), d);
		fs.writeFileSync(path.join(tmp, "table.png"), await page.screenshot());

		// Arrow keys move in the table, Enter selects.
		await page.eval(`document.querySelector(".tb").focus()`);
		await page.key("ArrowDown", "ArrowDown");
		await page.key("ArrowDown", "ArrowDown");
		await page.key("ArrowUp", "ArrowUp");
		await page.key("Enter", "Enter", 0, "\r");
		d = await page.eval(`T.head()`);
		check("table: arrows and Enter select", d.startsWith("Selected: " + ref[2][2] + " — "), d);

		// The URL keeps view, selection and order; reopening restores them.
		[x, y] = await page.eval(`T.button("Total")`);
		await page.click(x, y);
		let url = await page.eval(`location.href`);
		await page.goto(url);
		await page.eval(helpers);
		a = await page.eval(`[location.search, T.head(), T.svg().flamegraph.table()[0][0], T.rows().length > 0]`);
		check("URL reopens view, selection and sort", a[1].startsWith("Selected: " + ref[2][2]) && a[2] === "main" && a[3] &&
			/v=table/.test(a[0]) && /o=total/.test(a[0]), a.join(" "));

		// Both: the table on the left, the graph on the right, drawn there.
		[x, y] = await page.eval(`T.button("Both")`);
		await page.click(x, y);
		await page.eval(paint);
		a = await page.eval(`[T.find("heavy").x, T.find("heavy").w, T.rows().length > 0]`);
		shot = pngPixels(await page.screenshot());
		[x, y] = await page.eval(`T.center("heavy")`);
		check("both: graph on the right, table on the left", a[0] > 480 && a[2] && pixel(shot, x, y) === rgb(await page.eval(`T.find("heavy").fill`)),
			a.join(",") + " " + pixel(shot, x, y));

		// The selected function drawn in its colour wherever it is.
		await page.eval(`T.svg().flamegraph.select("malloc")`);
		[x, y] = await page.eval(`T.button("Flame graph")`);
		await page.click(x, y);
		await page.eval(paint);
		shot = pngPixels(await page.screenshot());
		const mallocs = await page.eval(`T.frames().filter((f) => f.name === "malloc" && f.w > 3).map((f) => { const m = T.svg().getScreenCTM(); return [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d]; })`);
		check("selected: every instance drawn in the selection colour", mallocs.length > 3 && mallocs.every((p) => pixel(shot, p[0], p[1]) === SEL),
			mallocs.length + " " + mallocs.map((p) => pixel(shot, p[0], p[1])).join(" "));
		[x, y] = await page.eval(`T.center("heavy")`);
		check("selected: others keep their colour", pixel(shot, x, y) === rgb(await page.eval(`T.find("heavy").fill`)), pixel(shot, x, y));

		// The menu: Copy name, Copy stack, Zoom, Search, the sandwich (the
		// transforms: xform.test.js).
		const menu = async (name, item, g) => {
			const [mx, my] = await page.eval(`T.center(${JSON.stringify(name)}${g ? ", " + g : ""})`);
			await page.mouse("mouseMoved", mx, my);
			await page.mouse("mousePressed", mx, my, { button: "right" });
			await page.mouse("mouseReleased", mx, my, { button: "right" });
			const items = await page.eval(`Array.from(document.querySelectorAll("[role=menuitem]")).map((b) => b.textContent).join("|")`);
			const [bx, by] = await page.eval(`T.button(${JSON.stringify(item)})`);
			await page.click(bx, by);
			return items;
		};
		a = await menu("d", "Copy name");
		check("menu: its items", a === "Copy name|Copy stack|Zoom|Search for this name|Show callers and callees|Merge function|Focus on function|" +
			"Focus on subtree|Drop samples with function|Collapse function|Collapse recursion", a);
		d = await page.eval(`[T.text(".d"), T.svg().copied, document.querySelectorAll("[role=menu]").length]`);
		check("menu: Copy name", d[0] === "Copied: d" && d[1] === "d" && d[2] === 0, d.join("|"));
		await menu("sys", "Copy stack");
		d = await page.eval(`T.svg().copied`);
		check("menu: Copy stack, as folded text", d === "main;b;c;malloc;sys", d);
		await menu("b", "Zoom");
		a = await page.eval(`[T.find("sys").w, T.find("heavy").state]`);
		check("menu: Zoom", a[1] === "hide" && a[0] > 100, a.join(","));
		await page.key("Escape", "Escape");
		await menu("d", "Search for this name");
		d = await page.eval(`[T.text(".m"), T.frames().filter((f) => f.hit).map((f) => f.name).join()]`);
		check("menu: Search for this name", d[1] === "d" && /^Matched: /.test(d[0]), d.join("|"));
		await page.key("Escape", "Escape");
		await page.mouse("mousePressed", 5, 5, { button: "right" });
		await page.key("Escape", "Escape");

		// Sandwich: callers above, callees below, from the menu.
		await page.eval(`T.svg().flamegraph.select(null)`);
		await menu("malloc", "Show callers and callees");
		await page.eval(paint);
		a = await page.eval(`[location.search, T.head(), T.sw().length]`);
		check("sandwich: opened from the menu", /v=sandwich/.test(a[0]) && /fn=malloc/.test(a[0]) && a[1].startsWith("Selected: malloc") && a[2] === 2, a.join(" "));
		const mrow = ref.find((r) => r[2] === "malloc");
		const up = await page.eval(`T.frames(T.sw()[0])`), down = await page.eval(`T.frames(T.sw()[1])`);
		check("sandwich: the function is as wide as its total, on both sides", up[0].name === "malloc" && up[0].n === +mrow[1] && down[0].n === +mrow[1]
			&& up[0].w === 1180, up[0].n + " " + down[0].n + " " + mrow[1]);
		const callers = up.filter((f) => f.y === up[0].y - 16).map((f) => f.name + ":" + f.n).join(",");
		check("sandwich: callers merged from the function upwards, above it", up.every((f) => f.y <= up[0].y) && /(^|,)a:10000(,|$)/.test(callers) && /(^|,)b:20000(,|$)/.test(callers)
			&& /(^|,)rec:7000(,|$)/.test(callers) && up.filter((f) => f.name === "main" && f.y === up[0].y - 32).length === 2, callers);
		check("sandwich: callees merged below it", down.every((f) => f.y >= down[0].y) && down.some((f) => f.name === "sys" && f.n === 5000 && f.y === down[0].y + 16),
			down.map((f) => f.name + ":" + f.n).join(","));
		shot = pngPixels(await page.screenshot());
		[x, y] = await page.eval(`T.center("sys", T.sw()[1])`);
		const sysFill = rgb(down.find((f) => f.name === "sys").fill);
		check("sandwich: drawn", pixel(shot, x, y) === sysFill && pixel(shot, 600, (await page.eval(`T.center("malloc", T.sw()[0])`))[1]) === SEL, pixel(shot, x, y) + " vs " + sysFill);
		[x, y] = await page.eval(`T.center("sys", T.sw()[1])`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("sandwich: hover", d === "Function: sys (5,000 samples, " + share(5000) + ", " + (500000 / +mrow[1]).toFixed(2) + "% of malloc)", d);
		await page.click(x, y);
		a = await page.eval(`[T.find("sys", T.sw()[1]).w, T.find("malloc", T.sw()[1]).state]`);
		check("sandwich: zoom on a callee", a[0] === 1180 && a[1] === "parent", a.join(","));
		await page.key("/", "Slash", 0, "/");
		await page.type("^b$");
		a = await page.eval(`T.frames(T.sw()[0]).filter((f) => f.hit).map((f) => f.name).join()`);
		check("sandwich: searchable", a === "b,b", a);
		fs.writeFileSync(path.join(tmp, "sandwich.png"), await page.screenshot());
		await page.key("Escape", "Escape");
		[x, y] = await page.eval(`T.center("rec", T.sw()[0])`);
		await page.mouse("mouseMoved", x, y);
		await page.mouse("mousePressed", x, y, { button: "right" });
		await page.mouse("mouseReleased", x, y, { button: "right" });
		await page.key("ArrowDown", "ArrowDown");
		await page.key("Enter", "Enter", 0, "\r");
		d = await page.eval(`T.svg().copied`);
		check("sandwich: menu by keys, Copy stack of a caller reads root first", d === "rec;malloc", d);

		// The key s: the sandwich of the frame under the mouse.
		[x, y] = await page.eval(`T.button("Flame graph")`);
		await page.click(x, y);
		await page.eval(`T.svg().flamegraph.select(null)`);
		[x, y] = await page.eval(`T.center("c")`);
		await page.mouse("mouseMoved", x, y);
		await page.key("s", "KeyS", 0, "s");
		a = await page.eval(`[location.search, T.sw() && T.frames(T.sw()[0])[0].name]`);
		check("key s: sandwich of the frame under the mouse", /v=sandwich/.test(a[0]) && a[1] === "c", a.join(" "));

		// A view the URL names that is not one (an Object property too, as
		// constructor) opens the flame graph, the rest of the URL kept.
		const plain = svgOf("plain", "main;p 1\nmain;q 3\n");
		const viewOf = async (query) => {
			await page.goto("file://" + plain + query);
			return page.eval(`[location.search, (document.querySelector(".tbar button[aria-pressed=true]") || {}).textContent,
				document.documentElement.getAttribute("viewBox"), document.documentElement.flamegraph.frames().filter((f) => f.w > 0).length]`);
		};
		const flameView = JSON.stringify(await viewOf("?fn=q"));
		for (const v of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "bogus", ""]) {
			a = JSON.stringify(await viewOf("?v=" + v + "&fn=q"));
			check("URL: v=" + v + " opens the flame graph", a === flameView && JSON.parse(a)[0] === "?fn=q" && JSON.parse(a)[1] === "Flame graph", a + " vs " + flameView);
		}

		// Labels tail first.
		const long = svgOf("long", "main;com.example.very.long.package.name.Klass.methodName 1\nmain;x 1\n", ["--width", "400"]);
		// (a standalone graph is as wide as the window: a narrow one)
		await page.resize(400, 900);
		await page.goto("file://" + long);
		await page.eval(helpers);
		const head = await page.eval(`T.find("com.example.very.long.package.name.Klass.methodName").label`);
		[x, y] = await page.eval(`T.button("Labels")`);
		await page.click(x, y);
		a = await page.eval(`[T.find("com.example.very.long.package.name.Klass.methodName").label, location.search]`);
		check("labels: head first, then tail first", /^com\.ex.*\.\.$/.test(head) && /^\.\..*methodName$/.test(a[0]) && a[1] === "?l=tail", head + " " + a.join(" "));
		await page.resize(1200, 900);

		// Units of --countname in tooltip, table and header.
		const ns = svgOf("ns", "main;a 1500000\nmain;b 2500\nmain;c 7\n", ["--countname", "ns"]);
		await page.goto("file://" + ns + "?v=table&fn=a");
		await page.eval(helpers);
		rows = await page.eval(`T.rows()`);
		a = await page.eval(`T.head()`);
		check("units: table in ms, µs, ns", rows[0][0] === "1.50 ms  99.83%" && rows[1][0] === "2.50 µs  0.17%" && rows[2][0] === "7 ns  0.00%", rows.map((r) => r[0]).join("|"));
		check("units: header", a === "Selected: a — total 1.50 ms (99.83%) in 1 place", a);
		[x, y] = await page.eval(`T.button("Flame graph")`);
		await page.click(x, y);
		[x, y] = await page.eval(`T.center("a")`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("units: tooltip", d === "Function: a (1.50 ms, 99.83%)", d);
		const fa = svgOf("factor", "main;a 1500\nmain;b 3\n", ["--countname", "ns", "--factor", "1000"]);
		await page.goto("file://" + fa + "?v=table&fn=a");
		await page.eval(helpers);
		a = await page.eval(`[T.rows()[0][0], T.head()]`);
		check("units: --factor scales what is shown", a[0] === "1.50 ms  99.80%" && a[1] === "Selected: a — total 1.50 ms (99.80%) in 1 place", a.join("|"));
		const by = svgOf("bytes", "main;a 3221225472\nmain;b 2048\n", ["--countname", "bytes"]);
		await page.goto("file://" + by + "?v=table");
		await page.eval(helpers);
		rows = await page.eval(`T.rows()`);
		check("units: bytes in GiB, KiB", rows[0][0].startsWith("3 GiB  ") && rows[1][0].startsWith("2 KiB  "), rows.map((r) => r[0]).join("|"));

		// A hot/cold graph (the off-CPU mark chooses it): the tooltip says
		// each frame's off-CPU share, in ns, as the static titles do.
		const hc = svgOf("hotcold", "prog;main;parse 2000000\nprog;main;load;read;[off-cpu] 8000000\n");
		await page.goto("file://" + hc);
		await page.eval(helpers);
		[x, y] = await page.eval(`T.center("main")`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("hot/cold: tooltip", d === "Function: main (10 ms, 100.00%; off-CPU 80.00%)", d);
		[x, y] = await page.eval(`T.center("parse")`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("hot/cold: tooltip of an on-CPU frame", d === "Function: parse (2 ms, 20.00%; off-CPU 0.00%)", d);
		// Its table splits each function's time: an Off-CPU column.
		await page.goto("file://" + hc + "?v=table");
		await page.eval(helpers);
		rows = await page.eval(`T.rows().map((r) => r.join("|"))`);
		a = ["prog", "main", "load", "read", "parse"].map((n) => rows.find((r) => r.endsWith("|" + n)));
		check("hot/cold: table's Off-CPU column", a[0] === "0 ns  0.00%|10 ms  100.00%|8 ms  80.00%|prog" &&
			a[1] === "0 ns  0.00%|10 ms  100.00%|8 ms  80.00%|main" && a[2] === "0 ns  0.00%|8 ms  80.00%|8 ms  80.00%|load" &&
			a[4] === "2 ms  20.00%|2 ms  20.00%|0 ns  0.00%|parse", a.join(" / "));

		// Fractional counts keep their digits.
		const frac = svgOf("frac", "a;b 0.1\na;c 0.2\na 0.3\na;b;c 1.25\n");
		await page.goto("file://" + frac + "?v=table");
		await page.eval(helpers);
		t = await page.eval(`T.svg().flamegraph.table()`);
		check("table: fractional counts as stackcollapse --to=table", JSON.stringify(t.map((r) => [String(r[1]), String(r[2]), r[0]])) === JSON.stringify(tableOf("frac")),
			JSON.stringify(t));
		rows = await page.eval(`T.rows()`);
		check("table: fractional cells", rows[0][0] === "1.45  78.38%", rows[0].join("|"));
		const frac2 = svgOf("frac2", "a;b 0.001\na;c 1000.5\n");
		await page.goto("file://" + frac2 + "?v=table");
		await page.eval(helpers);
		t = await page.eval(`T.svg().flamegraph.table()`);
		check("table: fractional counts of left-out frames", JSON.stringify(t.map((r) => [String(r[1]), String(r[2]), r[0]])) === JSON.stringify(tableOf("frac2")),
			JSON.stringify(t));

		// Hostile names stay text: cells, header, menu, clipboard, sandwich.
		const evil = "</script><script>alert(1)</script>", img = "<img src=x onerror=alert(2)>";
		const hostile = svgOf("hostile", "main;" + evil + " 5\nmain;" + img + ";]]>\x1b[31m 3\n");
		const dialogs = () => page.events.filter(e => e.method === "Page.javascriptDialogOpening").length;
		const before = dialogs();
		await page.goto("file://" + hostile + "?v=table&fn=" + encodeURIComponent(img));
		await page.eval(helpers);
		rows = await page.eval(`T.rows().map((r) => r[2])`);
		a = await page.eval(`T.head()`);
		check("hostile: table cells and header are text", rows.includes(evil) && rows.includes(img) && a.startsWith("Selected: " + img + " — ")
			&& (await page.eval(`document.querySelectorAll("img, foreignObject script").length`)) === 0, rows.join("|") + " " + a);
		[x, y] = await page.eval(`T.button("Sandwich")`);
		await page.click(x, y);
		a = await page.eval(`T.frames(T.sw()[1]).map((f) => f.name)`);
		check("hostile: sandwich", a[0] === img && a[1] === "]]>\x1b[31m", JSON.stringify(a));
		await menu("]]>\x1b[31m", "Copy stack", "T.sw()[1]");
		a = await page.eval(`[T.svg().copied, T.text(".d")]`);
		check("hostile: clipboard and menu", a[0] === img + ";]]>\x1b[31m" && a[1] === "Copied: " + a[0], JSON.stringify(a));
		check("hostile: nothing ran", dialogs() === before && (await page.eval(`document.querySelectorAll("img").length`)) === 0, (dialogs() - before) + " dialogs");

		// Shares of the zoomed frame: the toolbar's switch, in the URL;
		// the hover and the table's shares of a, then of all again.
		await page.goto("file://" + svgOf("rel", "main;a;b 30\nmain;a;c 10\nmain;d 60\n"));
		await page.eval(helpers);
		[x, y] = await page.eval(`T.center("a")`);
		await page.click(x, y);
		[x, y] = await page.eval(`T.button("Shares")`);
		await page.click(x, y);
		const hoverB = async () => {
			const [bx, by] = await page.eval(`T.center("b")`);
			await page.mouse("mouseMoved", bx, by);
			return page.eval(`[T.text(".d"), T.button("Shares") && Array.from(document.querySelectorAll(".tbar button")).find((b) => /^Shares/.test(b.textContent)).textContent, location.search]`);
		};
		a = await hoverB();
		check("shares of zoomed: hover, switch, URL", a[0] === "Function: b (30 samples, 75.00% of a, 30.00% of all)" && a[1] === "Shares: of zoomed" &&
			/[?&]r=zoomed/.test(a[2]), a.join(" | "));
		await page.goto("file://" + path.join(tmp, "rel.svg") + a[2]);
		await page.eval(helpers);
		[x, y] = await page.eval(`T.button("Both")`);
		await page.click(x, y);
		a = await hoverB();
		rows = await page.eval(`T.rows()`);
		const rowB = rows.find((r) => r[r.length - 1] === "b") || [];
		check("shares of zoomed: a reload keeps it; the table's shares too", a[0] === "Function: b (30 samples, 75.00% of a, 30.00% of all)" &&
			rowB[0] === "30  75.00%" && rowB[1] === "30  75.00%", a[0] + " | " + rowB.join(","));
		[x, y] = await page.eval(`T.button("Shares")`);
		await page.click(x, y);
		a = await hoverB();
		rows = await page.eval(`T.rows()`);
		check("shares of all again", a[0] === "Function: b (30 samples, 30.00%, 75.00% of a)" && a[1] === "Shares: of all" && !/r=/.test(a[2]) &&
			rows.find((r) => r[r.length - 1] === "b")[0] === "30  30.00%", a.join(" | "));

		// 11-digit counts in Both at 1400 pixels: each count column as wide
		// as its widest text, no cell's or heading's text cut; a --diff
		// graph's six columns too, its box scrolling sideways if need be.
		await page.resize(1400, 900);
		const wide = "main;a;b 12345678901\nmain;a;c 98765432109\nmain;d 3\n";
		const overflow = `Array.from(document.querySelectorAll(".tb [data-i] span, foreignObject button")).filter((e) => e.closest(".tb") || /^(Self|Total|Name)/.test(e.textContent))
			.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)`;
		await page.goto("file://" + svgOf("wide", wide) + "?v=both");
		await page.eval(helpers);
		await page.eval(paint);
		a = await page.eval(`[${overflow}, T.rows().length, innerWidth]`);
		check("table: 11-digit counts fit their columns in Both at 1400 px", a[0].length === 0 && a[1] === 5 && a[2] === 1400, JSON.stringify(a));
		const wideAfter = write("wide-after.folded", "main;a;b 23456789012\nmain;a;c 8765432109\nmain;e 4\n");
		await page.goto("file://" + write("wide-diff.svg", execFileSync(path.join(bin, "flamegraph-svg"), ["--diff", path.join(tmp, "wide.folded"), wideAfter], { stdio: ["ignore", "pipe", "ignore"] })) + "?v=both");
		await page.eval(helpers);
		await page.eval(paint);
		a = await page.eval(`[${overflow}, T.rows().length]`);
		check("diff table: 11-digit counts fit their columns in Both at 1400 px", a[0].length === 0 && a[1] === 6, JSON.stringify(a));
		await page.resize(1200, 900);

		// Two graphs on one page: each its own toolbar, view and selection.
		const other = svgOf("other", "main;p 1\nmain;q 3\n");
		const inline = (f) => fs.readFileSync(f, "utf8").replace(/^<\?xml[^>]*>\n/, "");
		await page.goto("file://" + write("two.html", "<!doctype html><html><body>" + inline(ns) + inline(other) + "</body></html>"));
		await page.eval(helpers);
		[x, y] = await page.eval(`T.button("Table")`);
		await page.click(x, y);
		a = await page.eval(`Array.from(document.querySelectorAll("svg")).map((s) => s.querySelectorAll(".tb").length + ":" +
			s.querySelectorAll(".tbar button").length + ":" + s.flamegraph.frames().filter((f) => f.state !== "hide" && f.w > 0).length)`);
		check("two graphs: views stay in their own graph", a[0].startsWith("1:10:0") && a[1] === "0:10:4" && (await page.eval(`location.search`)) === "", a.join(" "));

		// Counts of a period (perf's cpu-clock, 1001001 ns): the data and the
		// table's fix of the left-out frames are in that unit, the table not.
		const per = svgOf("period", big.replace(/ (\d+)$/gm, (m, n) => " " + n * 1001001));
		await page.goto("file://" + per);
		await page.eval(helpers);
		[x, y] = await page.eval(`T.button("Table")`);
		await page.click(x, y);
		t = await page.eval(`T.svg().flamegraph.table()`);
		const pref = tableOf("period"), pmine = t.map((r) => [String(r[1]), String(r[2]), r[0]]);
		check("table: period counts equal to stackcollapse --to=table (left-out frames)",
			JSON.stringify(pmine) === JSON.stringify(pref), JSON.stringify(pmine.slice(0, 4)) + " vs " + JSON.stringify(pref.slice(0, 4)));

		check("no script exception", exceptions() === 0, exceptions() + " exceptions");
	} catch (e) {
		check("ran to the end", false, e.stack);
	} finally {
		browser.close();
	}
	done();
})();
