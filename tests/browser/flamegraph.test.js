// Browser tests of flamegraph-svg's SVGs in headless Chromium: hover,
// click-zoom, reset, search (prompt, nested matches, bad regex, case),
// state in the URL, hostile names, two graphs on one page, and pixels of
// a screenshot with scripts on and in an <img>.  Prints "ok NAME" or
// "FAIL NAME: why" per check and "done" at the end, for tests/run.sh.
//   node flamegraph.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const { launch, openPage } = require("./cdp.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
let failures = 0;
function check(name, ok, why) {
	if (ok) console.log("ok " + name);
	else { failures++; console.log("FAIL " + name + (why ? ": " + why : "")); }
}
function svgOf(name, folded, args) {
	const file = path.join(tmp, name + ".svg");
	fs.writeFileSync(file, execFileSync(path.join(bin, "flamegraph-svg"), args || [], { input: folded }));
	return file;
}

// Pixels of a PNG (8-bit RGB or RGBA, as Chromium writes them).
function pngPixels(buf) {
	let pos = 8, w = 0, h = 0, type = 0;
	const idat = [];
	while (pos < buf.length) {
		const len = buf.readUInt32BE(pos), kind = buf.toString("ascii", pos + 4, pos + 8);
		const data = buf.subarray(pos + 8, pos + 8 + len);
		if (kind === "IHDR") { w = data.readUInt32BE(0); h = data.readUInt32BE(4); type = data[9]; }
		if (kind === "IDAT") idat.push(data);
		pos += 12 + len;
	}
	const bpp = type === 6 ? 4 : 3, raw = zlib.inflateSync(Buffer.concat(idat));
	const out = Buffer.alloc(w * h * bpp), stride = w * bpp;
	for (let y = 0; y < h; y++) {
		const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1;
		for (let i = 0; i < stride; i++) {
			const a = i >= bpp ? out[y * stride + i - bpp] : 0;
			const b = y > 0 ? out[(y - 1) * stride + i] : 0;
			const c = i >= bpp && y > 0 ? out[(y - 1) * stride + i - bpp] : 0;
			let v = raw[src + i];
			if (f === 1) v += a;
			else if (f === 2) v += b;
			else if (f === 3) v += (a + b) >> 1;
			else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
			out[y * stride + i] = v & 255;
		}
	}
	return { w, h, bpp, data: out };
}
// Share of pixels in the hot palette's colours (red to yellow).
function flameShare(png) {
	let n = 0;
	for (let i = 0; i < png.w * png.h; i++) {
		const r = png.data[i * png.bpp], g = png.data[i * png.bpp + 1], b = png.data[i * png.bpp + 2];
		if (r >= 200 && b <= 60 && g <= 235) n++;
	}
	return n / (png.w * png.h);
}

// In-page helpers: a frame by name, its box and its rect's width.
const helpers = `
	window.T = {
		frame(name) {
			return Array.from(document.querySelectorAll(".f title"))
				.find(t => t.textContent.startsWith(name + " ("))?.parentNode;
		},
		center(name) {
			const r = T.frame(name).querySelector("rect").getBoundingClientRect();
			return [r.x + r.width / 2, r.y + r.height / 2];
		},
		width(name) { return +T.frame(name).querySelector("rect").getAttribute("width"); },
		cls(sel) { return document.querySelector(sel).getAttribute("class"); },
		text(sel) { return document.querySelector(sel).textContent; },
	};`;

const folded = "main;a;x 10\nmain;a;y 30\nmain;b 60\n";

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const file = svgOf("basic", folded);
		await page.goto("file://" + file);
		await page.eval(helpers);

		// Hover: the details line in flamegraph.pl's words.
		let [x, y] = await page.eval(`T.center("b")`);
		await page.mouse("mouseMoved", x, y);
		let d = await page.eval(`T.text(".d")`);
		check("hover shows name, count and share", d === "Function: b (60 samples, 60.00%)", d);

		// Click-zoom: a fills the width, its callees rescale, b hides.
		[x, y] = await page.eval(`T.center("a")`);
		await page.click(x, y);
		const z = await page.eval(`[T.width("a"), T.width("x"), T.width("y"),
			T.frame("b").getAttribute("class"), T.frame("main").getAttribute("class"), T.cls(".u")]`);
		check("zoom: clicked frame fills the width", z[0] === 1180, String(z[0]));
		check("zoom: callees rescale", z[1] === 295 && z[2] === 885, z.slice(1, 3).join(","));
		check("zoom: other frames hide", z[3] === "hide", z[3]);
		check("zoom: callers stay, dimmed", z[4] === "parent", z[4]);
		check("zoom: Reset Zoom shows", z[5] === "u", z[5]);
		[x, y] = await page.eval(`T.center("x")`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("hover when zoomed: share of the zoomed frame", d === "Function: x (10 samples, 10.00%, 25.00% of a)", d);

		// Zoom again inside the zoom, then Escape restores everything.
		[x, y] = await page.eval(`T.center("y")`);
		await page.click(x, y);
		check("zoom again on a zoomed view", await page.eval(`T.width("y")`) === 1180);
		await page.key("Escape", "Escape");
		const r = await page.eval(`[T.width("a"), T.width("b"), T.frame("b").classList.length, T.cls(".u")]`);
		check("Escape resets zoom", r[0] === 472 && r[1] === 708 && r[2] === 0 && r[3] === "u hide", r.join(","));

		// Search through "/" and the prompt; nested matches count once.
		page.answerPrompts("^(x|y)$");
		await page.key("/", "Slash", 0, "/");
		let m = await page.eval(`T.text(".m")`);
		check("search: Matched share", m === "Matched: 40.0%", m);
		const fill = await page.eval(`T.frame("x").querySelector("rect").getAttribute("fill")`);
		check("search: matches take the search colour", fill === "rgb(230,0,230)", fill);
		page.answerPrompts("^(a|x)$");
		await page.key("Escape", "Escape");
		await page.key("f", "KeyF", 2);
		m = await page.eval(`T.text(".m")`);
		check("search: nested matches counted once (Ctrl-F)", m === "Matched: 40.0%", m);
		page.answerPrompts("(");
		await page.key("/", "Slash", 0, "/");
		m = await page.eval(`T.text(".m")`);
		check("search: invalid regex gives a message", m === "Invalid regular expression", m);
		const thrown = page.events.filter(e => e.method === "Runtime.exceptionThrown").length;
		check("no script exception", thrown === 0, thrown + " exceptions");
		await page.key("i", "KeyI", 2);
		page.answerPrompts("^B$");
		await page.key("/", "Slash", 0, "/");
		m = await page.eval(`T.text(".m")`);
		check("search: Ctrl-I ignores case", m === "Matched: 60.0%", m);

		// State in the URL: reopen with ?x=&y= and ?s=.
		await page.key("Escape", "Escape");
		[x, y] = await page.eval(`T.center("a")`);
		await page.click(x, y);
		page.answerPrompts("^b$");
		await page.key("/", "Slash", 0, "/");
		const url = await page.eval(`location.href`);
		await page.goto(url);
		await page.eval(helpers);
		const s = await page.eval(`[T.width("a"), T.text(".m"), location.search]`);
		check("URL state reopens zoom and search", s[0] === 1180 && s[1] === "Matched: 60.0%", s.join(" "));
		await page.goto("file://" + file + "?x=%22%5D&y=1&s=%28");
		await page.eval(helpers);
		const bad = await page.eval(`[T.width("a"), T.text(".m")]`);
		check("bad URL state is ignored or reported", bad[0] === 472 && bad[1] === "Invalid regular expression", bad.join(","));

		// Hostile names: inert text, no element and no script of theirs.
		const hostile = svgOf("hostile",
			"main;</script><script>alert(1)</script> 5\nmain;<img src=x onerror=alert(2)> 3\n" +
			"main;\"><svg onload=alert(3)> 2\nmain;]]><script>alert(4)</script> 1\n",
			["--title", "</title><script>alert(5)</script>"]);
		const dialogs = () => page.events.filter(e => e.method === "Page.javascriptDialogOpening").length;
		const before = dialogs();
		await page.goto("file://" + hostile);
		await page.eval(helpers);
		await page.eval(`new Promise(r => setTimeout(r, 100))`);
		const h = await page.eval(`[document.querySelectorAll("script").length,
			document.querySelectorAll("img").length, document.querySelectorAll("svg svg").length,
			!!T.frame("</script><script>alert(1)</script>"), !!T.frame("<img src=x onerror=alert(2)>")]`);
		check("hostile names stay text", h[0] === 1 && h[1] === 0 && h[2] === 0 && h[3] && h[4], h.join(","));
		check("hostile names run nothing", dialogs() === before, (dialogs() - before) + " dialogs");

		// Two graphs in one HTML page do not interfere.
		const other = svgOf("other", "main;p 1\nmain;q 3\n");
		const html = path.join(tmp, "two.html");
		const inline = (f) => fs.readFileSync(f, "utf8").replace(/^<\?xml[^>]*>\n/, "");
		fs.writeFileSync(html, "<!doctype html><html><body>" + inline(file) + inline(other) + "</body></html>");
		await page.goto("file://" + html);
		await page.eval(helpers);
		[x, y] = await page.eval(`T.center("a")`);
		await page.click(x, y);
		const two = await page.eval(`[T.width("a"), T.width("q"), document.querySelectorAll(".u.hide").length]`);
		check("two graphs on one page: zoom stays in its own graph", two[0] === 1180 && two[1] === 885 && two[2] === 1, two.join(","));

		// Pixels: the graph is drawn, with scripts and inside an <img>.
		await page.goto("file://" + file);
		const shot = pngPixels(await page.screenshot());
		check("screenshot shows the frames", flameShare(shot) > 0.02, flameShare(shot).toFixed(4));
		const img = path.join(tmp, "img.html");
		fs.writeFileSync(img, "<!doctype html><html><body style=margin:0><img src=\"" + path.basename(file) + "\"></body></html>");
		await page.goto("file://" + img);
		const still = pngPixels(await page.screenshot());
		check("static rendering in <img> shows the frames", flameShare(still) > 0.02, flameShare(still).toFixed(4));
	} catch (e) {
		check("browser run", false, e.stack || String(e));
	} finally {
		await browser.close();
	}
	console.log("done");
	process.exit(failures ? 1 : 0);
})();
