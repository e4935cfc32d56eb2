// Browser tests of flamegraph-svg's timeline mode in headless Chromium:
// wheel, edge drags, window drag and drag-select on the overview; hover,
// click, double-click, wheel and pan on the detail; search, Escape, the
// window in the URL, hostile names, and pixels of both views with scripts
// and of the static picture in an <img>.  Prints "ok NAME" or
// "FAIL NAME: why" per check and "done" at the end, for tests/run.sh.
//   node timeline.test.js BIN_DIR TMP_DIR INPUT_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");
const { pngPixels, pixel } = require("./png.js");

const [bin, tmp, inputs, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
const near = (a, b, eps) => Math.abs(a - b) <= (eps === undefined ? 0.5 : eps);
const win = (w) => w.map((v) => v.toFixed(1)).join("..");

// spanlayout, then flamegraph-svg: the pipeline users run.
const laid = execFileSync(path.join(bin, "spanlayout"), [path.join(inputs, "small.spans")]);
const file = path.join(tmp, "timeline.svg");
fs.writeFileSync(file, execFileSync(path.join(bin, "flamegraph-svg"), [], { input: laid }));

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const dialogs = () => page.events.filter((e) => e.method === "Page.javascriptDialogOpening").length;
		const alerts = () => page.events.filter((e) => e.method === "Page.javascriptDialogOpening" && e.params.type === "alert").length;
		await page.goto("file://" + file);
		const T = "document.querySelector('svg').timeline";
		const ev = (expr) => page.eval(T + "." + expr);
		const errors = page.events.filter((e) => e.method === "Runtime.exceptionThrown");
		check("script runs without errors", errors.length === 0,
			errors.length ? JSON.stringify(errors[0].params.exceptionDetails).slice(0, 300) : "");
		check("whole trace at first", win(await ev("window()")) === "0.0..1000.0", win(await ev("window()")));
		check("hostile name runs nothing", dialogs() === 0, dialogs() + " dialogs");

		// Hover: the tooltip's five lines.
		let [x, y] = await ev(`spanPoint("parse")`);
		await page.mouse("mouseMoved", x, y);
		let tip = await ev("tooltip()");
		check("hover: tooltip with name, duration, start, track, parent",
			tip === "parse\nDuration: 400 ns\nStart: +100 ns\nTrack: tid:1\nParent: main", JSON.stringify(tip));
		[x, y] = await ev(`spanPoint("</script><script>alert(1)")`);
		await page.mouse("mouseMoved", x, y);
		tip = await ev("tooltip()");
		check("hover: a hostile name stays text", tip.startsWith("</script><script>alert(1)\n"), JSON.stringify(tip));

		// Click selects; the panel has the details.
		[x, y] = await ev(`spanPoint("exec")`);
		await page.click(x, y);
		check("click selects the span", await ev("selected()") === "exec", await ev("selected()"));
		const panel = await ev("panel()");
		check("click: details in the pane", panel[0] === "Selected: exec [Zoom] [Close]" &&
			panel[1] === "Start: +600 ns   Duration: 300 ns   Self: 250 ns   End: +900 ns" &&
			panel[2] === "Track: tid:1   Children: 1" && panel[3] === "Parents: [main]", JSON.stringify(panel));
		check("click: the selection is in the URL", await page.eval("location.search") === "?sel=2",
			await page.eval("location.search"));
		check("critical path of exec: exec, then its child lex", JSON.stringify(await ev("critical()")) === '["exec","lex","exec"]',
			JSON.stringify(await ev("critical()")));
		// Keys: up to the parent, down to the first child.
		await page.key("ArrowUp", "ArrowUp");
		check("ArrowUp selects the parent", await ev("selected()") === "main", await ev("selected()"));
		check("critical path of main: the child that ended last, then back",
			JSON.stringify(await ev("critical()")) === '["main","parse","lex","parse","main","exec","lex","exec","main"]',
			JSON.stringify(await ev("critical()")));
		await page.key("ArrowDown", "ArrowDown");
		check("ArrowDown selects the first child", await ev("selected()") === "parse", await ev("selected()"));
		// The parent chain's buttons, by mouse and by keyboard.
		const button = (label) => page.eval(`(() => { const b = [...document.querySelectorAll("button")].find((b) => b.textContent === ${JSON.stringify(label)});
			if (!b) return null; const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
		[x, y] = await button("main");
		await page.click(x, y);
		check("pane: clicking a parent selects it", await ev("selected()") === "main", await ev("selected()"));
		// The first lex by position is exec's: its parents are main and exec.
		await ev(`select("lex")`);
		let tabs = 0;
		for (; tabs < 10 && await page.eval("document.activeElement && document.activeElement.textContent") !== "exec"; tabs++)
			await page.key("Tab", "Tab");
		await page.key("Enter", "Enter", 0, "\r");
		check("pane: Tab reaches a parent, Enter selects it", await ev("selected()") === "exec", tabs + " tabs, " + await ev("selected()"));
		await ev(`select("exec")`);
		[x, y] = await ev(`spanPoint("</script><script>alert(1)")`);
		await page.click(x, y);
		check("pane: a hostile name stays text", (await ev("panel()"))[0] === "Selected: </script><script>alert(1) [Zoom] [Close]" &&
			dialogs() === 0, JSON.stringify(await ev("panel()")));
		await page.goto("file://" + file + "?sel=2");
		check("a link with ?sel= reopens the selection and its pane", await ev("selected()") === "exec" &&
			(await ev("panel()"))[0] === "Selected: exec [Zoom] [Close]", await ev("selected()"));
		await page.eval("new Promise((r) => requestAnimationFrame(r))");
		const outline = await page.eval(`(() => { const r = [...document.querySelectorAll("svg > .tlv > rect")].pop();
			return [+r.getAttribute("x"), +r.getAttribute("width")]; })()`);
		check("click: the span is outlined", near(outline[0], 10 + 600 * 1.18) && near(outline[1], 300 * 1.18), outline.join(","));

		// Double-click zooms to the span; Escape returns to the whole trace.
		[x, y] = await ev(`spanPoint("parse")`);
		await page.mouse("mouseMoved", x, y);
		await page.mouse("mousePressed", x, y, { clickCount: 1 });
		await page.mouse("mouseReleased", x, y, { clickCount: 1 });
		await page.mouse("mousePressed", x, y, { clickCount: 2 });
		await page.mouse("mouseReleased", x, y, { clickCount: 2 });
		check("double-click zooms to the span", win(await ev("window()")) === "100.0..500.0", win(await ev("window()")));
		check("zoomed: Reset shows", await page.eval(`document.querySelector(".u").getAttribute("class")`) === "u");
		check("zoomed: the window is in the URL", await page.eval("location.search") === "?t0=100&t1=500&sel=3",
			await page.eval("location.search"));
		await page.key("Escape", "Escape");
		check("Escape resets the window", win(await ev("window()")) === "0.0..1000.0", win(await ev("window()")));
		check("Escape clears the selection", await ev("selected()") === null);

		const drag = async (from, to) => {
			const [ax, ay] = await ev(`ovPoint(${from})`), [bx] = await ev(`ovPoint(${to})`);
			await page.mouse("mouseMoved", ax, ay);
			await page.mouse("mousePressed", ax, ay);
			await page.mouse("mouseMoved", (ax + bx) / 2, ay, { buttons: 1 });
			await page.mouse("mouseMoved", bx, ay, { buttons: 1 });
			await page.mouse("mouseReleased", bx, ay);
			return ev("window()");
		};
		// Overview: at the whole trace, a drag selects a window.
		let w = await drag(300, 600);
		check("overview: a first drag selects a window", near(w[0], 300, 1000 / 1180) && near(w[1], 600, 1000 / 1180), win(w));
		await page.key("Escape", "Escape");

		// Overview: the wheel zooms around the pointer.
		[x, y] = await ev("ovPoint(500)");
		await page.mouse("mouseMoved", x, y);
		await page.mouse("mouseWheel", x, y, { deltaX: 0, deltaY: -100 });
		await page.eval("new Promise((r) => requestAnimationFrame(r))");
		const f = Math.pow(1.002, -100);
		w = await ev("window()");
		check("overview wheel zooms around the pointer", near(w[0], 500 - 500 * f, 0.6) && near(w[1], 500 + 500 * f, 0.6), win(w));

		// Cursors say what a drag will do.
		const cursorAt = async (t) => {
			const [cx, cy] = await ev(`ovPoint(${t})`);
			await page.mouse("mouseMoved", cx, cy);
			return page.eval(`document.querySelectorAll("canvas")[0].style.cursor`);
		};
		const cur = [await cursorAt(w[1]), await cursorAt(500), await cursorAt(950)];
		check("overview cursors: resize, move, select", cur.join(",") === "ew-resize,grab,crosshair", cur.join(","));

		// One overview pixel is 1000/1180 ns: drags land within a pixel.
		const px = 1000 / 1180;
		w = await drag(w[1], 700);
		check("overview: dragging the right edge resizes", near(w[1], 700, px) && near(w[0], 500 - 500 * f, 0.6), win(w));
		w = await drag(w[0], 200);
		check("overview: dragging the left edge resizes", near(w[0], 200, px) && near(w[1], 700, px), win(w));
		w = await drag(450, 550);
		check("overview: dragging inside moves the window", near(w[0], 300, 2 * px) && near(w[1], 800, 2 * px), win(w));
		w = await drag(850, 950);
		check("overview: dragging outside selects a new window", near(w[0], 850, px) && near(w[1], 950, px), win(w));
		await page.key("Escape", "Escape");

		// Detail: the wheel zooms around the pointer, a drag pans.
		await ev("setWindow(200, 600)");
		[x, y] = await ev("detailPoint(300, 0)");
		await page.mouse("mouseMoved", x, y);
		await page.mouse("mouseWheel", x, y, { deltaX: 0, deltaY: 100 });
		w = await ev("window()");
		const g = Math.pow(1.002, 100);
		check("detail wheel zooms out around the pointer", near(w[0], 300 - 100 * g, 0.6) && near(w[1], 300 + 300 * g, 0.6), win(w));
		await ev("setWindow(200, 600)");
		[x, y] = await ev("detailPoint(400, 0)");
		await page.mouse("mouseMoved", x, y);
		await page.mouse("mousePressed", x, y);
		await page.mouse("mouseMoved", x - 59, y, { buttons: 1 });
		await page.mouse("mouseMoved", x - 118, y, { buttons: 1 });
		await page.mouse("mouseReleased", x - 118, y);
		w = await ev("window()");
		check("detail drag pans the window", near(w[0], 240, 0.5) && near(w[1], 640, 0.5), win(w));
		check("a pan is not a click", await ev("selected()") === null, await ev("selected()"));

		// The views are linked: the overview's window follows the detail.
		let shot = pngPixels(await page.screenshot());
		const [ox, oy] = await ev("ovPoint(100)"), [ix] = await ev("ovPoint(400)");
		const dimmed = pixel(shot, ox, oy), inside = pixel(shot, ix, oy);
		check("overview dims outside the detail's window", dimmed !== inside, dimmed + " vs " + inside);

		// Search: matches counted, their time once (lex inside parse).
		page.answerPrompts("^(parse|lex)$");
		await page.key("/", "Slash", 0, "/");
		let m = await ev("matched()");
		check("search: count and time of the matches", m === "Matched: 3 spans, 450 ns", m);
		await ev("reset()");
		await page.eval("new Promise((r) => requestAnimationFrame(r))");
		shot = pngPixels(await page.screenshot());
		[x, y] = await ev(`spanPoint("parse")`);
		check("search: matches drawn in the search colour", pixel(shot, x, y) === "230,0,230", pixel(shot, x, y));
		[x, y] = await ev(`spanPoint("exec")`);
		check("search: others keep their track colour", pixel(shot, x, y) !== "230,0,230", pixel(shot, x, y));
		page.answerPrompts("(");
		await page.key("/", "Slash", 0, "/");
		m = await ev("matched()");
		check("search: a bad regex is reported", m === "Invalid regular expression", m);
		await page.key("Escape", "Escape");
		check("Escape clears the search", await ev("matched()") === "", await ev("matched()"));

		// The window in the URL reopens it.
		await page.goto("file://" + file + "?t0=150&t1=450&s=exec");
		w = await ev("window()");
		check("a link with ?t0=&t1= reopens the window", win(w) === "150.0..450.0", win(w));
		check("a link with ?s= reopens the search", await ev("matched()") === "Matched: 1 span, 300 ns", await ev("matched()"));

		// Pixels: both views drawn with scripts; the static picture in an <img>.
		await page.goto("file://" + file);
		shot = pngPixels(await page.screenshot());
		const colored = (png, y0, y1) => {
			let n = 0;
			for (let yy = y0; yy < y1; yy++)
				for (let xx = 10; xx < 1190; xx += 2) {
					const p = pixel(png, xx, yy).split(",").map(Number);
					if (Math.max(...p) - Math.min(...p) > 40) n++;
				}
			return n;
		};
		const ov = await page.eval(`(() => { const d = document.querySelector(".tlv").getAttribute("data-ov").split(" ");
			return [+d[0], +d[0] + 16 + +d[1]]; })()`);
		const dt = await page.eval(`+document.querySelector(".tlv").getAttribute("data-dt")`);
		check("screenshot: the overview is not blank", colored(shot, ov[0], ov[1]) > 500, String(colored(shot, ov[0], ov[1])));
		check("screenshot: the detail is not blank", colored(shot, dt + 16, dt + 16 + 7 * 16) > 5000, String(colored(shot, dt + 16, dt + 16 + 7 * 16)));
		[x, y] = await ev(`spanPoint("worker")`);
		const workerColor = pixel(shot, x, y);
		[x, y] = await ev(`spanPoint("main")`);
		check("names have their own colours", workerColor !== pixel(shot, x, y), workerColor + " vs " + pixel(shot, x, y));
		const img = path.join(tmp, "timeline-img.html");
		fs.writeFileSync(img, "<!doctype html><html><body style=margin:0><img src=\"" + path.basename(file) + "\"></body></html>");
		await page.goto("file://" + img);
		const still = pngPixels(await page.screenshot());
		check("static picture in an <img> shows the spans", colored(still, dt + 16, dt + 16 + 7 * 16) > 5000,
			String(colored(still, dt + 16, dt + 16 + 7 * 16)));
		check("static picture: same colour for a span as with scripts", pixel(still, x, y) === pixel(shot, x, y),
			pixel(still, x, y) + " vs " + pixel(shot, x, y));

		// Properties and events: props.spans laid out by track.
		const pfile = path.join(tmp, "timeline-props.svg");
		fs.writeFileSync(pfile, execFileSync(path.join(bin, "flamegraph-svg"), [],
			{ input: execFileSync(path.join(bin, "spanlayout"), ["--by-track", path.join(inputs, "props.spans")]) }));
		await page.goto("file://" + pfile);
		page.answerPrompts("user=alice");
		await page.key("/", "Slash", 0, "/");
		m = await ev("matched()");
		check("search: a property as key=value", m === "Matched: 1 span, 82.11 ms", m);
		page.answerPrompts("alert");
		await page.key("/", "Slash", 0, "/");
		m = await ev("matched()");
		check("search: a property's value", m === "Matched: 1 span, 40.00 ms", m);
		await page.key("Escape", "Escape");
		[x, y] = await ev(`spanPoint("query")`);
		await page.click(x, y);
		let pl = await ev("panel()");
		check("pane: properties and events, hostile ones as text",
			pl.includes("Properties: sql=</script><script>alert(3)") && pl.includes('Events: </script>"ev at +1.00 ms') && alerts() === 0,
			JSON.stringify(pl));
		[x, y] = await ev(`spanPoint("request")`);
		await page.click(x, y);
		pl = await ev("panel()");
		check("pane: integer properties", pl.includes("Properties: user=alice   rows=-42"), JSON.stringify(pl));
		check("flows on where few", await ev("flows()") === true);
		// The event at +30 ms on request (row 0): a dark mark at its foot.
		await page.key("Escape", "Escape");
		await page.eval("new Promise((r) => requestAnimationFrame(r))");
		shot = pngPixels(await page.screenshot());
		[x, y] = await ev("detailPoint(29000000, 0)");
		check("an event is marked on its span", pixel(shot, Math.round(x), Math.round(y + 6)) === "34,34,34",
			pixel(shot, Math.round(x), Math.round(y + 6)));
		// Colour by track, from the toolbar.
		const byName = await ev(`colorOf("request")`);
		[x, y] = await page.eval(`(() => { const r = document.querySelector(".cb").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
		await page.click(x, y);
		check("By track colours by track", await ev(`colorOf("request")`) !== byName && await ev(`colorOf("request")`) === await ev(`colorOf("query")`),
			byName + " then " + await ev(`colorOf("request")`));
		check("By track is in the URL", await page.eval("location.search") === "?c=track", await page.eval("location.search"));
	} catch (e) {
		check("exception", false, String(e && e.stack || e));
	} finally {
		await browser.close();
	}
	done();
})();
