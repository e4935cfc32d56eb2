// Browser tests of flamegraph-svg's SVGs in headless Chromium: hover,
// click-zoom, reset, search (prompt, nested matches, bad regex, case),
// state in the URL, hostile names, two graphs on one page, a tall graph
// opening on its root, and pixels of a screenshot with scripts on and in
// an <img>.  Prints "ok NAME" or "FAIL NAME: why" per check and "done" at
// the end, for tests/run.sh.
//   node flamegraph.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");
const { pngPixels, pixel } = require("./png.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
function svgOf(name, folded, args) {
	const file = path.join(tmp, name + ".svg");
	fs.writeFileSync(file, execFileSync(path.join(bin, "flamegraph-svg"), args || [], { input: folded }));
	return file;
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

// In-page helpers.  With scripts on, a graph is drawn on a canvas from the
// frames the script read out of the file; svg.flamegraph.frames() gives
// each frame's place in the current view, so a test can aim the mouse at
// a frame and then check the pixels drawn there.
const helpers = `
	window.T = {
		find(name) {
			for (const svg of document.querySelectorAll("svg"))
				for (const f of svg.flamegraph ? svg.flamegraph.frames() : [])
					if (f.name === name) return [svg, f];
			return [null, null];
		},
		center(name) {
			const [svg, f] = T.find(name), m = svg.getScreenCTM();
			return [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d];
		},
		width(name) { return Math.round(T.find(name)[1].w * 10) / 10; },
		state(name) { return T.find(name)[1].state; },
		fill(name) { return T.find(name)[1].fill; },
		cls(sel) { return document.querySelector(sel).getAttribute("class"); },
		text(sel) { return document.querySelector(sel).textContent; },
	};`;

function rgb(fill) {
	const m = /^#(..)(..)(..)$/.exec(fill);
	return m ? m.slice(1).map(h => parseInt(h, 16)).join(",") : fill.replace(/^rgb\(|\)$/g, "");
}

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
			T.state("b"), T.state("main"), T.cls(".u")]`);
		check("zoom: clicked frame fills the width", z[0] === 1180, String(z[0]));
		check("zoom: callees rescale", z[1] === 295 && z[2] === 885, z.slice(1, 3).join(","));
		check("zoom: other frames hide", z[3] === "hide", z[3]);
		check("zoom: callers stay, dimmed", z[4] === "parent", z[4]);
		check("zoom: Reset Zoom shows", z[5] === "u", z[5]);
		// The canvas shows it: x's colour at x's new centre, nothing where b was.
		let shot = pngPixels(await page.screenshot());
		const [xc, yc] = await page.eval(`T.center("x")`), xfill = rgb(await page.eval(`T.fill("x")`));
		check("zoom: drawn where the callee now is", pixel(shot, xc, yc) === xfill, pixel(shot, xc, yc) + " vs " + xfill);
		check("zoom: hidden frame not drawn", pixel(shot, 1100, yc + 16) !== rgb(await page.eval(`T.fill("b")`)), pixel(shot, 1100, yc + 16));
		[x, y] = await page.eval(`T.center("x")`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("hover when zoomed: share of the zoomed frame", d === "Function: x (10 samples, 10.00%, 25.00% of a)", d);

		// Zoom again inside the zoom, then Escape restores everything.
		[x, y] = await page.eval(`T.center("y")`);
		await page.click(x, y);
		check("zoom again on a zoomed view", await page.eval(`T.width("y")`) === 1180);
		await page.key("Escape", "Escape");
		const r = await page.eval(`[T.width("a"), T.width("b"), T.state("b"), T.cls(".u")]`);
		check("Escape resets zoom", r[0] === 472 && r[1] === 708 && r[2] === "" && r[3] === "u hide", r.join(","));

		// Search through "/" and the search box; nested matches count once.
		await page.key("/", "Slash", 0, "/");
		await page.type("^(x|y)$");
		let m = await page.eval(`T.text(".m")`);
		check("search: Matched share", m === "Matched: 40.0%", m);
		shot = pngPixels(await page.screenshot());
		[x, y] = await page.eval(`T.center("x")`);
		check("search: matches drawn in the search colour", pixel(shot, x, y) === "230,0,230", pixel(shot, x, y));
		[x, y] = await page.eval(`T.center("b")`);
		check("search: others keep their colour", pixel(shot, x, y) === rgb(await page.eval(`T.fill("b")`)), pixel(shot, x, y));
		await page.key("Escape", "Escape");
		await page.key("f", "KeyF", 2);
		await page.type("^(a|x)$");
		m = await page.eval(`T.text(".m")`);
		check("search: nested matches counted once (Ctrl-F)", m === "Matched: 40.0%", m);
		await page.key("/", "Slash", 0, "/");
		await page.type("(");
		m = await page.eval(`T.text(".m")`);
		check("search: invalid regex gives a message", m === "Invalid regular expression", m);
		const thrown = page.events.filter(e => e.method === "Runtime.exceptionThrown").length;
		check("no script exception", thrown === 0, thrown + " exceptions");
		await page.key("Escape", "Escape");
		await page.key("i", "KeyI", 2);
		await page.key("/", "Slash", 0, "/");
		await page.type("^B$");
		m = await page.eval(`T.text(".m")`);
		check("search: Ctrl-I ignores case", m === "Matched: 60.0%", m);

		// State in the URL: reopen with ?x=&y= and ?s=.
		await page.key("Escape", "Escape");
		[x, y] = await page.eval(`T.center("a")`);
		await page.click(x, y);
		await page.key("/", "Slash", 0, "/");
		await page.type("^b$");
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
		// The file itself, parsed as the browser parses it, before the
		// script replaces the frames with a canvas.
		const parsed = `new DOMParser().parseFromString(${JSON.stringify(fs.readFileSync(hostile, "utf8"))}, "image/svg+xml")`;
		const h = await page.eval(`(() => { const doc = ${parsed}; return [
			doc.querySelectorAll("parsererror").length,
			doc.querySelectorAll("script:not([type])").length + "+" + doc.querySelectorAll("script[type]").length,
			doc.querySelectorAll("img").length, doc.querySelectorAll("svg svg").length,
			Array.from(doc.querySelectorAll("title")).some(t => t.textContent.startsWith("</script><script>alert(1)</script> (")),
			!!T.find("<img src=x onerror=alert(2)>")[1], !!T.find("]]><script>alert(4)</script>")[1]]; })()`);
		check("hostile names stay text", h.join(",") === "0,1+1,0,0,true,true,true", h.join(","));
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
		shot = pngPixels(await page.screenshot());
		check("screenshot shows the frames", flameShare(shot) > 0.02, flameShare(shot).toFixed(4));
		const img = path.join(tmp, "img.html");
		fs.writeFileSync(img, "<!doctype html><html><body style=margin:0><img src=\"" + path.basename(file) + "\"></body></html>");
		await page.goto("file://" + img);
		const still = pngPixels(await page.screenshot());
		check("static rendering in <img> shows the frames", flameShare(still) > 0.02, flameShare(still).toFixed(4));

		// The canvas looks like the file: the scripted view against the
		// same SVG in an <img> (scripts off), pixel by pixel.
		await page.goto("file://" + file);
		await page.eval(`document.documentElement.style.margin = "0"`);
		const drawn = pngPixels(await page.screenshot());
		// The script's toolbar sits above the file's picture (the viewBox
		// grows upwards): compare what is under it.
		const off = await page.eval(`-document.documentElement.viewBox.baseVal.y`);
		let differ = 0;
		for (let i = 0; i < drawn.w * (drawn.h - off); i++)
			for (let c = 0; c < 3; c++)
				if (Math.abs(drawn.data[(i + off * drawn.w) * drawn.bpp + c] - still.data[i * still.bpp + c]) > 48) { differ++; break; }
		check("canvas matches the static picture", off > 0 && differ / (drawn.w * drawn.h) < 0.005,
			(100 * differ / (drawn.w * drawn.h)).toFixed(3) + "% of pixels differ");

		// A graph taller than the window: the canvas follows the scroll.
		let deep = "";
		for (let i = 0; i < 80; i++) deep += (deep ? ";" : "") + "f" + i;
		await page.goto("file://" + svgOf("deep", "main;" + deep + " 5\nmain;g 5\n"));
		await page.eval(helpers);
		await page.eval(`window.scrollTo(0, 0)`);
		await page.eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`);
		shot = pngPixels(await page.screenshot());
		[x, y] = await page.eval(`T.center("f79")`);
		check("deep graph: top rows drawn after scrolling up", y > 0 && y < 900 && pixel(shot, x, y) === rgb(await page.eval(`T.fill("f79")`)),
			y.toFixed(0) + ": " + pixel(shot, x, y));
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("deep graph: hover after scrolling", d === "Function: f79 (5 samples, 50.00%)", d);

		// A graph much taller than the window opens on its root, at the
		// bottom of the file, not on the empty top; an icicle, whose root
		// is at the top, a graph that fits, and a page that embeds a tall
		// graph do not scroll; a zoom in the URL opens on the zoomed frame.
		let tall = "";
		for (let i = 0; i < 200; i++) tall += (tall ? ";" : "") + "t" + i;
		tall = "main;" + tall + " 5\nmain;g 5\n";
		const opened = async (file, name) => {
			await page.goto(file);
			await page.eval(helpers);
			await page.eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`);
			const [cx, cy] = await page.eval(`T.center(${JSON.stringify(name)})`);
			return [Math.round(cy), await page.eval(`scrollY`), pixel(pngPixels(await page.screenshot()), cx, cy),
				rgb(await page.eval(`T.fill(${JSON.stringify(name)})`))];
		};
		const tallFile = svgOf("tall", tall);
		let o = await opened("file://" + tallFile, "main");
		check("tall graph opens on its root", o[0] > 0 && o[0] < 900 && o[1] > 0 && o[2] === o[3], o.join(","));
		await page.eval(`document.documentElement.flamegraph.zoom("t100")`);
		o = await opened(await page.eval(`location.href`), "t100");
		check("tall graph: a zoom in the URL opens on the zoomed frame", o[0] > 0 && o[0] < 900 && o[2] === o[3], o.join(","));
		o = await opened("file://" + svgOf("tall-inverted", tall, ["--inverted"]), "main");
		check("tall icicle opens at the top", o[0] > 0 && o[0] < 900 && o[1] === 0 && o[2] === o[3], o.join(","));
		await page.eval(`document.documentElement.flamegraph.zoom("t150")`);
		o = await opened(await page.eval(`location.href`), "t150");
		check("tall icicle: a zoom in the URL opens on the zoomed frame", o[0] > 0 && o[0] < 900 && o[2] === o[3], o.join(","));
		let fits = "";
		for (let i = 0; i < 40; i++) fits += (fits ? ";" : "") + "s" + i;
		o = await opened("file://" + svgOf("fits", "main;" + fits + " 1\n"), "main");
		check("graph that fits the window opens unscrolled", o[0] > 0 && o[0] < 900 && o[1] === 0 && o[2] === o[3], o.join(","));
		const host = path.join(tmp, "tall.html");
		fs.writeFileSync(host, "<!doctype html><html><body><p id=top>top</p>" + inline(tallFile) + inline(tallFile) + "</body></html>");
		await page.goto("file://" + host);
		await page.eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`);
		const emb = await page.eval(`[scrollY, Math.round(document.getElementById("top").getBoundingClientRect().top)]`);
		check("tall graphs in a page do not scroll it", emb[0] === 0 && emb[1] > 0 && emb[1] < 100, emb.join(","));

		// Thousands of frames narrower than a pixel: the mouse still finds
		// each by binary search, and the row is drawn as a band of colour.
		let tiny = "";
		for (let i = 0; i < 3000; i++) tiny += "main;t" + String(i).padStart(4, "0") + " 1\n";
		await page.goto("file://" + svgOf("tiny", tiny + "main;big 3000\n", ["--minwidth", "0"]));
		await page.eval(helpers);
		// Mouse positions are whole pixels: the frame expected under one
		// is found here from the frames' places, by a linear scan.
		[x, y] = (await page.eval(`T.center("t1234")`)).map(Math.round);
		const under = await page.eval(`(() => { const [svg] = T.find("main"), m = svg.getScreenCTM(), ux = (${x} - m.e) / m.a;
			return svg.flamegraph.frames().find(f => f.name[0] === "t" && f.x <= ux && ux < f.x + f.w).name; })()`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("tiny frames: hover finds the frame under the mouse", /^t12[0-9][0-9]$/.test(under) &&
			d === "Function: " + under + " (1 samples, 0.02%)", under + ": " + d);
		shot = pngPixels(await page.screenshot());
		let band = 0;
		for (let px = 12; px < 585; px++) if (flameShare({ w: 1, h: 1, bpp: shot.bpp, data: shot.data.subarray((Math.round(y) * shot.w + px) * shot.bpp) }) === 1) band++;
		check("tiny frames: drawn as a band", band > 560, band + " of 573 pixels");

		// A frame made a link by --nameattr: a click follows it.
		const attrs = path.join(tmp, "attrs.txt");
		fs.writeFileSync(attrs, "b\thref=#followed\n");
		await page.goto("file://" + svgOf("link", folded, ["--nameattr", attrs]));
		await page.eval(helpers);
		[x, y] = await page.eval(`T.center("b")`);
		await page.click(x, y);
		await page.eval(`new Promise(r => setTimeout(r, 200))`);
		const hash = await page.eval(`location.hash`);
		check("link frame: click follows the link", hash === "#followed", hash);

		// The script's frames, made from the data, are the file's: titles
		// (with --factor, whose ties of "%.0f" round to even, fractional
		// counts, differential counts and --negate), places (gaps,
		// --inverted, names that share prefixes, in and out of ASCII) and
		// colours (computed from the name, with the annotation the name
		// lost, or from the table: grey separators, other palettes).
		const titleCases = [["factor", "main;a 3\nmain;b 5\nmain;c;d 7\n", ["--factor", "0.5"]],
			["fraction", "main;a 1.5\nmain;b 0.125\nmain;c 1234567.25\n", ["--minwidth", "0"]],
			["diff", "main;a 5 10\nmain;b 3 1\nmain;b;c 2 2\n"],
			["negate", "main;a 5 10\nmain;b 3 1\n", ["--negate"]],
			["gaps", "m;a;x 4\nm;a 3\nm;b 2\nm;b;y;z 6\nm;c 1\nm;c;x 1\nn;q 2\n", ["--inverted"]],
			["prefixes", "main;\u03b1\u03b2_one 1\nmain;\u03b1\u03b2_two 2\nmain;abc_x\u{1f600} 1\nmain;abc_x\u{1f601} 1\nmain;abc_y 1\n"],
			["annotated", "main;read_[k] 2\nmain;read 1\nmain;f_[j];g_[w];h_[i] 1\nmain;--;x 1\nmain;-;y 1\n"],
			["java", "java/lang/Thread.run;a::b;c_[k] 3\njava/lang/Thread.run;Interpreter 2\n", ["--colors", "java"]]];
		for (const [name, input, args] of titleCases) {
			const f = svgOf("titles-" + name, input, args);
			await page.goto("file://" + f);
			const t = await page.eval(`(() => {
				const doc = new DOMParser().parseFromString(${JSON.stringify(fs.readFileSync(f, "utf8"))}, "image/svg+xml");
				const file = Array.from(doc.querySelectorAll(".f title")).map(t => t.textContent).sort();
				const ours = document.documentElement.flamegraph.frames().map(f => f.title).sort();
				const at = (t) => { const r = t.nextElementSibling; return [t.textContent, +r.getAttribute("x"),
					+/translate\\(0 ([^)]*)\\)/.exec(t.parentNode.parentNode.getAttribute("transform"))[1], +r.getAttribute("width"), r.getAttribute("fill")]; };
				const places = Array.from(doc.querySelectorAll(".f title")).map(at);
				const frames = document.documentElement.flamegraph.frames();
				const off = places.filter(([t, x, y, w, c]) => !frames.some(f => f.title === t &&
					Math.abs(f.x - x) < 0.06 && f.y === y && Math.abs(f.x + f.w - x - w) < 0.11 && f.fill === c));
				return [file.join("|"), ours.join("|"), off.map(p => p.join(" ")).join("|")]; })()`);
			check("titles from the data match the file's (" + name + ")", t[0] === t[1] && t[0] !== "", t[0] + " vs " + t[1]);
			check("places from the data match the file's (" + name + ")", t[2] === "", t[2]);
		}

		// A title replaced by --nameattr is the tooltip only: search, zoom
		// and the frame's name stay the function's.
		fs.writeFileSync(attrs, "a\ttitle=The A (x) module\tclass=hot\n");
		await page.goto("file://" + svgOf("retitled", folded, ["--nameattr", attrs]));
		await page.eval(helpers);
		const rt = await page.eval(`(() => { const svg = document.documentElement, fg = svg.flamegraph;
			fg.search("^a$");
			const m = T.text(".m");
			fg.resetSearch();
			fg.zoom("a");
			const f = fg.frames().find(f => f.title === "The A (x) module");
			return [m, f ? f.name : "-", f ? Math.round(f.w) : 0]; })()`);
		check("--nameattr title: search and zoom use the name", rt.join("|") === "Matched: 40.0%|a|1180", rt.join("|"));
		[x, y] = await page.eval(`T.center("a")`);
		await page.mouse("mouseMoved", x, y);
		d = await page.eval(`T.text(".d")`);
		check("--nameattr title: hover shows the title", d === "Function: The A (x) module", d);

		// Names as the script shows them, from the data (svg.c's
		// write_data), in the frames, their tooltips, table, search and
		// the URL's function; in the SVG and inline in an HTML page;
		// hostile names, bytes that are not UTF-8, control bytes,
		// annotations, a frame only --minwidth leaves out, a --nameattr
		// title.
		const odd = Buffer.concat([Buffer.from("main;</script><script>alert(1);]]>x 5\nmain;a\"b'c&d;g (x) (1 samples, 2%) 3\n" +
			"main;foo_[k] 2\nmain;foo;bar_[i] 2\nmain;tiny 0.001\nmain;  sp  ;\u00e9t\u00e9 \u4e2d \u{1f600} 2\n" +
			"main;tab\there 1\nmain;cr\rx 1\nmain;del\x7fx;esc\x1bx 1\nmain;retitled 1\n"),
			Buffer.from([0x6d, 0x61, 0x69, 0x6e, 0x3b, 0x62, 0x61, 0x64, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x20, 0x33, 0x0a])]);
		fs.writeFileSync(attrs, "retitled\ttitle=Retitled (x)\n");
		const namesOf = `(() => { const fg = document.querySelector("svg").flamegraph, f = fg.frames().map((f) => f.name);
			const t = fg.frames().map((f) => f.title.startsWith(f.name + " ("));
			fg.search("[^a-z]"); const m = T.text(".m"); fg.resetSearch();
			fg.view("table"); const tab = fg.table().map((r) => r[0]); fg.select(tab[tab.length - 1]);
			const fn = new URLSearchParams(location.search).get("fn");
			fg.view("flame"); fg.select(null);
			return JSON.stringify([f, t, m, tab, fn]); })()`;
		const got = [];
		for (const how of ["svg", "html"]) {
			let file = path.join(tmp, "names-" + how + ".svg");
			fs.writeFileSync(file, execFileSync(path.join(bin, "flamegraph-svg"), ["--nameattr", attrs],
				{ input: odd, stdio: ["pipe", "pipe", "ignore"] }));
			if (how === "html") {
				fs.writeFileSync(file + ".html", "<!doctype html><html><body>" +
					fs.readFileSync(file, "utf8").replace(/^<\?xml[^>]*>\n/, "") + "</body></html>");
				file += ".html";
			}
			await page.goto("file://" + file);
			await page.eval(helpers);
			const v = JSON.parse(await page.eval(namesOf));
			got.push(JSON.stringify(v.slice(0, 4)));
			check("names from the data (" + how + ")", v[0].includes("</script><script>alert(1)") &&
				v[0].includes("a\"b'c&d") && v[0].includes("g (x) (1 samples, 2%)") &&
				v[3].includes("tiny") && v[3].includes("bad\ufffd\ufffd(\ufffd\ufffd\ufffd") && v[3].includes("cr\rx") &&
				v[3].includes("esc\x1bx") && v[3].includes("foo") && v[0].includes("bar") && v[0].includes("retitled"),
				JSON.stringify(v));
		}
		check("names the same in an SVG and inline in HTML", got[0] === got[1], got.join(" vs "));
	} catch (e) {
		check("browser run", false, e.stack || String(e));
	} finally {
		await browser.close();
	}
	done();
})();
