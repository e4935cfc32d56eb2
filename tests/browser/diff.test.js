// Browser tests of flamegraph-svg --diff's SVGs in headless Chromium: the
// script's titles, places and fills, made from the data, are the static
// file's (with and without --normalize, --factor, fractional counts,
// frames on one side only, --diff-width=max, --reverse); hovering a frame
// shows its diff title; the legend is drawn; an icicle's rows start below
// the subtitle and the legend.  The toolbar's toggles (issue 18): width
// side and palette, by Tab and Enter and the mouse, drawn as the file of
// that option draws (places, fills, pixels), kept in the URL; the diff
// table equal to stackcollapse --diff --to=table, sorted by the
// difference; the sandwich coloured by diff; hostile names; no NaN or
// Infinity anywhere shown.  Leaves diff-toggle.png in TMP_DIR.  Prints "ok NAME" or "FAIL
// NAME: why" per check and "done" at the end, for tests/run.sh.
//   node diff.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");
const { pngPixels, pixel } = require("./png.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);

// One three-column input on stdin (--diff detects it), drawn with args.
function write(name, text) {
	const file = path.join(tmp, "diff-" + name);
	fs.writeFileSync(file, text);
	return file;
}
function svgOf(name, diff, args) {
	const file = path.join(tmp, "diff-" + name + ".svg");
	fs.writeFileSync(file, execFileSync(path.join(bin, "flamegraph-svg"), ["--diff"].concat(args || []), { input: diff, stdio: ["pipe", "pipe", "ignore"] }));
	return file;
}

const cases = [
	["basic", "main;a;x 10 10\nmain;a;y 0 4\nmain;b 5 0\nmain;c 0 3\nmain 2 2\n"],
	["max", "main;a;x 10 10\nmain;a;y 0 4\nmain;b 5 0\nmain;c 0 3\nmain 2 2\n", ["--diff-width=max"]],
	["before", "main;a;x 10 10\nmain;b 5 0\nmain 2 2\n", ["--diff-width=before", "--diff-palette=cb"]],
	["raw", "main;a 1 1000000000\nmain;b 7 3\n", ["--no-normalize", "--factor", "0.5", "--minwidth", "0"]],
	["totals", "main;a 1 1000000000\nmain;b 0 3\n", ["--minwidth", "0"]],
	["fraction", "main;a 1.5 0.125\nmain;b 0.25 1234567.25\nmain;b;c 0.1 0.2\n", ["--minwidth", "0"]],
	["reverse", "main;a;x 3 4\nmain;b;x 2 2\nmain;b;y 1 5\n", ["--reverse", "--sort", "weight"]],
	["same", "main;a 5 5\nmain;b 3 3\nmain;b;c 2 2\n"],
	["weight", "main;a;x 1 1\nmain;b 5 2\nmain;c;y 3 9\nmain;c;z 1 4\n", ["--sort", "weight"]],
	["inverted", "main;a;x 10 10\nmain;a;y 0 4\nmain;b 5 0\nmain 2 2\n", ["--inverted", "--diff-width=max"]],
];

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		for (const [name, input, args] of cases) {
			const f = svgOf(name, input, args);
			await page.goto("file://" + f);
			const t = await page.eval(`(() => {
				const doc = new DOMParser().parseFromString(${JSON.stringify(fs.readFileSync(f, "utf8"))}, "image/svg+xml");
				const file = Array.from(doc.querySelectorAll(".f title")).map(t => t.textContent).sort();
				const frames = document.documentElement.flamegraph.frames();
				const ours = frames.map(f => f.title).sort();
				const at = (t) => { const r = t.nextElementSibling; return [t.textContent, +r.getAttribute("x"),
					+/translate\\(0 ([^)]*)\\)/.exec(t.parentNode.parentNode.getAttribute("transform"))[1], +r.getAttribute("width"), r.getAttribute("fill")]; };
				const off = Array.from(doc.querySelectorAll(".f title")).map(at).filter(([t, x, y, w, c]) => !frames.some(f => f.title === t &&
					Math.abs(f.x - x) < 0.06 && f.y === y && Math.abs(f.x + f.w - x - w) < 0.11 && f.fill === c));
				return [file.join("|"), ours.join("|"), off.map(p => p.join(" ")).join("|")]; })()`);
			check("diff titles from the data match the file's (" + name + ")", t[0] === t[1] && t[0] !== "", t[0] + " vs " + t[1]);
			check("diff places and fills from the data match the file's (" + name + ")", t[2] === "", t[2]);
		}

		// Hover: the details line says both sides and the change.
		await page.goto("file://" + svgOf("hover", cases[0][1]));
		const d = await page.eval(`(() => {
			const f = document.documentElement.flamegraph.frames().find(f => f.name === "x");
			// page coordinates: the toolbar grows the viewBox upwards
			return [f.x + f.w / 2, f.y + 5 - document.documentElement.viewBox.baseVal.y]; })()`);
		await page.mouse("mouseMoved", d[0], d[1]);
		const text = await page.eval(`document.querySelector(".d").textContent`);
		check("diff hover shows both sides and the change",
		    text === "Function: x (before: 10 samples, 58.82%; after: 10 samples, 52.63%; -6.19 points, -10.53%; self: -6.19 points, -10.53%)", text);
		const legend = await page.eval(`(() => { const r = document.querySelector(".dl rect").getBoundingClientRect();
			return [Math.round(r.width), document.querySelector(".dl").textContent]; })()`);
		check("diff legend drawn", legend[0] === 120 && /self -100%/.test(legend[1]), JSON.stringify(legend));

		// An icicle's first row starts below the subtitle and its legend,
		// where flamegraph.pl's (and a plain graph's) covers them.
		await page.goto("file://" + svgOf("icicle", cases[0][1], ["--inverted"]));
		const rows = await page.eval(`(() => { const f = document.documentElement.flamegraph.frames()[0];
			const st = document.querySelector(".st").getBBox(), lg = document.querySelector(".dl rect").getBBox();
			return [f.y, st.y + st.height, lg.y + lg.height]; })()`);
		check("diff icicle: root row below the subtitle and legend", rows[0] >= rows[1] && rows[0] >= rows[2], JSON.stringify(rows));

		// The toggles: Tab and Enter, the mouse; each drawn as the file of
		// that option is, and kept in the URL.
		const input = cases[0][1], exceptions = () => page.events.filter(e => e.method === "Runtime.exceptionThrown").length;
		const placesOf = (f) => `(() => {
			const doc = new DOMParser().parseFromString(${JSON.stringify(fs.readFileSync(f, "utf8"))}, "image/svg+xml");
			const frames = document.documentElement.flamegraph.frames().filter(f => f.state !== "hide");
			const at = (t) => { const r = t.nextElementSibling; return [t.textContent, +r.getAttribute("x"),
				+/translate\\(0 ([^)]*)\\)/.exec(t.parentNode.parentNode.getAttribute("transform"))[1], +r.getAttribute("width"), r.getAttribute("fill")]; };
			const file = Array.from(doc.querySelectorAll(".f title")).map(at);
			const off = file.filter(([t, x, y, w, c]) => !frames.some(f => f.title === t &&
				Math.abs(f.x - x) < 0.06 && f.y === y && Math.abs(f.x + f.w - x - w) < 0.11 && f.fill === c));
			return off.map(p => p.join(" ")).join("|") + (file.length === frames.length ? "" : " count " + file.length + " vs " + frames.length); })()`;
		const helpers = `window.T = {
			btn(text) { const b = Array.from(document.querySelectorAll(".tbar button")).find((e) => e.textContent.startsWith(text));
				const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; },
			frame(name) { return document.documentElement.flamegraph.frames().find((f) => f.name === name); },
			center(name) { const f = T.frame(name), m = document.documentElement.getScreenCTM();
				return [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d]; },
			bar() { return Array.from(document.querySelectorAll(".tbar button")).map((b) => b.textContent).join("|"); },
		};`;
		const paint = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`;
		const hex = (f) => /^#(..)(..)(..)$/.exec(f).slice(1).map(h => parseInt(h, 16)).join(",");
		const toggle = svgOf("toggle", input);
		await page.goto("file://" + toggle);
		await page.eval(helpers);
		let bar = await page.eval(`T.bar()`);
		check("diff toolbar: width and palette toggles, and Invert", /\|Shares: of all\|Width: after\|Palette: red-green\|Invert$/.test(bar), bar);
		let tabs = 0, focus = "";
		while (tabs++ < 12 && !/^Width/.test(focus = await page.eval(`(document.activeElement && document.activeElement.textContent) || ""`))) await page.key("Tab", "Tab");
		check("diff toolbar: Tab reaches the width toggle", /^Width/.test(focus), focus);
		await page.key("Enter", "Enter", 0, "\r");
		await page.eval(paint);
		let st = await page.eval(`[location.search, T.bar(), !!T.frame("b"), !!T.frame("c"), document.querySelector(".st").textContent]`);
		check("diff toggle: Enter draws by before (removed b drawn, added c not)", st[0] === "?dw=before" && /Width: before/.test(st[1]) && st[2] && !st[3] &&
			/width: before$/.test(st[4]), st.join(" "));
		let off = await page.eval(placesOf(svgOf("toggle-before", input, ["--diff-width=before"])));
		check("diff toggle: by before as --diff-width=before draws it", off === "", off);
		let c = await page.eval(`T.center("b")`), shot = pngPixels(await page.screenshot()), fb = await page.eval(`T.frame("b").fill`);
		check("diff toggle: pixels of the removed frame redrawn", pixel(shot, Math.round(c[0]), Math.round(c[1])) === hex(fb) && hex(fb) === "50,170,80",
			pixel(shot, Math.round(c[0]), Math.round(c[1])) + " " + fb);
		c = await page.eval(`T.btn("Width")`);
		await page.click(c[0], c[1]);
		await page.eval(paint);
		st = await page.eval(`[location.search, T.bar(), !!T.frame("b"), !!T.frame("c")]`);
		check("diff toggle: a click draws by max (both drawn)", st[0] === "?dw=max" && /Width: max/.test(st[1]) && st[2] && st[3], st.join(" "));
		off = await page.eval(placesOf(svgOf("toggle-max", input, ["--diff-width=max"])));
		check("diff toggle: by max as --diff-width=max draws it", off === "", off);
		c = await page.eval(`T.btn("Palette")`);
		await page.click(c[0], c[1]);
		await page.eval(paint);
		st = await page.eval(`[location.search, T.bar(), Array.from(document.querySelectorAll("linearGradient[id$='-dl'] stop")).map(s => s.getAttribute("stop-color")).join(" ")]`);
		check("diff toggle: palette blue-orange, legend too, in the URL", st[0] === "?dw=max&dp=cb" && /Palette: blue-orange/.test(st[1]) &&
			st[2] === "rgb(40,120,220) rgb(220,220,220) rgb(240,140,30)", st.join(" "));
		off = await page.eval(placesOf(svgOf("toggle-cb", input, ["--diff-width=max", "--diff-palette=cb"])));
		check("diff toggle: blue-orange as --diff-palette=cb draws it", off === "", off);
		c = await page.eval(`T.center("c")`);
		shot = pngPixels(await page.screenshot());
		fs.writeFileSync(path.join(tmp, "diff-toggle.png"), await page.screenshot());
		check("diff toggle: pixels of the added frame in orange", pixel(shot, Math.round(c[0]), Math.round(c[1])) === "240,140,30",
			pixel(shot, Math.round(c[0]), Math.round(c[1])));
		// The URL reopens the same toggles; zoom kept across a toggle.
		await page.goto("file://" + toggle + "?dw=max&dp=cb&x=10&y=" + (await page.eval(`T.frame("a").y`)));
		await page.eval(helpers);
		st = await page.eval(`[T.bar(), T.frame("c").fill, T.frame("a").w > 1000, location.search]`);
		check("diff toggle: the URL reopens width, palette and zoom", /Width: max\|Palette: blue-orange/.test(st[0]) && st[1] === "#f08c1e" && st[2], st.join(" "));
		c = await page.eval(`T.btn("Width")`);
		await page.click(c[0], c[1]);
		st = await page.eval(`[location.search, T.frame("a").w > 1000]`);
		check("diff toggle: the zoomed frame stays zoomed by another width", /dw=after|^\?dp=cb&x=|x=/.test(st[0]) && st[1], st.join(" "));
		// --sort weight: another width reorders the callees as the file of that width does.
		const winput = "main;a;x 1 1\nmain;b 5 2\nmain;c;y 3 9\nmain;c;z 1 4\n";
		for (const w of ["before", "max"]) {
			await page.goto("file://" + svgOf("weight-after", winput, ["--sort", "weight"]) + "?dw=" + w);
			off = await page.eval(placesOf(svgOf("weight-" + w, winput, ["--sort", "weight", "--diff-width=" + w])));
			check("diff toggle: --sort weight by " + w + " as the file of that width", off === "", off);
		}
		// A plain graph and the classic three-column one have no toggles.
		await page.goto("file://" + write("plain.svg", execFileSync(path.join(bin, "flamegraph-svg"), [], { input: "a;b 1\n" })));
		bar = await page.eval(`Array.from(document.querySelectorAll(".tbar button")).map((b) => b.textContent).join("|")`);
		check("plain graph: no diff toggles", bar === "Flame graph|Table|Both|Sandwich|Previous|Next|Reset zoom|Labels: head first|Shares: of all|Invert", bar);
		await page.goto("file://" + write("classic.svg", execFileSync(path.join(bin, "flamegraph-svg"), [], { input: "a;b 1 2\n" })));
		bar = await page.eval(`Array.from(document.querySelectorAll(".tbar button")).map((b) => b.textContent).join("|")`);
		check("classic differential graph: no diff toggles", !/Width|Palette/.test(bar), bar);

		// The table in diff form: stackcollapse --diff --to=table's rows, in
		// its order (self share's growth), hostile names as text.
		const hostile = "</script><script>alert(1)", cdata = "]]>x", bad = "bad\xff\x1b";
		const before = write("tb-before.folded", `main;a;${hostile} 10\nmain;b 5\nmain;rec;rec;x 3\nmain;${cdata} 4\nmain;a 2\n`);
		const after = write("tb-after.folded", `main;a;${hostile} 12\nmain;c 3\nmain;rec;rec;x 9\nmain;a 2\nmain;${bad} 1\n`);
		const tsvg = write("tb.svg", execFileSync(path.join(bin, "flamegraph-svg"), ["--diff", before, after]));
		const ref = execFileSync(path.join(bin, "stackcollapse"), ["--diff", "--to=table", before, after]).toString("latin1")
			.split("\n").filter((l) => l && l[0] !== "#").map((l) => l.split("\t"));
		await page.goto("file://" + tsvg + "?v=table");
		await page.eval(helpers);
		await page.eval(paint);
		let t = await page.eval(`document.documentElement.flamegraph.table()`);
		const norm = (s) => Buffer.from(s, "latin1").toString("utf8");
		let mine = t.map((r) => r.slice(1, 5).map(String).concat(r[0]).join("\t")).join("\n"), theirs = ref.map((r) => r.slice(0, 4).concat(norm(r[4])).join("\t")).join("\n");
		check("diff table: equal to stackcollapse --diff --to=table, in its order", mine === theirs, mine + "\n vs\n" + theirs);
		st = await page.eval(`[Array.from(document.querySelectorAll(".tb [data-i]")).map(r => r.lastChild.textContent).join("|"),
			Array.from(document.querySelectorAll("foreignObject button")).filter(b => /^(Self|Total)/.test(b.textContent)).map(b => b.textContent).join("|"),
			document.querySelectorAll("script").length, document.querySelector(".tb [data-i='0']").children[0].textContent]`);
		check("diff table: columns, hostile names as text, Self Δ first", st[1] === "Self Δ ▼|Self before|Self after|Total Δ|Total before|Total after" &&
			st[0].includes(hostile) && st[0].includes(cdata) && st[2] === 1 && /^\+[0-9.]+ pts/.test(st[3]), st.join(" || "));
		c = await page.eval(`(() => { const b = Array.from(document.querySelectorAll("foreignObject button")).find(b => b.textContent === "Total Δ");
			const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
		await page.click(c[0], c[1]);
		t = await page.eval(`[location.search, document.documentElement.flamegraph.table().map(r => r[0]).join("|")]`);
		const dt = ref.map((r) => [norm(r[4]), +r[3] / 27 - +r[1] / 24]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map((r) => r[0]).join("|");
		check("diff table: a click sorts by Total Δ", t[0] === "?v=table&o=dt" && t[1] === dt, t.join(" ") + " vs " + dt);
		check("diff table: totals as read", ref.length > 0 && execFileSync(path.join(bin, "stackcollapse"), ["--diff", "--to=table", before, after]).toString().startsWith("# total\t24\t27"), "");
		// Hovering a row says its self and total in the details line (the
		// packed script's renaming once made it throw "r is not defined").
		await page.eval(`window.errs = []; window.addEventListener("error", (e) => errs.push(e.message))`);
		c = await page.eval(`(() => { const r = document.querySelector(".tb [data-i='0']").getBoundingClientRect();
			return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
		await page.mouse("mouseMoved", c[0], c[1]);
		await page.eval(paint);
		st = await page.eval(`[errs.join("; "), document.querySelector(".d").textContent]`);
		check("diff table: hovering a row details it, no error", st[0] === "" && /: self .* → .*, total /.test(st[1]), st.join(" | "));

		// The sandwich of a diff graph: coloured by diff.
		await page.goto("file://" + tsvg + "?v=sandwich&fn=x");
		await page.eval(helpers);
		await page.eval(paint);
		st = await page.eval(`(() => { const s = document.documentElement.flamegraph.sandwich(), fl = document.documentElement.flamegraph;
			const down = fl.frames(s[1])[0], up = fl.frames(s[0]); return [location.search, down.name, down.fill, T.frame("x").fill, down.title,
			up.map(f => f.name + " " + f.fill).join(",")]; })()`);
		check("diff sandwich: the function's fill by diff, as in the graph", st[0] === "?v=sandwich&fn=x" && st[1] === "x" && st[2] === st[3] &&
			st[2] !== "#dcdcdc" && /self: \+/.test(st[4]), st.join(" | "));
		// x's total through them went from 3 of 24 to 9 of 27: full red
		check("diff sandwich: callers coloured by diff", st[5] === "x #e63c32,rec #e63c32,rec #e63c32,main #e63c32", st[5]);

		// Totals 1 against 10^9, one side empty: no NaN or Infinity shown,
		// a width with nothing is skipped.
		for (const [name, inp] of [["lop", "main;a 1 1000000000\nmain;b 0 3\n"], ["empty", "main;a 0 5\nmain;b 0 3\n"]]) {
			await page.goto("file://" + svgOf(name, inp) + "?v=both");
			await page.eval(helpers);
			for (let k = 0; k < 4; k++) {
				c = await page.eval(`T.btn("Width")`);
				await page.click(c[0], c[1]);
				c = await page.eval(`T.btn("Palette")`);
				await page.click(c[0], c[1]);
			}
			st = await page.eval(`[Array.from(document.querySelectorAll("text,title,foreignObject")).map(e => e.textContent).join("") + JSON.stringify(document.documentElement.flamegraph.frames()) +
				JSON.stringify(document.documentElement.flamegraph.table()) + location.search, T.bar()]`);
			check("diff " + name + ": no NaN or Infinity after the toggles", !/NaN|Infinity/.test(st[0]) && (name !== "empty" || !/before/.test(st[1])), st[1]);
		}
		check("diff: no exceptions", exceptions() === 0, String(exceptions()));
	} catch (e) {
		check("browser run", false, e.stack || String(e));
	} finally {
		await browser.close();
	}
	done();
})();
