// stackcollapse --to=speedscope opened in speedscope's own app (the built
// app its npm package ships), in headless Chromium: the app is served
// from its folder by Node's http with our file beside it and loaded
// through the #profileURL= hash, as a user's link would.  The profile
// must load with no error shown or thrown, its name in the toolbar, and
// in the sandwich view (the one that lists functions as page text, not
// on a canvas) every frame name, hostile ones as text (no dialog opens),
// with each self and total as the folded input says.
// Prints "ok NAME" or "FAIL NAME: why" per check and "done".
//   node speedscope.test.js BIN_DIR TMP_DIR SPEEDSCOPE_PACKAGE_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const http = require("http");
const path = require("path");
const { launch, openPage } = require("./cdp.js");

const [bin, tmp, pkg, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
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
const names = ["main", "parse", "</script><script>alert(1)", "lex",
	"\"quoted\" & <b>bold</b>", "caf\u00e9 \u20ac", "work", "idle"];
const profile = execFileSync(path.join(bin, "stackcollapse"),
	["--format=folded", "--to=speedscope", "--unit=milliseconds"], { input: folded });
fs.writeFileSync(path.join(tmp, "speedscope.json"), profile);

const app = path.join(pkg, "dist", "release");
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
	".json": "application/json", ".wasm": "application/wasm", ".png": "image/png",
	".woff2": "font/woff2", ".ico": "image/x-icon", ".txt": "text/plain" };
const server = http.createServer((req, res) => {
	const u = decodeURIComponent(new URL(req.url, "http://x").pathname);
	const file = u === "/profile.json" ? path.join(tmp, "speedscope.json") :
		path.join(app, path.normalize(u === "/" ? "/index.html" : u));
	if (!file.startsWith(app) && u !== "/profile.json") { res.writeHead(403); res.end(); return; }
	fs.readFile(file, (err, data) => {
		if (err) { res.writeHead(404); res.end(); return; }
		res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
		res.end(data);
	});
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const base = "http://127.0.0.1:" + server.address().port;
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		await page.goto(base + "/index.html#profileURL=" + encodeURIComponent(base + "/profile.json"));
		let text = "";
		for (let i = 0; i < 200 && !/stackcollapse/.test(text); i++) {
			await sleep(100);
			text = await page.eval("document.body.innerText");
		}
		const logs = page.events.filter((e) => e.method === "Runtime.consoleAPICalled")
			.map((e) => e.params.type + " " + e.params.args.map((a) => a.value).join(" "));
		const thrown = page.events.filter((e) => e.method === "Runtime.exceptionThrown");
		const dialogs = () => page.events.filter((e) => e.method === "Page.javascriptDialogOpening").length;
		check("the profile loads: its name in the toolbar", /\nstackcollapse\n/.test(text), JSON.stringify(text));
		check("read by its speedscope importer, not a fallback",
			logs.includes("log Importing as speedscope json file"), JSON.stringify(logs));
		check("nothing thrown", thrown.length === 0,
			thrown.length ? JSON.stringify(thrown[0].params.exceptionDetails).slice(0, 300) : "");
		const errs = logs.filter((l) => /^(error|warning|assert)/.test(l));
		check("no error or warning logged", errs.length === 0, JSON.stringify(errs));
		check("no error shown", !/wrong|error|failed|unrecognized/i.test(text), JSON.stringify(text));

		// The sandwich view: a row per function, total, self and name.
		await page.eval(`[...document.querySelectorAll("div,span,button")]
			.find((e) => e.textContent.endsWith("Sandwich") && e.children.length < 3).click()`);
		let rows = null;
		for (let i = 0; i < 50 && !rows; i++) {
			await sleep(100);
			text = await page.eval("document.body.innerText");
			const at = text.indexOf("Total\tSelf\tSymbol Name\n");
			if (at >= 0) {
				const l = text.slice(at).split("\n").slice(1).map((x) => x.replace(/^\t/, ""));
				rows = new Map();
				for (let k = 0; k + 2 < l.length; k += 3)
					rows.set(l[k + 2], [parseFloat(l[k]), parseFloat(l[k + 1])]);
			}
		}
		// [total, self] per name, in ms, from the folded lines above.
		const want = { main: [17, 0], parse: [8, 0], "</script><script>alert(1)": [5, 5],
			lex: [3, 3], "\"quoted\" & <b>bold</b>": [2, 0], "caf\u00e9 \u20ac": [2, 2],
			work: [7, 7], idle: [1, 1] };
		check("sandwich view lists the functions", rows !== null, JSON.stringify(text));
		rows = rows || new Map();
		for (const n of names) {
			const r = rows.get(n);
			check("sandwich: " + JSON.stringify(n) + " with its total and self",
				r && r[0] === want[n][0] && r[1] === want[n][1], JSON.stringify(r));
		}
		check("sandwich: no other name", rows.size === names.length, JSON.stringify([...rows.keys()]));
		check("in milliseconds, as --unit said", /7\.00ms/.test(text), JSON.stringify(text));
		check("hostile names run nothing", dialogs() === 0, dialogs() + " dialogs");
	} finally {
		await browser.close();
		server.close();
	}
	console.log("done");
})().catch((e) => { console.log("FAIL speedscope app: " + e.message); process.exit(1); });
