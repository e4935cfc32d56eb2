// Browser tests of flamegraph-svg --diff's SVGs in headless Chromium: the
// script's titles, places and fills, made from the data, are the static
// file's (with and without --normalize, --factor, fractional counts,
// frames on one side only, --diff-width=max, --reverse); hovering a frame
// shows its diff title; the legend is drawn; an icicle's rows start below
// the subtitle and the legend.  Prints "ok NAME" or "FAIL
// NAME: why" per check and "done" at the end, for tests/run.sh.
//   node diff.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
let failures = 0;
function check(name, ok, why) {
	if (ok) console.log("ok " + name);
	else { failures++; console.log("FAIL " + name + (why ? ": " + why : "")); }
}

// One three-column input on stdin (--diff detects it), drawn with args.
function svgOf(name, diff, args) {
	const file = path.join(tmp, "diff-" + name + ".svg");
	fs.writeFileSync(file, execFileSync(path.join(bin, "flamegraph-svg"), ["--diff"].concat(args || []), { input: diff }));
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
			return [f.x + f.w / 2, f.y + 5]; })()`);
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
	} catch (e) {
		check("browser run", false, e.stack || String(e));
	} finally {
		await browser.close();
	}
	console.log("done");
	process.exit(failures ? 1 : 0);
})();
