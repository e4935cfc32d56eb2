// Our files opened in speedscope's own app (the built app its npm package
// ships), in headless Chromium: the app is served from its folder by
// Node's http with our files beside it, each loaded through the
// #profileURL= hash, as a user's link would.
//  - stackcollapse --to=speedscope: read by speedscope's importer with no
//    error shown, thrown or logged, its name in the toolbar, and in the
//    sandwich view (the one that lists functions as page text, not on a
//    canvas) every frame name, hostile ones as text (no dialog opens),
//    with each total and self as the folded input says, in --unit's unit;
//  - spanlayout --to=chrome: read as a Trace Event Format profile, a
//    profile per track, the span names clean (speedscope appends an
//    event's args to its name: ours carry none) and their times right.
// Prints "ok NAME" or "FAIL NAME: why" per check and "done".
//   node speedscope.test.js BIN_DIR TMP_DIR SPEEDSCOPE_PACKAGE_DIR INPUT_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const http = require("http");
const path = require("path");
const { launch, openPage } = require("./cdp.js");

const [bin, tmp, pkg, inputs, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
function check(name, ok, why) {
	console.log((ok ? "ok " : "FAIL ") + "speedscope app: " + name + (ok || !why ? "" : ": " + why));
}

// Names a browser could take for markup or script, and plain ones.
const folded = [
	"main;parse;</script><script>alert(1) 5",
	"main;parse;lex 3",
	"main;\"quoted\" & <b>bold</b>;caf\u00e9 \u20ac 2",
	"main;work 7",
	"idle 1",
].join("\n") + "\n";
fs.writeFileSync(path.join(tmp, "speedscope.json"), execFileSync(path.join(bin, "stackcollapse"),
	["--format=folded", "--to=speedscope", "--unit=milliseconds"], { input: folded }));
fs.writeFileSync(path.join(tmp, "trace.json"), execFileSync(path.join(bin, "spanlayout"),
	["--to=chrome", path.join(inputs, "small.spans")]));

const app = path.join(pkg, "dist", "release");
const ours = { "/profile.json": "speedscope.json", "/trace.json": "trace.json" };
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
	".json": "application/json", ".wasm": "application/wasm", ".png": "image/png",
	".woff2": "font/woff2", ".ico": "image/x-icon", ".txt": "text/plain" };
const server = http.createServer((req, res) => {
	const u = decodeURIComponent(new URL(req.url, "http://x").pathname);
	const file = ours[u] ? path.join(tmp, ours[u]) :
		path.join(app, path.normalize(u === "/" ? "/index.html" : u));
	if (!ours[u] && !file.startsWith(app + path.sep)) { res.writeHead(403); res.end(); return; }
	fs.readFile(file, (err, data) => {
		if (err) { res.writeHead(404); res.end(); return; }
		res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
		res.end(data);
	});
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Open url's file in the app; wait for title in the toolbar.  Returns the
// page text, the console lines and the exceptions thrown.
async function load(browser, base, file, title) {
	const page = await openPage(browser);
	await page.goto(base + "/index.html#profileURL=" + encodeURIComponent(base + file));
	let text = "";
	for (let i = 0; i < 200 && !title.test(text); i++) {
		await sleep(100);
		text = await page.eval("document.body.innerText");
	}
	const logs = page.events.filter((e) => e.method === "Runtime.consoleAPICalled")
		.map((e) => e.params.type + " " + e.params.args.map((a) => a.value).join(" "));
	const thrown = page.events.filter((e) => e.method === "Runtime.exceptionThrown");
	return { page, text, logs, thrown };
}

// The sandwich view's rows: name -> [total, self], numbers as shown.
async function sandwich(page) {
	await page.eval(`[...document.querySelectorAll("div,span,button")]
		.find((e) => e.textContent.endsWith("Sandwich") && e.children.length < 3).click()`);
	for (let i = 0; i < 50; i++) {
		await sleep(100);
		const text = await page.eval("document.body.innerText");
		const at = text.indexOf("Total\tSelf\tSymbol Name\n");
		if (at < 0) continue;
		const l = text.slice(at).split("\n").slice(1).map((x) => x.replace(/^\t/, ""));
		const rows = new Map();
		for (let k = 0; k + 2 < l.length; k += 3)
			rows.set(l[k + 2], [l[k], l[k + 1]]);
		return { rows, text };
	}
	return { rows: null, text: "" };
}

function clean(what, l) {
	check(what + ": nothing thrown", l.thrown.length === 0,
		l.thrown.length ? JSON.stringify(l.thrown[0].params.exceptionDetails).slice(0, 300) : "");
	const errs = l.logs.filter((x) => /^(error|warning|assert)/.test(x));
	check(what + ": no error or warning logged", errs.length === 0, JSON.stringify(errs));
	check(what + ": no error shown", !/wrong|error|failed|unrecognized/i.test(l.text), JSON.stringify(l.text));
}

(async () => {
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const base = "http://127.0.0.1:" + server.address().port;
	const browser = launch(chromium);
	try {
		// stackcollapse --to=speedscope
		let l = await load(browser, base, "/profile.json", /\nstackcollapse\n/);
		check("speedscope file: its name in the toolbar", /\nstackcollapse\n/.test(l.text), JSON.stringify(l.text));
		check("speedscope file: read by speedscope's own importer, not a fallback",
			l.logs.includes("log Importing as speedscope json file"), JSON.stringify(l.logs));
		clean("speedscope file", l);
		let s = await sandwich(l.page);
		check("speedscope file: the sandwich view lists the functions", s.rows !== null, JSON.stringify(l.text));
		// [total, self] per name, in ms, from the folded lines above.
		let want = { main: [17, 0], parse: [8, 0], "</script><script>alert(1)": [5, 5],
			lex: [3, 3], "\"quoted\" & <b>bold</b>": [2, 0], "caf\u00e9 \u20ac": [2, 2],
			work: [7, 7], idle: [1, 1] };
		let rows = s.rows || new Map();
		for (const n of Object.keys(want)) {
			const r = rows.get(n);
			check("speedscope file: " + JSON.stringify(n) + " with its total and self",
				r && parseFloat(r[0]) === want[n][0] && parseFloat(r[1]) === want[n][1], JSON.stringify(r));
		}
		check("speedscope file: no other name", rows.size === Object.keys(want).length, JSON.stringify([...rows.keys()]));
		check("speedscope file: in milliseconds, as --unit said", rows.get("work") && rows.get("work")[0].startsWith("7.00ms"),
			JSON.stringify(rows.get("work")));
		const dialogs = l.page.events.filter((e) => e.method === "Page.javascriptDialogOpening").length;
		check("speedscope file: hostile names run nothing", dialogs === 0, dialogs + " dialogs");

		// spanlayout --to=chrome: small.spans's tid:1, in nanoseconds.
		l = await load(browser, base, "/trace.json", /\(1\/2\)/);
		check("chrome trace: a profile per track, the first tid:1",
			/\ntid:1 \(pid 1, tid 1\) \(1\/2\)\n/.test(l.text), JSON.stringify(l.text));
		check("chrome trace: read as Trace Event Format",
			l.logs.includes("log Importing as Trace Event Format profile"), JSON.stringify(l.logs));
		clean("chrome trace", l);
		s = await sandwich(l.page);
		// main 1000 ns; parse 400 (lex 100 in it); exec 300 (lex 50); async 200
		want = { main: "1.00\u00b5s", parse: "400.00ns", exec: "300.00ns", lex: "150.00ns", async: "200.00ns" };
		rows = s.rows || new Map();
		for (const n of Object.keys(want)) {
			const r = rows.get(n);
			check("chrome trace: " + n + ", total " + want[n], r && r[0].startsWith(want[n]), JSON.stringify(r));
		}
		check("chrome trace: names as written, nothing appended", rows.size === Object.keys(want).length,
			JSON.stringify([...rows.keys()]));
	} finally {
		await browser.close();
		server.close();
	}
	console.log("done");
})().catch((e) => { console.log("FAIL speedscope app: " + e.message); process.exit(1); });
