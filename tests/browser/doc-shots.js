// The README's screenshots of the function table and the sandwich view,
// taken as the browser tests take theirs (cdp.js):
//   zcat lua-fp.collapsed-default.txt.gz |
//       bin/flamegraph-svg --countname ns > /tmp/lua.svg   (a corpus capture)
//   node doc-shots.js CHROMIUM /tmp/lua.svg FUNCTION doc/
"use strict";
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");

const [chromium, file, fn, dir] = process.argv.slice(2);
(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const paint = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`;
		for (const [view, name] of [["both", "table.png"], ["sandwich", "sandwich.png"]]) {
			await page.goto("file://" + file + "?v=" + view + "&fn=" + encodeURIComponent(fn));
			await page.eval(paint);
			fs.writeFileSync(path.join(dir, name), await page.screenshot());
		}
	} finally {
		browser.close();
	}
})();
