// Checks stackcollapse --to=flamebearer output with Pyroscope's own npm
// package, @pyroscope/models: FlamebearerProfileSchema must accept it, and
// the levels that decodeFlamebearer gives must hold exactly the stacks of
// the expected folded file (two columns for a "double" profile: left
// before, right after): each bar's parent is the bar below whose span
// holds it, its weight its total less its children's.
//
// usage: node check.js MODELS_DIR NAME OUTPUT.json EXPECTED.folded ...
// prints "ok NAME" or "FAIL NAME: why" per check, then "done".
"use strict";
const fs = require("fs");
const models = require(process.argv[2]);

function stacks(p) {
	const fb = p.flamebearer, dbl = p.metadata.format === "double";
	const step = dbl ? 7 : 4, ncol = dbl ? 2 : 1, out = new Map();
	let below = [];
	fb.levels.forEach((lv, d) => {
		const row = [];
		for (let j = 0; j < lv.length; j += step) {
			const b = { name: fb.names[lv[j + step - 1]], tot: [], start: 0,
			    w: 0, kids: [0, 0], parent: null };
			for (let c = 0; c < ncol; c++) b.tot.push(lv[j + 3 * c + 1]);
			b.start = dbl ? lv[j] + lv[j + 3] : lv[j];
			b.w = b.tot.reduce((a, x) => a + x, 0);
			if (d > 0) {
				b.parent = below.find((q) => q.start <= b.start &&
				    b.start + b.w <= q.start + q.w);
				if (!b.parent) throw new Error("a bar no bar holds at level " + d);
				b.path = (b.parent.path === undefined ? "" : b.parent.path + ";") + b.name;
				for (let c = 0; c < ncol; c++) b.parent.kids[c] += b.tot[c];
			}
			row.push(b);
		}
		below.forEach((q) => q.done = true);
		below = row;
		row.all = true;
		(stacks.all = stacks.all || []).push(...row);
	});
	for (const b of stacks.all) {
		if (b.path === undefined) continue;
		const self = b.tot.map((t, c) => t - b.kids[c]);
		if (self.some((x) => x < 0)) throw new Error("a total below its children's");
		if (self.every((x) => x === 0)) continue;
		const prev = out.get(b.path) || [0, 0];
		out.set(b.path, prev.map((x, c) => x + (self[c] || 0)));
	}
	stacks.all = [];
	return out;
}

const args = process.argv.slice(3);
for (let i = 0; i < args.length; i += 3) {
	const name = args[i];
	try {
		const raw = JSON.parse(fs.readFileSync(args[i + 1], "utf8"));
		const p = models.decodeFlamebearer(models.FlamebearerProfileSchema.parse(raw));
		const got = stacks(p), dbl = p.metadata.format === "double";
		const want = new Map();
		for (const l of fs.readFileSync(args[i + 2], "utf8").split("\n")) {
			if (l === "") continue;
			const f = l.split(" ");
			const v = dbl ? [+f[f.length - 2], +f[f.length - 1]] : [+f[f.length - 1], 0];
			const s = f.slice(0, f.length - (dbl ? 2 : 1)).join(" ").replace(/;+$/, "");
			if (v[0] === 0 && v[1] === 0) continue;
			const prev = want.get(s) || [0, 0];
			want.set(s, [prev[0] + v[0], prev[1] + v[1]]);
		}
		let bad = null;
		for (const [s, v] of want) {
			const g = got.get(s) || [0, 0];
			if (g[0] !== v[0] || g[1] !== v[1]) { bad = s + ": " + g + " for " + v; break; }
		}
		if (!bad && got.size !== want.size) bad = got.size + " stacks for " + want.size;
		console.log(bad ? "FAIL " + name + ": " + bad : "ok " + name);
	} catch (e) {
		console.log("FAIL " + name + ": " + e.message);
	}
}
console.log("done");
