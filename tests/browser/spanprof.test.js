// Browser tests of a span profile's flame graphs in the timeline
// (spanflame.js), with the mouse and keys: a click on a span shows the
// flame graph of its samples, Self only and Every NAME change what is
// summed, a drag in the overview gives a window's, the graph's search,
// menu and URL state are flamegraph-svg's own, keys go to the graph
// last used, two selections compare as --diff's graph and table, and
// hostile span and function names stay text.  The input
// is tests/inputs/spanprof.spans, and a real recording of
// tests/sample/spanprof.c if one is given (laid out by spanlayout).
// Prints "ok NAME" or "FAIL NAME: why" per check and "done" at the end.
//   node spanprof.test.js BIN_DIR TMP_DIR INPUT [CHROMIUM [RECORDING]]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");

const [bin, tmp, input, chromium = "/usr/bin/chromium", recording] = process.argv.slice(2);
const svgOf = (laid, name) => {
	const file = path.join(tmp, name);
	fs.writeFileSync(file, execFileSync(path.join(bin, "flamegraph-svg"), [], { input: laid }));
	return file;
};
const file = svgOf(execFileSync(path.join(bin, "spanlayout"), [input]), "spanprof.svg");

// In the page: the flame graph's names by self count, largest first, from
// its frames as drawn (a frame's callees are the frames of the next row
// inside it); and the share of the root's count in frames of a name.
const G = "document.querySelector('svg').timeline.sampleGraph()";
const SELF = `(() => { const fr = ${G}.flamegraph.frames().filter((f) => f.state !== "hide"), self = {};
	fr.forEach((f) => { const kids = fr.filter((k) => Math.abs(k.y - f.y - f.h - 1) < 0.01 && k.x >= f.x - 0.01 && k.x + k.w <= f.x + f.w + 0.01);
		self[f.name] = (self[f.name] || 0) + f.n - kids.reduce((a, k) => a + k.n, 0); });
	return Object.entries(self).filter((e) => e[1] > 0).sort((a, b) => b[1] - a[1]).map((e) => e[0]); })()`;
const SHARE = (name) => `(() => { const fr = ${G}.flamegraph.frames(), all = fr.find((f) => f.name === "all").n;
	return fr.filter((f) => f.name === ${JSON.stringify(name)}).reduce((a, f) => a + f.n, 0) / all; })()`;

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const dialogs = () => page.events.filter((e) => e.method === "Page.javascriptDialogOpening").length;
		const errors = () => page.events.filter((e) => e.method === "Runtime.exceptionThrown");
		await page.goto("file://" + file);
		const T = "document.querySelector('svg').timeline";
		const ev = (expr) => page.eval(T + "." + expr);
		const frame = () => page.eval("new Promise((r) => requestAnimationFrame(() => r()))");
		const button = async (label) => {
			const p = await page.eval(`(() => { const b = [...document.querySelectorAll("button")].find((b) => b.textContent === ${JSON.stringify(label)});
				if (!b) return null; b.scrollIntoView({ block: "center" }); const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
			if (p) await page.click(p[0], p[1]);
			return p !== null;
		};
		check("no samples' line before a click", await ev("samples()") === "" && await ev("sampleGraph()") === null);

		// A click on parse: its two samples, the widest leaf parse_work.
		let [x, y] = await ev(`spanPoint("parse")`);
		await page.click(x, y);
		await frame();
		check("click: the samples' line says how many", await ev("samples()") ===
			"Samples: 2 (2.00 µs) in span parse, its children included  too few to read as a profile   [Self only] [Every parse] [Set as A] [Close]",
			JSON.stringify(await ev("samples()")));
		check("click: the pane counts the span's samples", (await ev("panel()")).includes("Samples: 2 (2 in the span itself, 0 in its children)"),
			JSON.stringify(await ev("panel()")));
		let self = await page.eval(SELF);
		check("click on parse: the widest leaf is parse_work", self[0] === "parse_work" && self.length === 1, JSON.stringify(self));

		// request: its children's samples too; Self only: its own.
		[x, y] = await ev(`spanPoint("request")`);
		await page.click(x, y);
		await frame();
		self = await page.eval(SELF);
		check("click on request: its children's samples", JSON.stringify(self.slice().sort()) ===
			JSON.stringify(["[off-cpu]", "handle", "parse_work", "query_cpu", "render_work"]), JSON.stringify(self));
		check("weights count: the 4 µs asleep is the widest", self[0] === "[off-cpu]", JSON.stringify(self));
		await button("Self only");
		await frame();
		self = await page.eval(SELF);
		check("Self only: the samples of request itself", JSON.stringify(self) === '["handle"]' &&
			/^Samples: 1 .* in span request, itself only/.test(await ev("samples()")), JSON.stringify(self) + " " + await ev("samples()"));
		check("Self only is in the URL", /[?&]fg=self(&|$)/.test(await page.eval("location.search")), await page.eval("location.search"));
		await button("Self only");
		await frame();

		// Every span of a name, summed.
		[x, y] = await ev(`spanPoint("query")`);
		await page.click(x, y);
		await button("Every query");
		await frame();
		check("Every query: every span of the name", /^Samples: 2 .* in every span query, children included/.test(await ev("samples()")),
			await ev("samples()"));

		// The flame graph's own search, with its keys: the one last used gets them.
		const g = await page.eval(`(() => { const r = ${G}.querySelector("canvas").getBoundingClientRect(); return [r.x + 100, r.y + 8]; })()`);
		await page.mouse("mouseMoved", g[0], g[1]);
		await page.click(g[0], g[1]);
		await page.key("f", "KeyF", 2);
		await page.type("query");
		await frame();
		check("Ctrl-F in the flame graph searches it, not the timeline",
			(await page.eval(`${G}.flamegraph.frames()`)).some((f) => f.hit) && await ev("matched()") === "",
			await ev("matched()"));
		check("the flame graph's search is in the URL as f.s", /[?&]f\.s=query(&|$)/.test(await page.eval("location.search")),
			await page.eval("location.search"));

		// The URL reopens the source and the graph's state.
		const url = await page.eval("location.href");
		await page.goto(url);
		await frame();
		check("a link reopens the name's flame graph and its search", /in every span query/.test(await ev("samples()")) &&
			(await page.eval(`${G}.flamegraph.frames()`)).some((f) => f.hit), await ev("samples()"));

		// Right-click: the flame graph's menu.
		const q = await page.eval(`(() => { const f = ${G}.flamegraph.frames().find((f) => f.name === "query_cpu"), m = ${G}.getScreenCTM();
			return [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d]; })()`);
		await page.mouse("mouseMoved", q[0], q[1]);
		await page.mouse("mousePressed", q[0], q[1], { button: "right" });
		await page.mouse("mouseReleased", q[0], q[1], { button: "right" });
		check("right-click: the frame menu", await page.eval(`${G}.querySelectorAll("[role=menuitem]").length`) > 4);
		await page.key("Escape", "Escape");
		check("Escape in the flame graph clears its search, not the timeline's selection",
			!(await page.eval(`${G}.flamegraph.frames()`)).some((f) => f.hit) && await ev("selected()") === "query");

		// A window dragged out in the overview: every track's samples, the
		// hostile function name among them as text.
		await page.goto("file://" + file);
		const [ax, ay] = await ev("ovPoint(0)"), [bx] = await ev("ovPoint(30000)");
		await page.mouse("mouseMoved", ax, ay);
		await page.mouse("mousePressed", ax, ay, { modifiers: 8 });
		await page.mouse("mouseMoved", (ax + bx) / 2, ay, { buttons: 1 });
		await page.mouse("mouseMoved", bx, ay, { buttons: 1 });
		await page.mouse("mouseReleased", bx, ay);
		await frame();
		check("overview drag: the window's samples, every track", /^Samples: 8 .* every track/.test(await ev("samples()")),
			await ev("samples()"));
		const names = (await page.eval(`${G}.flamegraph.frames()`)).map((f) => f.name);
		check("a hostile function name is a frame's text", names.includes("</script><script>alert(2)"), JSON.stringify(names));
		await page.eval(`${G}.flamegraph.view("table")`);
		await frame();
		check("hostile names stay text: no dialog, no element made of them",
			dialogs() === 0 && await page.eval(`document.querySelectorAll("svg script:not([type])").length`) <= 1,
			dialogs() + " dialogs");
		[x, y] = await ev(`spanPoint("</script><script>alert(1)")`);
		await page.click(x, y);
		await frame();
		check("a hostile span name stays text in the samples' line",
			(await ev("samples()")).includes("in span </script><script>alert(1), its children included") && dialogs() === 0,
			await ev("samples()"));
		await button("Close");
		await frame();
		check("Close hides the flame graph", await ev("sampleGraph()") === null && await ev("samples()") === "");
		check("no script errors", errors().length === 0, errors().length ? JSON.stringify(errors()[0].params.exceptionDetails).slice(0, 400) : "");

		// Two selections compared: every parse span as A, every render span
		// as B, as a differential flame graph whose before and after are
		// those of stackcollapse --span='^parse$' and --span='^render$'.
		await page.goto("file://" + file);
		[x, y] = await ev(`spanPoint("parse")`);
		await page.click(x, y);
		await button("Every parse");
		check("Set as A is offered", await button("Set as A"));
		await frame();
		check("A is in the URL", /[?&]fa=name%3Aparse(&|$)/.test(await page.eval("location.search")), await page.eval("location.search"));
		[x, y] = await ev(`spanPoint("render")`);
		await page.click(x, y);
		await button("Every render");
		check("Compare with A is offered", await button("Compare with A"));
		await frame();
		const want = {};
		["parse", "render"].forEach((s, side) => execFileSync(path.join(bin, "stackcollapse"), ["--span=^" + s + "$", input])
			.toString().trim().split("\n").forEach((l) => {
				const m = /^(.*) (\d+)$/.exec(l), st = m[1].split(";"), n = +m[2];
				[...new Set(st)].forEach((f) => { want[f] = want[f] || [0, 0, 0, 0]; want[f][2 * side + 1] += n; });
				want[st[st.length - 1]][2 * side] += n;
			}));
		const D = "document.querySelector('svg').timeline.diffGraph()";
		const diffTable = async () => Object.fromEntries((await page.eval(`(${D}.flamegraph.view("table"), ${D}.flamegraph.table())`)).filter((r) => r[0] !== "all").map((r) => [r[0], r.slice(1, 5)]));
		const dframes = await page.eval(`${D}.flamegraph.frames().filter((f) => f.state !== "hide").map((f) => [f.name, f.title, f.fill])`);
		const pw = dframes.find((f) => f[0] === "parse_work"), rw = dframes.find((f) => f[0] === "render_work");
		check("compare: both sides' frames drawn, titled and coloured as --diff's",
			pw && rw && /only in before: 2,000 ns/.test(pw[1]) && /only in after: 1,000 ns/.test(rw[1]) &&
			pw[2] === "#32aa50" && rw[2] === "#e63c32" && await ev("sampleGraph()") === null,
			JSON.stringify(dframes));
		let got = await diffTable();
		check("compare: the diff table's self and total, before and after, are stackcollapse --span's",
			JSON.stringify(Object.keys(got).sort()) === JSON.stringify(Object.keys(want).sort()) &&
			Object.keys(want).every((f) => JSON.stringify(got[f]) === JSON.stringify(want[f])),
			JSON.stringify(got) + " want " + JSON.stringify(want));
		check("compare: the line says which is A and which B", /^A, before: 2 samples in every span parse, children included\.  B, after: 1 samples in every span render/
			.test((await ev("samples()")).split("[Close]")[1] || ""), await ev("samples()"));
		check("the comparison is in the URL", /[?&]fc=1(&|$)/.test(await page.eval("location.search")), await page.eval("location.search"));
		await page.goto(await page.eval("location.href"));
		await frame();
		got = await diffTable();
		check("a link reopens the comparison and its view", await ev("diffGraph()") !== null && got.parse_work &&
			JSON.stringify(got.parse_work) === JSON.stringify(want.parse_work) && /[?&]d\.v=table(&|$)/.test(await page.eval("location.search")),
			await page.eval("location.search"));
		await button("Compare with A");
		await frame();
		check("Compare with A again: B's own flame graph", await ev("diffGraph()") === null && await ev("sampleGraph()") !== null);
		// A hostile span as B: its names text in the line, the graph and the table.
		[x, y] = await ev(`spanPoint("</script><script>alert(1)")`);
		await page.click(x, y);
		await button("Compare with A");
		await frame();
		const hn = Object.keys(await diffTable());
		check("compare: hostile names stay text", hn.includes("</script><script>alert(2)") && dialogs() === 0 &&
			(await ev("samples()")).includes("in span </script><script>alert(1), its children included") &&
			await page.eval(`document.querySelectorAll("svg script:not([type])").length`) <= 1, JSON.stringify(hn));
		check("no script errors in the comparison", errors().length === 0, errors().length ? JSON.stringify(errors()[0].params.exceptionDetails).slice(0, 400) : "");

		// A real recording of tests/sample/spanprof.c: the first parse span's
		// samples are parse_work's.
		if (recording) {
			await page.goto("file://" + svgOf(fs.readFileSync(recording), "spanprof-rec.svg"));
			await ev("select('parse')");
			await frame();
			const share = await page.eval(SHARE("parse_work"));
			check("recording: a parse span's samples are parse_work's", share >= 0.9, share + " " + await ev("samples()"));
			await button("Every parse");
			await frame();
			const all = await page.eval(SHARE("parse_work"));
			check("recording: every parse span, 90% in parse_work", all >= 0.9, all + " " + await ev("samples()"));
		}
	} catch (e) {
		check("exception", false, String(e && e.stack || e));
	} finally {
		await browser.close();
	}
	done();
})();
