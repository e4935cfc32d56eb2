// Browser tests of flamegraph-svg's views on stacks 100,000 frames deep
// (issue 36): a chain of distinct names, a recursion and a --diff of
// chains, opened from the URL in a view (?v=table, ?v=sandwich) and
// switched to the others (both, flame graph, table).  Each must start
// (no script exception: the sandwich's recursion overflowed the
// script's stack), give its rows and frames (the tables equal to
// stackcollapse --to=table's) and draw them; the table makes elements
// only of the rows in the window.  A page load of a graph this deep
// takes seconds (the browser parses 100,000 static frames), so the
// views are switched to rather than each opened.  Prints "ok NAME" or
// "FAIL NAME: why" per check and "done" at the end, for tests/run.sh.
//   node deep.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");
const { pngPixels, pixel } = require("./png.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
const DEEP = 100000;
function write(name, text) {
	const file = path.join(tmp, name);
	fs.writeFileSync(file, text);
	return file;
}
function run(prog, args) {
	return execFileSync(path.join(bin, prog), args, { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 30 }).toString();
}
// stackcollapse --to=table's rows as flamegraph.table() gives them: the name, then the counts
// (not the shares, "12.34%", that the table without --diff writes after them).
function tableOf(args) {
	return run("stackcollapse", ["--to=table"].concat(args)).split("\n").filter((l) => l && l[0] !== "#")
		.map((l) => { const c = l.split("\t"), name = c.pop(); return [name].concat(c.filter((v) => !v.endsWith("%")).map(Number)); });
}

const chain = [];
for (let i = 0; i < DEEP; i++) chain.push("f" + i);
const chainF = write("deep-chain.folded", chain.join(";") + " 1\n");
const recF = write("deep-rec.folded", "main;" + Array(DEEP - 1).fill("rec").join(";") + " 3\nmain;x 1\n");
const afterF = write("deep-after.folded", chain.join(";") + " 2\n" + chain.slice(0, DEEP / 2).join(";") + " 1\n");
const svgs = {
	chain: write("deep-chain.svg", run("flamegraph-svg", [chainF])),
	rec: write("deep-rec.svg", run("flamegraph-svg", [recF])),
	diff: write("deep-diff.svg", run("flamegraph-svg", ["--diff", chainF, afterF]))
};

const paint = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`;
const fg = `document.documentElement.flamegraph`;
// What a view shows: the URL; the table's rows without their places,
// and how many are elements; the sandwich's rows, frames and first and
// last rows' names; the main graph's frames, and those shown.
const state = `(() => {
	const s = ${fg}.sandwich(), rows = document.querySelectorAll(".tb [data-i]").length;
	return {
		search: location.search,
		table: rows ? ${fg}.table().map((r) => r.slice(0, -1)) : null,
		elements: rows,
		sw: s && s.every((g) => !g.hidden) ? s.map((g) => [g.rows.length, g.frames.length, g.rows[0].frames[0].name, g.rows[g.rows.length - 1].frames[0].name]) : null,
		shown: ${fg}.frames().filter((f) => f.state !== "hide").length,
		all: ${fg}.frames().length
	};
})()`;
// A frame of graph g (null: the main one) inside the window, away from
// its edges (a scrollbar): where its middle is, and the colour it has
// there (the selected function's, SEL).
const inWindow = (g) => `(() => {
	const m = document.documentElement.getScreenCTM(), s = ${fg}.sandwich(), sel = new URLSearchParams(location.search).get("fn");
	const f = ${fg}.frames(${g}).find((f) => f.state !== "hide" && m.f + f.y * m.d > 100 && m.f + (f.y + f.h) * m.d < innerHeight - 100);
	return f ? [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d,
		f.name === sel ? "0,160,255" : f.fill.slice(1).match(/../g).map((h) => parseInt(h, 16)).join()] : [0, 0, "no frame in the window"];
})()`;
// The table's first row of elements in the window, and its name.
const tableRow = `(() => {
	const e = Array.from(document.querySelectorAll(".tb [data-i]")).find((e) => e.getBoundingClientRect().top >= 0), r = e.getBoundingClientRect();
	return [r.x + 10, r.y + r.height / 2, e.lastChild.textContent];
})()`;
const SEL = "0,160,255";

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const exceptions = () => page.events.filter(e => e.method === "Runtime.exceptionThrown")
			.map((e) => e.params.exceptionDetails.exception ? e.params.exceptionDetails.exception.description.split("\n")[0] : e.params.exceptionDetails.text);
		const open = async (name, query) => {
			const n = exceptions().length;
			await page.goto("file://" + svgs[name] + query);
			await page.eval(paint);
			const e = exceptions().slice(n);
			check(name + " " + query + ": starts", e.length === 0, e.join("; "));
			return page.eval(state);
		};
		const view = async (v) => {
			await page.eval(`${fg}.view(${JSON.stringify(v)})`);
			await page.eval(paint);
			return page.eval(state);
		};
		// Whether what is at x, y in the window is colour c.
		const drawn = async (a) => {
			const p = pixel(pngPixels(await page.screenshot()), a[0], a[1]);
			return [p === a[2], a.join(" ") + ": " + p];
		};
		const chainTable = JSON.stringify(tableOf([chainF]));
		// A window's rows of elements, not the table's 100,000.
		const fewRows = (s) => s.elements > 10 && s.elements < 100;
		const halves = JSON.stringify([[DEEP / 2 + 1, DEEP / 2 + 1, "f50000", "f0"], [DEEP / 2, DEEP / 2, "f50000", "f99999"]]);
		let s, a, d;

		// The chain: the table, its rows where the window is, then both and the graph.
		s = await open("chain", "?v=table");
		check("chain table: equal to stackcollapse --to=table, a window of rows", JSON.stringify(s.table) === chainTable && fewRows(s),
			s.elements + " " + JSON.stringify(s.table && s.table.slice(0, 2)));
		a = await page.eval(tableRow);
		d = await drawn([a[0], a[1], "255,255,255"]);
		check("chain table: drawn, its bar in the first cell", a[2] === "f99999" && !d[0], a[2] + " " + d[1]);
		await page.eval(`scrollTo(0, 1e6)`);
		await page.eval(paint);
		s = await page.eval(state);
		a = await page.eval(`Array.from(document.querySelectorAll(".tb [data-i]")).map((r) => +r.dataset.i)`);
		check("chain table: the rows where the window scrolled to", fewRows(s) && a[0] > 50000 && a[0] < 60000, a.slice(0, 3).join());
		s = await view("both");
		check("chain both, from the table: table and graph", s.search === "?v=both" && JSON.stringify(s.table) === chainTable && fewRows(s) && s.shown === DEEP + 1,
			s.search + " " + s.elements + " " + s.shown);
		check("chain both: graph drawn", ...await drawn(await page.eval(inWindow("null"))));
		s = await view("flame");
		check("chain flame graph, from both", s.search === "" && s.all === DEEP + 1 && s.shown === DEEP + 1, JSON.stringify(s));
		check("chain flame graph: drawn", ...await drawn(await page.eval(inWindow("null"))));

		// The sandwich of the function in the middle, then the table.
		s = await open("chain", "?v=sandwich&fn=f50000");
		check("chain sandwich: callers and callees", s.search === "?v=sandwich&fn=f50000" && JSON.stringify(s.sw) === halves, JSON.stringify(s));
		check("chain sandwich: drawn", ...(s.sw ? await drawn(await page.eval(inWindow("s[0]"))) : [false, "no sandwich"]));
		s = await view("table");
		check("chain table, from the sandwich", s.search === "?v=table&fn=f50000" && JSON.stringify(s.table) === chainTable && fewRows(s),
			s.search + " " + s.elements + " " + JSON.stringify(s.table && s.table.slice(0, 2)));

		// A recursion: the function's outermost frame, once per stack.
		s = await open("rec", "?v=sandwich&fn=rec");
		check("rec sandwich: callers and callees", JSON.stringify(s.sw) === JSON.stringify([[2, 2, "rec", "main"], [DEEP - 1, DEEP - 1, "rec", "rec"]]),
			JSON.stringify(s.sw));
		check("rec sandwich: drawn", ...(s.sw ? await drawn(await page.eval(inWindow("s[1]"))) : [false, "no sandwich"]));
		s = await view("table");
		a = await page.eval(`${fg}.table().find((r) => r[0] === "rec")`);
		check("rec table: equal to stackcollapse --to=table", JSON.stringify(s.table) === JSON.stringify(tableOf([recF])) && a[3] === DEEP - 1,
			JSON.stringify(s.table) + " " + a);

		// --diff: the same views in diff form.
		s = await open("diff", "?v=sandwich&fn=f50000");
		check("diff sandwich: callers and callees", JSON.stringify(s.sw) === halves, JSON.stringify(s.sw));
		s = await view("table");
		const diffTable = JSON.stringify(tableOf(["--diff", chainF, afterF]).sort());
		check("diff table: equal to stackcollapse --diff --to=table", s.table && fewRows(s) && JSON.stringify(s.table.sort()) === diffTable,
			s.elements + " " + JSON.stringify(s.table && s.table.slice(0, 2)));
	} catch (e) {
		check("ran to the end", false, e.stack);
	} finally {
		browser.close();
	}
	done();
})();
