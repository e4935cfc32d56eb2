// Browser tests of the flame graph's search box and history (issue 34)
// in headless Chromium, with the mouse and keys: typing searches, the
// count of matches and their share, Enter and Next / Previous zoom to
// each match, Match case, Escape clears; the in-graph buttons of
// flamegraph.pl are hidden; hostile names stay text in the box; Back
// and Forward step through zooms, views and transforms.  Prints
// "ok NAME" or "FAIL NAME: why" per check and "done", for tests/run.sh.
//   node search.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
const write = (name, text) => { const f = path.join(tmp, name); fs.writeFileSync(f, text); return f; };
const evil = "</script><script>alert(1)";
const file = write("search.svg", execFileSync(path.join(bin, "flamegraph-svg"),
	[write("search.folded", "main;a;b 30\nmain;c;b 20\nmain;B 10\nmain;" + evil + " 40\n")]));
const helpers = `
	window.T = {
		fg() { return document.documentElement.flamegraph; },
		box() { return document.querySelector(".tbar input[type=search]"); },
		count() { return document.querySelector(".tbar input[type=search]").parentNode.querySelector("label + span").textContent; },
		// The zoomed frame's stack: the frames across the width.
		zoomed() { return T.fg().frames().filter((f) => f.w > 1170 && f.state !== "hide").sort((a, b) => b.y - a.y).map((f) => f.name).join(";"); },
		button(text) {
			const b = Array.from(document.querySelectorAll("button, label")).find((e) => e.textContent === text);
			const r = b.getBoundingClientRect();
			return [r.x + r.width / 2, r.y + r.height / 2];
		},
	};`;

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const exceptions = () => page.events.filter((e) => e.method === "Runtime.exceptionThrown").length;
		const dialogs = () => page.events.filter((e) => e.method === "Page.javascriptDialogOpening").length;
		await page.goto("file://" + file);
		await page.eval(helpers);
		let a = await page.eval(`[".s", ".ic", ".u", ".m"].map((c) => getComputedStyle(document.querySelector(c)).display).join()`);
		check("flamegraph.pl's in-graph buttons hidden", a === "none,none,none,none", a);

		// Typed, the term searches; the count; Enter steps through the matches.
		await page.key("/", "Slash", 0, "/");
		await page.type("^b$");
		a = await page.eval(`[T.box().value, T.count(), T.fg().frames().filter((f) => f.hit).length, location.search]`);
		check("search box: typing searches, count and share shown", a[0] === "^b$" && a[1] === "2 matches, 50.0%" && a[2] === 2 && a[3] === "?s=%5Eb%24", a.join("|"));
		await page.key("Enter", "Enter", 0, "\r");
		const first = await page.eval(`[T.zoomed(), T.count()]`);
		let [x, y] = await page.eval(`T.button("Next")`);
		await page.click(x, y);
		const second = await page.eval(`[T.zoomed(), T.count()]`);
		check("search box: Enter and Next zoom to each match", /;b$/.test(first[0]) && /;b$/.test(second[0]) && first[0] !== second[0] &&
			first[1] === "1 of 2 matches, 50.0%" && second[1] === "2 of 2 matches, 50.0%", first.concat(second).join("|"));
		[x, y] = await page.eval(`T.button("Previous")`);
		await page.click(x, y);
		a = await page.eval(`T.zoomed()`);
		check("search box: Previous", a === first[0], a);

		// Back and Forward: through the zooms to the first view.
		await page.eval(`history.back()`);
		await page.eval(`new Promise((r) => setTimeout(r, 100))`);
		a = await page.eval(`T.zoomed()`);
		check("Back undoes a zoom", a === second[0], a + " vs " + second[0]);
		await page.eval(`history.forward()`);
		await page.eval(`new Promise((r) => setTimeout(r, 100))`);
		a = await page.eval(`T.zoomed()`);
		check("Forward redoes it", a === first[0], a);

		// Match case, spelled out; Escape clears.
		[x, y] = await page.eval(`T.button("Match case")`);
		await page.click(x, y);
		a = await page.eval(`[T.count(), document.querySelector(".tbar input[type=checkbox]").checked]`);
		check("search box: Match case off finds B too", a[0] === "3 matches, 60.0%" && a[1] === false, a.join("|"));
		await page.eval(`T.box().focus()`);
		await page.key("Escape", "Escape");
		a = await page.eval(`[T.box().value, T.count(), T.fg().frames().filter((f) => f.hit).length, /s=/.test(location.search)]`);
		check("search box: Escape clears", a[0] === "" && a[1] === "" && a[2] === 0 && !a[3], a.join("|"));

		// A hostile name stays text in the box, and from the URL.
		const term = evil.replace(/[()]/g, "\\$&");
		await page.key("/", "Slash", 0, "/");
		await page.type(term);
		const url = await page.eval(`location.href`);
		await page.goto(url);
		await page.eval(helpers);
		a = await page.eval(`[T.box().value, T.count(), document.querySelectorAll("script").length]`);
		check("hostile: the search box keeps it as text", a[0] === term && a[1] === "1 match, 40.0%" && a[2] <= 1 && dialogs() === 0, JSON.stringify(a));

		// Back through a view change and a transform.
		await page.goto("file://" + file);
		await page.eval(helpers);
		await page.eval(`T.fg().view("table")`);
		await page.eval(`T.fg().transform("merge", "a")`);
		await page.eval(`history.back()`);
		await page.eval(`new Promise((r) => setTimeout(r, 100))`);
		a = await page.eval(`[location.search, T.fg().frames().some((f) => f.name === "a")]`);
		check("Back undoes a transform", a[0] === "?v=table" && a[1], a.join("|"));
		await page.eval(`history.back()`);
		await page.eval(`new Promise((r) => setTimeout(r, 100))`);
		a = await page.eval(`[location.search, document.querySelector(".tbar button[aria-pressed=true]").textContent]`);
		check("Back undoes a view change", a[0] === "" && a[1] === "Flame graph", a.join("|"));
		check("no script exception", exceptions() === 0, exceptions() + " exceptions");
	} catch (e) {
		check("ran to the end", false, e.stack);
	} finally {
		browser.close();
	}
	done();
})();
