// Browser timings for make bench: load to first render (to the load
// event, or to the script's start if later: it marks its <svg>
// data-ready), one click-zoom and one search, measured with performance.now() in the page (each
// action waits for the next frame to be painted), in headless Chromium;
// for our SVGs also the views (issue 17), each a click on its button:
// open the table, sort it by total, select its first row, open the
// sandwich, switch to the flame graph and to Both; for a --diff graph
// (issue 18) also its toggles, each a click: the width to before, to max,
// the palette, and the table sorted by Total Δ.
//   node bench.js CHROMIUM LABEL=FILE.svg...
"use strict";
const { launch, openPage } = require("./cdp.js");

const [chromium, ...pairs] = process.argv.slice(2);

// Runs in the page once it has settled: click the widest frame below the
// root, search a name, each timed until the following paint.
const measure = `(async () => {
	const paint = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
	/* The widest frames are at the bottom: scroll there, as a user would. */
	window.scrollTo(0, document.documentElement.scrollHeight);
	await paint();
	await new Promise(r => setTimeout(r, 500));
	const svg = document.querySelector("svg");
	let boxes;
	if (svg.flamegraph) {
		const m = svg.getScreenCTM();
		boxes = svg.flamegraph.frames().filter(f => f.state !== "hide").map(f =>
			({ w: f.w, x: m.e + (f.x + f.w / 2) * m.a, y: m.f + (f.y + f.h / 2) * m.d }));
	} else {
		const titles = Array.from(document.querySelectorAll("title"));
		boxes = titles.filter(t => / \\(\\d[\\d,]* \\w+, /.test(t.textContent)).map(t => {
			const r = t.parentNode.querySelector("rect").getBoundingClientRect();
			return { w: r.width, x: r.x + r.width / 2, y: r.y + r.height / 2 };
		});
	}
	boxes.sort((a, b) => b.w - a.w);
	const target = boxes[1] || boxes[0];
	let t0 = performance.now();
	document.elementFromPoint(target.x, target.y).dispatchEvent(new MouseEvent("click",
		{ bubbles: true, clientX: target.x, clientY: target.y }));
	await paint();
	const zoom = performance.now() - t0;
	const term = "^[a-m]";
	t0 = performance.now();
	if (svg.flamegraph) svg.flamegraph.search(term); else search(term);
	await paint();
	const search_ms = performance.now() - t0;
	const nav = performance.getEntriesByType("navigation")[0];
	const r = { frames: boxes.length, load: nav ? Math.max(nav.loadEventEnd, window.readyAt || 0) : NaN, zoom, search: search_ms };
	if (svg.flamegraph && svg.flamegraph.view) {
		svg.flamegraph.resetSearch();
		svg.flamegraph.unzoom();
		await paint();
		const click = async (k, find) => {
			const b = find();
			t0 = performance.now();
			b.dispatchEvent(new MouseEvent("click", { bubbles: true }));
			await paint();
			r[k] = performance.now() - t0;
		};
		const button = (text) => () => Array.from(svg.querySelectorAll("button")).find((b) => b.textContent.startsWith(text));
		await click("table", button("Table"));
		await click("sort", button("Total"));
		await click("select", () => svg.querySelector(".tb [data-i] span"));
		await click("sandwich", button("Sandwich"));
		await click("flame", button("Flame graph"));
		await click("both", button("Both"));
		if (button("Width")()) {
			await click("before", button("Width"));
			await click("max", button("Width"));
			await click("palette", button("Palette"));
			await click("dsort", button("Total Δ"));
		}
	}
	return r;
})()`;

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		/* When a graph's script has started: after its first draw, as
		 * the loader sets data-ready then. */
		await page.onNewDocument(`new MutationObserver((l, o) => {
			if (l.some((m) => m.attributeName === "data-ready")) { window.readyAt = performance.now(); o.disconnect(); }
		}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });`);
		/* Warm up the browser, so that whichever graph comes first is not
		 * charged for it. */
		for (const pair of pairs) await page.goto("file://" + pair.slice(pair.indexOf("=") + 1));
		const views = ["table", "sort", "select", "sandwich", "flame", "both", "before", "max", "palette", "dsort"];
		console.log("graph".padEnd(34) + "frames".padStart(8) + "load ms".padStart(10) +
			"zoom ms".padStart(10) + "search ms".padStart(11) + views.map((v) => v.padStart(9)).join(""));
		for (const pair of pairs) {
			const eq = pair.indexOf("="), label = pair.slice(0, eq), file = pair.slice(eq + 1);
			const runs = [];
			for (let i = 0; i < 3; i++) {
				await page.goto("file://" + file);
				runs.push(await page.eval(measure));
			}
			const best = (k) => Math.min(...runs.map(r => r[k])).toFixed(1);
			console.log(label.padEnd(34) + String(runs[0].frames).padStart(8) +
				best("load").padStart(10) + best("zoom").padStart(10) + best("search").padStart(11) +
				views.map((v) => (runs[0][v] === undefined ? "-" : best(v)).padStart(9)).join(""));
		}
	} finally {
		await browser.close();
	}
})().catch(e => { console.error(e); process.exit(1); });
