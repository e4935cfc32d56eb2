// Browser tests of the transforms in the graph (issue 34), in headless
// Chromium with the mouse: a frame's menu item (Merge, Focus on
// function, Drop, Collapse function, Collapse recursion, Focus on
// subtree) or the toolbar's Invert, and the frames drawn (name, count,
// place) equal those of the graph flamegraph-svg draws from stackcollapse
// --hide, --show-from, --ignore, --prune-from, --collapse-recursion or
// --invert of the same input; the URL keeps the steps and a reload
// draws the same; a breadcrumb's × removes its step; the table follows;
// hostile names stay text in the breadcrumbs.  In a --diff graph, the
// same steps draw what flamegraph-svg --diff draws of stackcollapse's
// step applied to both inputs, and its table follows.  Prints "ok NAME" or
// "FAIL NAME: why" per check and "done", for tests/run.sh.
//   node xform.test.js BIN_DIR TMP_DIR [CHROMIUM]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { launch, openPage } = require("./cdp.js");
const { check, done } = require("./verdict.js");

const [bin, tmp, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
const write = (name, text) => { const f = path.join(tmp, name); fs.writeFileSync(f, text); return f; };
const run = (prog, args, input) => execFileSync(path.join(bin, prog), args, { input, stdio: ["pipe", "pipe", "ignore"] }).toString();
const svgOf = (name, folded) => write(name + ".svg", run("flamegraph-svg", [write(name + ".folded", folded)]));

// Recursion, a function at several depths and under several callers,
// a stack that --hide leaves empty, a hostile name.
const evil = "</script><script>alert(1)";
const input = ["main;a;b;c 50", "main;c;d 30", "main;a;c;e 20", "main;b;b;b 40", "main;x;a;y 60",
	"a 15", "main;a;a;c 25", "main;" + evil + ";c 10", "main;x;b;c;a 12", "main 7"].join("\n") + "\n";

const helpers = `
	window.T = {
		svg() { return document.querySelector("svg"); },
		// The frames drawn: name, count, place (the row from the root's,
		// as a graph with fewer rows is shorter); in place order.
		drawn() {
			const fs = T.svg().flamegraph.frames().filter((f) => f.state !== "hide" && f.w > 0), y0 = fs.find((f) => f.name === "all").y;
			return fs.map((f) => [y0 - f.y, +f.x.toFixed(3), f.name, f.n, +f.w.toFixed(3)]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		},
		center(name) {
			const f = T.svg().flamegraph.frames().find((e) => e.name === name && e.w > 0), m = T.svg().getScreenCTM();
			return [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d];
		},
		button(text) {
			const b = Array.from(document.querySelectorAll("button")).find((e) => e.textContent === text || e.getAttribute("aria-label") === text);
			const r = b.getBoundingClientRect();
			return [r.x + r.width / 2, r.y + r.height / 2];
		},
		// A --diff graph's frames drawn: as drawn(), with the title (both
		// sides and the change) for the count, and the fill.
		diffDrawn() {
			const fs = T.svg().flamegraph.frames().filter((f) => f.state !== "hide" && f.w > 0), y0 = fs.find((f) => f.name === "all").y;
			return fs.map((f) => [y0 - f.y, +f.x.toFixed(3), f.name, f.title, +f.w.toFixed(3), f.fill]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		},
		crumbs() { return Array.from(document.querySelectorAll(".crumb")).map((c) => c.firstChild.textContent); },
	};`;

(async () => {
	const browser = launch(chromium);
	try {
		const page = await openPage(browser);
		const exceptions = () => page.events.filter((e) => e.method === "Runtime.exceptionThrown").length;
		const dialogs = () => page.events.filter((e) => e.method === "Page.javascriptDialogOpening").length;
		const file = svgOf("xf", input);
		const open = async (url) => {
			await page.goto(url);
			await page.eval(helpers);
		};
		// The frames of flamegraph-svg's graph of stackcollapse ARGS of the input.
		const expected = async (name, folded) => {
			await open("file://" + svgOf(name, folded));
			return page.eval(`T.drawn()`);
		};
		const menu = async (name, item) => {
			const [x, y] = await page.eval(`T.center(${JSON.stringify(name)})`);
			await page.mouse("mouseMoved", x, y);
			await page.mouse("mousePressed", x, y, { button: "right" });
			await page.mouse("mouseReleased", x, y, { button: "right" });
			const items = await page.eval(`Array.from(document.querySelectorAll("[role=menuitem]")).map((b) => b.textContent).join("|")`);
			const [bx, by] = await page.eval(`T.button(${JSON.stringify(item)})`);
			await page.click(bx, by);
			return items;
		};
		const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
		const show = (a) => a.map((f) => f[2] + ":" + f[3]).join(",");

		const plain = await expected("plain", input);
		const cases = [
			["Merge function", "a", ["--hide=^a$"], "merge:a"],
			["Focus on function", "c", ["--show-from=^c$"], "focus:c"],
			["Drop samples with function", "x", ["--ignore=^x$"], "drop:x"],
			["Collapse function", "a", ["--prune-from=^a$"], "collapse:a"],
			["Collapse recursion", "b", ["--collapse-recursion"], "rec"],
		];
		for (const [item, name, args, t] of cases) {
			const want = await expected("want", run("stackcollapse", args, input));
			await open("file://" + file);
			const items = await menu(name, item);
			if (item === "Merge function")
				check("menu: its items", items === "Copy name|Copy stack|Zoom|Search for this name|Show callers and callees|Merge function|" +
					"Focus on function|Focus on subtree|Drop samples with function|Collapse function|Collapse recursion", items);
			let got = await page.eval(`T.drawn()`);
			check(item + ": frames equal stackcollapse " + args.join(" "), same(got, want) && !same(got, plain), show(got) + " vs " + show(want));
			const url = await page.eval(`location.href`);
			check(item + ": in the URL", new URL(url).searchParams.getAll("t").join() === t, url);
			await open(url);
			got = await page.eval(`T.drawn()`);
			check(item + ": a reload draws the same", same(got, want), show(got));
			const crumbs = await page.eval(`T.crumbs()`);
			check(item + ": a breadcrumb", crumbs.length === 1 && crumbs[0] === item + (t === "rec" ? "" : ": " + name), crumbs.join("|"));
		}

		// A hot/cold graph (folded(5)'s [off-cpu] marks): after a step,
		// each frame's title (its off-CPU share) and colour are those of
		// the graph of stackcollapse's step, as they were before the step.
		const hc = ["main;spin 40", "main;wait;read;[off-cpu] 30", "main;wait;lock;[off-cpu] 20", "main;wait;lock 10",
			"main;a;wait;read;[off-cpu] 15", "main;a;b 25"].join("\n") + "\n";
		const hcDrawn = `T.svg().flamegraph.frames().filter((f) => f.w > 0).map((f) => [f.name, f.title, f.fill]).sort()`;
		await open("file://" + svgOf("hc", hc));
		const hcPlain = await page.eval(hcDrawn);
		for (const [item, name, args] of [["Merge function", "wait", ["--hide=^wait$"]], ["Focus on function", "wait", ["--show-from=^wait$"]]]) {
			await open("file://" + svgOf("hcwant", run("stackcollapse", ["--format=folded"].concat(args), hc)));
			const want = await page.eval(hcDrawn);
			await open("file://" + path.join(tmp, "hc.svg"));
			await menu(name, item);
			const got = await page.eval(hcDrawn);
			check("hot/cold: " + item + ": titles and colours equal stackcollapse " + args.join(" ") + "'s graph",
				same(got, want) && !same(got, hcPlain), JSON.stringify(got) + "\n vs " + JSON.stringify(want));
		}

		// Steps in a chain, then a breadcrumb removed, then the table.
		await open("file://" + file);
		await menu("c", "Focus on function");
		await menu("d", "Drop samples with function");
		let [x, y] = await page.eval(`T.button("Invert")`);
		await page.click(x, y);
		let url = await page.eval(`location.href`);
		let want = await expected("chain", run("stackcollapse", ["--show-from=^c$", "--ignore=^d$", "--invert"], input));
		await open(url);
		let got = await page.eval(`T.drawn()`);
		check("chain: focus, drop, invert equal stackcollapse's", same(got, want), show(got) + " vs " + show(want));
		check("chain: breadcrumbs in order", (await page.eval(`T.crumbs().join("|")`)) === "Focus on function: c|Drop samples with function: d|Invert",
			await page.eval(`T.crumbs().join("|")`));
		[x, y] = await page.eval(`T.button("Remove Drop samples with function")`);
		await page.click(x, y);
		url = await page.eval(`location.href`);
		want = await expected("chain2", run("stackcollapse", ["--show-from=^c$", "--invert"], input));
		await open(url);
		got = await page.eval(`T.drawn()`);
		check("chain: a breadcrumb's × removes its step", same(got, want), show(got) + " vs " + show(want));
		const table = run("stackcollapse", ["--show-from=^c$", "--invert", "--to=table", write("in.folded", input)]).split("\n")
			.filter((l) => l && l[0] !== "#").map((l) => { const c = l.split("\t"); return [c.slice(4).join("\t"), +c[0], +c[1]]; });
		await page.eval(`T.svg().flamegraph.view("table")`);
		const mine = await page.eval(`T.svg().flamegraph.table().map((r) => r.slice(0, 3))`);
		check("table follows the transforms", same(mine, table), JSON.stringify(mine) + " vs " + JSON.stringify(table));

		// Focus on subtree: main;a's stacks only, from a.
		want = await expected("subtree", input.split("\n").filter((l) => /^main;a[; ]/.test(l)).map((l) => l.slice(5)).join("\n") + "\n");
		await open("file://" + file);
		const sub = await page.eval(`(() => { const f = T.svg().flamegraph.frames().find((e) => e.name === "a" && e.y === T.svg().flamegraph.frames().find((g) => g.name === "main").y - 16);
			const m = T.svg().getScreenCTM(); return [m.e + (f.x + f.w / 2) * m.a, m.f + (f.y + f.h / 2) * m.d]; })()`);
		await page.mouse("mouseMoved", sub[0], sub[1]);
		await page.mouse("mousePressed", sub[0], sub[1], { button: "right" });
		await page.mouse("mouseReleased", sub[0], sub[1], { button: "right" });
		[x, y] = await page.eval(`T.button("Focus on subtree")`);
		await page.click(x, y);
		await open(await page.eval(`location.href`));
		got = await page.eval(`T.drawn()`);
		check("Focus on subtree: the frame's own stacks, from it", same(got, want), show(got) + " vs " + show(want));

		// A --diff graph: each step rewrites both sides, and the frames
		// drawn (name, title with before, after and the change, place,
		// fill) are those flamegraph-svg --diff draws of stackcollapse's
		// step applied to each input; the table is stackcollapse --diff
		// --to=table's with the step; the URL keeps it with the width.
		const after = ["main;a;b;c 30", "main;c;d 55", "main;a;c;e 20", "main;b;b;b 10", "main;x;a;y 61",
			"main;x;z 9", "main;a;a;c 5", "main;q;c 8", "main 3"].join("\n") + "\n";
		const diffOf = (name, b, a, args) => write(name + ".svg", run("flamegraph-svg", ["--diff"].concat(args || [],
			[write(name + "-b.folded", b), write(name + "-a.folded", a)])));
		const diffWant = async (name, args, svgArgs, query) => {
			await open("file://" + diffOf(name, run("stackcollapse", args, input), run("stackcollapse", args, after), svgArgs) + (query || ""));
			return page.eval(`T.diffDrawn()`);
		};
		const diffFile = diffOf("d", input, after);
		const dshow = (a) => a.map((f) => f[3]).join(",");
		const dplain = await diffWant("dplain", []);
		for (const [item, name, args, t, query] of [["Merge function", "a", ["--hide=^a$"], "merge:a"],
			["Focus on function", "c", ["--show-from=^c$"], "focus:c"],
			["Drop samples with function", "x", ["--ignore=^x$"], "drop:x", "?dw=max"]]) {
			const want = await diffWant("dwant", args, query ? ["--diff-width=max"] : []);
			await open("file://" + diffFile + (query || ""));
			await menu(name, item);
			let got = await page.eval(`T.diffDrawn()`);
			check("diff: " + item + " equals flamegraph-svg --diff of stackcollapse " + args.join(" ") + (query ? " by max" : ""),
				same(got, want) && !same(got, dplain), dshow(got) + "\n vs " + dshow(want));
			const url = await page.eval(`location.href`);
			check("diff: " + item + " in the URL", new URL(url).searchParams.getAll("t").join() === t &&
				new URL(url).searchParams.get("dw") === (query ? "max" : null), url);
			await open(url);
			got = await page.eval(`T.diffDrawn()`);
			check("diff: " + item + ": a reload draws the same", same(got, want), dshow(got));
			await page.eval(`T.svg().flamegraph.view("table")`);
			const mine = (await page.eval(`T.svg().flamegraph.table()`)).map((r) => r.slice(1, 5).concat(r[0]).join("\t")).join("\n");
			const ref = run("stackcollapse", ["--diff", "--to=table"].concat(args, [write("d-b.folded", input), write("d-a.folded", after)]))
				.split("\n").filter((l) => l && l[0] !== "#").join("\n");
			check("diff: " + item + ": the table is stackcollapse --diff --to=table's", mine === ref, mine + "\n vs\n" + ref);
		}
		// Two steps and the toolbar's Invert, then all removed: the file's own again.
		await open("file://" + diffFile);
		await menu("c", "Focus on function");
		[x, y] = await page.eval(`T.button("Invert")`);
		await page.click(x, y);
		url = await page.eval(`location.href`);
		want = await diffWant("dchain", ["--show-from=^c$", "--invert"]);
		await open(url);
		got = await page.eval(`T.diffDrawn()`);
		check("diff: focus and invert equal stackcollapse's", same(got, want), dshow(got) + "\n vs " + dshow(want));
		for (const step of ["Invert", "Focus on function"]) {
			[x, y] = await page.eval(`T.button("Remove ${step}")`);
			await page.click(x, y);
		}
		got = await page.eval(`T.diffDrawn()`);
		check("diff: steps removed, the file's own graph", same(got, dplain) && (await page.eval(`location.search`)) === "", dshow(got));

		// Hostile names: the breadcrumb is text, and a reload keeps it.
		const before = dialogs();
		await open("file://" + file);
		await menu(evil, "Merge function");
		await open(await page.eval(`location.href`));
		const c = await page.eval(`[T.crumbs().join("|"), document.querySelectorAll("script").length, T.drawn().some((f) => f[2] === ${JSON.stringify(evil)})]`);
		check("hostile: breadcrumb is text", c[0] === "Merge function: " + evil && c[1] <= 1 && !c[2] && dialogs() === before, JSON.stringify(c));
		check("no script exception", exceptions() === 0, exceptions() + " exceptions");
	} catch (e) {
		check("ran to the end", false, e.stack);
	} finally {
		browser.close();
	}
	done();
})();
