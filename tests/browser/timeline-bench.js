// Browser timings of timelines for make bench: opening (navigation to
// the first painted frame), wheel steps on the detail view and drag steps
// on the overview's window, each timed with performance.now() in the page
// from the event to the end of drawing both views (a frame is painted
// between steps, untimed: waiting for it would measure the display's
// refresh, not our work), in headless Chromium; and the peak RSS of
// the page's process over one open (the largest VmHWM of the renderers,
// from /proc, "-" where there is none), in a browser started afresh for
// each file: opening the file again in that process keeps the old page
// while the new one loads, and its peak grows by the page each time.
//   node timeline-bench.js CHROMIUM LABEL=FILE.svg...
"use strict";
const { launch, openPage } = require("./cdp.js");

const [chromium, ...pairs] = process.argv.slice(2);

const measure = `(async () => {
	const paint = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
	await paint();
	const open = performance.now();
	const svg = document.querySelector("svg"), tl = svg.timeline;
	const canvases = svg.querySelectorAll("canvas"), ov = canvases[0], dt = canvases[1];
	const at = (c) => { const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + Math.min(r.height / 2, 40)]; };
	const time = async (f) => {
		const t0 = performance.now();
		f();
		tl.drawNow();
		const t = performance.now() - t0;
		await paint();
		return t;
	};
	/* Twelve wheel steps into the middle of the whole trace, then out. */
	const wheel = [];
	let [x, y] = at(dt);
	for (const dy of [-300, -300, -300, -300, -300, -300, 300, 300, 300, 300, 300, 300])
		wheel.push(await time(() => dt.dispatchEvent(new WheelEvent("wheel",
			{ deltaY: dy, clientX: x, clientY: y, bubbles: true, cancelable: true }))));
	/* A window of a tenth of the trace, dragged across the overview. */
	tl.setWindow(tl.total * 0.1, tl.total * 0.2);
	await paint();
	const drag = [];
	[x, y] = tl.ovPoint(tl.total * 0.15);
	ov.dispatchEvent(new MouseEvent("mousedown", { clientX: x, clientY: y, bubbles: true }));
	for (let i = 1; i <= 12; i++)
		drag.push(await time(() => window.dispatchEvent(new MouseEvent("mousemove",
			{ clientX: x + i * 40, clientY: y, bubbles: true }))));
	window.dispatchEvent(new MouseEvent("mouseup", { clientX: x + 480, clientY: y, bubbles: true }));
	const search = await time(() => tl.search("^fn_1"));
	wheel.sort((a, b) => a - b);
	drag.sort((a, b) => a - b);
	return { spans: tl.count, open, wheelMed: wheel[6], wheelMax: wheel[11],
		dragMed: drag[6], dragMax: drag[11], search };
})()`;

/* The largest peak RSS of the browser's renderers, in MB, or "-". */
async function rendererPeak(browser) {
	const { processInfo } = await browser.send("SystemInfo.getProcessInfo");
	let kb = -1;
	for (const p of processInfo.filter((x) => x.type === "renderer")) {
		try {
			const m = require("fs").readFileSync("/proc/" + p.id + "/status", "utf8").match(/VmHWM:\s+(\d+)/);
			if (m) kb = Math.max(kb, +m[1]);
		} catch (e) {
			// gone, or no /proc: no figure
		}
	}
	return kb < 0 ? "-" : (kb / 1024).toFixed(0);
}

(async () => {
	console.log("timeline".padEnd(16) + "spans".padStart(9) + "MB".padStart(7) + "open ms".padStart(9) +
		"wheel ms (med/max)".padStart(20) + "drag ms (med/max)".padStart(19) + "search ms".padStart(11) +
		"peak MB".padStart(9));
	for (const pair of pairs) {
		const eq = pair.indexOf("="), label = pair.slice(0, eq), file = pair.slice(eq + 1);
		const browser = launch(chromium);
		try {
			const page = await openPage(browser);
			await page.goto("file://" + file);
			const peak = await rendererPeak(browser);
			const runs = [];
			for (let i = 0; i < 3; i++) {
				await page.goto("file://" + file);
				runs.push(await page.eval(measure));
			}
			const best = (k) => Math.min(...runs.map(r => r[k])).toFixed(1);
			const mb = (require("fs").statSync(file).size / 1048576).toFixed(1);
			console.log(label.padEnd(16) + String(runs[0].spans).padStart(9) + mb.padStart(7) +
				best("open").padStart(9) + (best("wheelMed") + " / " + best("wheelMax")).padStart(20) +
				(best("dragMed") + " / " + best("dragMax")).padStart(19) + best("search").padStart(11) +
				peak.padStart(9));
		} finally {
			await browser.close();
		}
	}
})().catch(e => { console.error(e); process.exit(1); });
