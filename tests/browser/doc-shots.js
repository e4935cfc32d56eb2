// The README's screenshots of the function table and the sandwich view,
// taken as the browser tests take theirs (cdp.js):
//   zcat lua-fp.collapsed-default.txt.gz |
//       bin/flamegraph-svg --countname ns > /tmp/lua.svg   (a corpus capture)
//   node doc-shots.js CHROMIUM /tmp/lua.svg FUNCTION doc/
// and of a --diff graph with its table (doc/diff.png), the worked example
// of flamegraph-svg(1) at the width max, with "diff" last:
//   bin/flamegraph-svg --diff --countname ns tests/data/diff-before.folded \
//       tests/data/diff-after.folded > /tmp/diff.svg
//   node doc-shots.js CHROMIUM /tmp/diff.svg validate doc/ diff
"use strict";
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");

const [chromium, file, fn, dir, diff] = process.argv.slice(2);
const shots = diff ? [["both&dw=max", "diff.png"]] : [["both", "table.png"], ["sandwich", "sandwich.png"]];
(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const paint = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`;
		for (const [view, name] of shots) {
			await page.goto("file://" + file + "?v=" + view + (fn ? "&fn=" + encodeURIComponent(fn) : ""));
			await page.eval(paint);
			fs.writeFileSync(path.join(dir, name), await page.screenshot());
		}
	} finally {
		browser.close();
	}
})();
