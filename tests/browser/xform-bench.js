// The time of each transform in the graph (issue 34), from the call to
// the next paint, min/max of 3, each undone between runs, once the page
// has been idle; not a test:
//   awk (tests/bench.sh's 50k-frame generator) > big.folded
//   bin/flamegraph-svg --minwidth 0 big.folded > big.svg
//   node xform-bench.js CHROMIUM big.svg NAME...
// NAME is a function of the graph for the steps that take one.
"use strict";
const { launch, openPage } = require("./cdp.js");

const [chromium, file, name = "a1"] = process.argv.slice(2);
(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		await page.goto("file://" + file);
		// as a user would, after the page went idle once (xform.js keeps
		// the file's stacks then)
		await page.eval(`new Promise((r) => requestIdleCallback(() => setTimeout(r, 100), { timeout: 5000 }))`);
		const r = await page.eval(`(async () => {
			const fg = document.documentElement.flamegraph, out = {};
			const t = (k, name) => new Promise((done) => {
				const t0 = performance.now();
				fg.transform(k, name);
				requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0)));
			});
			for (const k of ["merge", "focus", "drop", "collapse", "rec", "invert"]) {
				const ms = [];
				for (let i = 0; i < 3; i++) { ms.push(await t(k, ${JSON.stringify(name)})); await t(null); }
				out[k] = Math.min(...ms).toFixed(1) + "/" + Math.max(...ms).toFixed(1) + " ms";
			}
			return out;
		})()`);
		console.log(file + " (" + (await page.eval(`document.documentElement.flamegraph.frames().length`)) + " frames): " + JSON.stringify(r));
	} finally {
		browser.close();
	}
})();
