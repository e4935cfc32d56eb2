// Browser tests of the page's fit (issue 34) in headless Chromium: at
// 900, 1400 and 1920 pixels wide, a tall graph opens scrolled to its
// root with the toolbar in view, and the graph and the table are as wide
// as the window, measured from element boxes; a resize follows; the
// sandwich's halves have headings; a timeline with samples, its pane
// and its flame graph take the window's width too.  Leaves fit-900.png, fit-1400.png and
// fit-1920.png in TMP_DIR, to check by eye.  Prints "ok NAME" or
// "FAIL NAME: why" per check and "done", for tests/run.sh.
//   node layout.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
const write = (name, text) => { const f = path.join(tmp, name); fs.writeFileSync(f, text); return f; };

// 120 frames deep, taller than the window: it opens scrolled to its root.
let tall = "";
for (let i = 0, s = "main"; i < 120; i++) {
	s += ";f" + i;
	tall += s + " " + (1 + i) + "\n";
}
const file = write("tall.svg", execFileSync(path.join(bin, "flamegraph-svg"), [write("tall.folded", tall)]));
const paint = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`;
// The boxes: window, toolbar, the root's frame, the table.
const boxes = `(() => {
	const svg = document.documentElement, bar = document.querySelector(".tbar").getBoundingClientRect(),
		root = svg.flamegraph.frames()[0], m = svg.getScreenCTM(), tb = document.querySelector(".tb");
	return { scrollY, inner: innerHeight, cw: svg.clientWidth, svgw: svg.getBoundingClientRect().width, barTop: bar.top, barBottom: bar.bottom,
		barWidth: bar.width, rootLeft: m.e + root.x * m.a, rootRight: m.e + (root.x + root.w) * m.a, rootTop: m.f + root.y * m.d,
		table: tb && tb.getBoundingClientRect().width };
})()`;

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const exceptions = () => page.events.filter((e) => e.method === "Runtime.exceptionThrown").length;
		for (const w of [900, 1400, 1920]) {
			await page.resize(w, 900);
			await page.goto("file://" + file);
			await page.eval(paint);
			const b = await page.eval(boxes);
			fs.writeFileSync(path.join(tmp, "fit-" + w + ".png"), await page.screenshot());
			const why = JSON.stringify(b);
			check(w + " px: opens scrolled to the root", b.scrollY > 0 && b.rootTop > 0 && b.rootTop < b.inner, why);
			check(w + " px: the toolbar in view at the top", b.barTop === 0 && b.barBottom > 10 && b.barBottom < 100 && b.barWidth === b.cw, why);
			check(w + " px: the graph as wide as the window", b.cw > w - 30 && b.svgw === b.cw && Math.abs(b.rootLeft - 10) < 0.01 && Math.abs(b.rootRight - (b.cw - 10)) < 0.01, why);
			await page.eval(`document.documentElement.flamegraph.view("table")`);
			await page.eval(paint);
			const t = await page.eval(boxes);
			check(w + " px: the table as wide as the window", Math.abs(t.table - (t.cw - 20)) <= 2, JSON.stringify(t));
		}
		// A resize: the graph follows, the toolbar stays in view when scrolled.
		await page.goto("file://" + file);
		await page.resize(1100, 700);
		await page.eval(paint);
		let b = await page.eval(boxes);
		check("resize: the graph follows the window", b.cw > 1070 && b.cw <= 1100 && Math.abs(b.rootRight - (b.cw - 10)) < 0.01, JSON.stringify(b));
		await page.eval(`scrollTo(0, 200)`);
		await page.eval(paint);
		b = await page.eval(boxes);
		check("scrolled: the toolbar stays at the window's top", b.scrollY === 200 && b.barTop === 0, JSON.stringify(b));

		// The sandwich's headings.
		await page.eval(`document.documentElement.flamegraph.select("f3"); document.documentElement.flamegraph.view("sandwich")`);
		const heads = await page.eval(`Array.from(document.querySelectorAll("text")).filter((t) => /^Calle[re]s of /.test(t.textContent) && t.style.display !== "none").map((t) => t.textContent).join("|")`);
		check("sandwich: halves headed Callers and Callees", heads === "Callers of f3|Callees of f3", heads);

		// A timeline with samples: its overview, detail view, pane and the
		// samples' flame graph as wide as the window, at 900 and 1920 px
		// and after a resize; the file keeps its 1200 for the picture
		// without scripts.
		const tl = write("fit-timeline.svg", execFileSync(path.join(bin, "flamegraph-svg"),
			{ input: execFileSync(path.join(bin, "spanlayout"), [path.join(__dirname, "..", "inputs", "spanprof.spans")]) }));
		const tlBoxes = `(() => {
			const svg = document.documentElement, box = (e) => e && e.getBoundingClientRect(), g = svg.timeline.sampleGraph(),
				canvases = Array.from(svg.querySelectorAll(".tlv canvas")).map((c) => box(c).width),
				root = g && g.flamegraph.frames()[0], m = g && g.getScreenCTM();
			return { cw: svg.clientWidth, svgw: box(svg).width, ovb: box(svg.querySelector(".ovb")).width, canvases: canvases,
				pane: box(svg.querySelector("[aria-label='Selected span']")).width, graph: g && box(g).width,
				rootLeft: root && m.e + root.x * m.a, rootRight: root && m.e + (root.x + root.w) * m.a };
		})()`;
		const wide = (b, w) => b.cw > w - 30 && b.svgw === b.cw && Math.abs(b.ovb - (b.cw - 20)) <= 1 &&
			b.canvases.length === 2 && b.canvases.every((c) => Math.abs(c - b.cw) <= 1) && Math.abs(b.pane - (b.cw - 20)) <= 1 &&
			Math.abs(b.graph - b.cw) <= 1 && Math.abs(b.rootLeft - 10) < 0.5 && Math.abs(b.rootRight - (b.cw - 10)) < 0.5;
		check("timeline: the file keeps its width for the picture without scripts",
			/<svg [^>]*width="1200"[^>]*viewBox="0 0 1200 /.test(fs.readFileSync(tl, "utf8")));
		for (const w of [900, 1920]) {
			await page.resize(w, 900);
			await page.goto("file://" + tl);
			await page.eval(`document.documentElement.timeline.select("request")`);
			await page.eval(paint);
			const t = await page.eval(tlBoxes);
			fs.writeFileSync(path.join(tmp, "fit-timeline-" + w + ".png"), await page.screenshot());
			check(w + " px: the timeline, its pane and flame graph as wide as the window", wide(t, w), JSON.stringify(t));
		}
		await page.resize(1100, 900);
		await page.eval(paint);
		const t = await page.eval(tlBoxes);
		check("resize: the timeline and its flame graph follow the window", t.cw <= 1100 && wide(t, 1100), JSON.stringify(t));
		check("no script exception", exceptions() === 0, exceptions() + " exceptions");
	} catch (e) {
		check("ran to the end", false, e.stack);
	} finally {
		browser.close();
	}
	done();
})();
