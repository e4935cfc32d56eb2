// Checks stackcollapse --to=speedscope output two ways, with Node alone:
//  1. against speedscope's own schema (file-format-schema.json from the
//     speedscope npm package), by a small JSON Schema validator of the
//     keywords that schema uses: $ref (to #/definitions/...), type,
//     properties, required, enum, const, items, anyOf; any other keyword
//     is refused, so that a newer schema that needs more is a failure
//     here and not a silent pass;
//  2. for meaning: the samples, decoded through the frames, with their
//     weights, must be the same stacks and counts as the folded output of
//     the same input (stackcollapse --to=folded), and endValue their sum.
//
// usage: node check.js SCHEMA NAME OUTPUT.json EXPECTED.folded ...
// (groups of three after SCHEMA); prints "ok NAME" or "FAIL NAME: why"
// per check, then "done".
"use strict";
const fs = require("fs");

const KNOWN = new Set(["$schema", "$ref", "definitions", "title", "type",
	"properties", "required", "enum", "const", "items", "anyOf"]);

function typeOf(v) {
	if (v === null) return "null";
	if (Array.isArray(v)) return "array";
	if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
	return typeof v;
}

function typeOk(want, v) {
	const t = typeOf(v);
	return want === t || (want === "number" && t === "integer");
}

// The first error as "path: what", or null.
function validate(root, schema, v, path) {
	for (const k of Object.keys(schema))
		if (!KNOWN.has(k)) return path + ": schema keyword " + k + " not supported";
	if (schema.$ref) {
		const m = /^#\/definitions\/(.*)$/.exec(schema.$ref);
		if (!m || !(m[1] in root.definitions)) return path + ": bad $ref " + schema.$ref;
		const e = validate(root, root.definitions[m[1]], v, path);
		if (e) return e;
	}
	if (schema.type !== undefined) {
		const types = [].concat(schema.type);
		if (!types.some((t) => typeOk(t, v)))
			return path + ": want " + types.join("|") + ", have " + typeOf(v);
	}
	if (schema.enum && !schema.enum.some((x) => x === v))
		return path + ": " + JSON.stringify(v) + " not in " + JSON.stringify(schema.enum);
	if ("const" in schema && schema.const !== v)
		return path + ": want " + JSON.stringify(schema.const);
	if (schema.required && typeOf(v) === "object")
		for (const k of schema.required)
			if (!(k in v)) return path + ": missing " + k;
	if (schema.properties && typeOf(v) === "object")
		for (const k of Object.keys(schema.properties))
			if (k in v) {
				const e = validate(root, schema.properties[k], v[k], path + "." + k);
				if (e) return e;
			}
	if (schema.items && typeOf(v) === "array")
		for (let i = 0; i < v.length; i++) {
			const e = validate(root, schema.items, v[i], path + "[" + i + "]");
			if (e) return e;
		}
	if (schema.anyOf) {
		const errs = schema.anyOf.map((s) => validate(root, s, v, path));
		if (errs.every((e) => e)) return errs.join("; or ");
	}
	return null;
}

// The validator must catch what the schema forbids: a few broken files.
function selfTest(schema) {
	const good = { $schema: "https://www.speedscope.app/file-format-schema.json",
		shared: { frames: [{ name: "a" }] },
		profiles: [{ type: "sampled", name: "p", unit: "none", startValue: 0,
			endValue: 1, samples: [[0]], weights: [1] }] };
	const bad = [
		(f) => { delete f.shared; },
		(f) => { f.profiles[0].unit = "furlongs"; },
		(f) => { f.profiles[0].type = "sample"; },
		(f) => { f.profiles[0].samples = [["0"]]; },
		(f) => { f.shared.frames[0] = { file: "x" }; },
		(f) => { f.$schema = "http://example.com/"; },
		(f) => { delete f.profiles[0].weights; },
	];
	if (validate(schema, schema, good, "$")) return "a good file refused: " + validate(schema, schema, good, "$");
	for (let i = 0; i < bad.length; i++) {
		const f = JSON.parse(JSON.stringify(good));
		bad[i](f);
		if (!validate(schema, schema, f, "$")) return "broken file " + i + " accepted";
	}
	return null;
}

function folded(text) {
	const m = new Map();
	for (const line of text.split("\n")) {
		if (line === "" || line.startsWith("# unit: ")) continue;	// folded(5)'s unit line
		const sp = line.lastIndexOf(" ");
		m.set(line.slice(0, sp), Number(line.slice(sp + 1)));
	}
	return m;
}

function meaning(f, want) {
	const p = f.profiles[0], names = f.shared.frames.map((fr) => fr.name);
	if (f.profiles.length !== 1 || p.type !== "sampled") return "not one sampled profile";
	if (p.samples.length !== p.weights.length) return "samples and weights differ in length";
	if (p.samples.length !== want.size) return p.samples.length + " samples, want " + want.size;
	let total = 0;
	const used = new Set();
	for (let i = 0; i < p.samples.length; i++) {
		for (const k of p.samples[i]) {
			if (!(k >= 0 && k < names.length)) return "sample " + i + ": frame " + k + " out of range";
			used.add(k);
		}
		// folded text keeps trailing empty frames out, as the writer does
		const st = p.samples[i].map((k) => names[k]).join(";");
		const w = want.get(st) !== undefined ? want.get(st) : want.get(st + ";");
		if (w === undefined) return "sample " + i + " " + JSON.stringify(st) + " not in the folded output";
		if (w !== p.weights[i]) return "stack " + JSON.stringify(st) + ": weight " + p.weights[i] + ", want " + w;
		total += p.weights[i];
	}
	if (used.size !== names.length) return "a frame no sample uses";
	if (new Set(names).size !== names.length) return "a frame named twice";
	if (p.startValue !== 0 || Math.abs(p.endValue - total) > 1e-9 * Math.max(1, total))
		return "startValue " + p.startValue + ", endValue " + p.endValue + ", want 0 and " + total;
	return null;
}

const [schemaPath, ...rest] = process.argv.slice(2);
const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8"));
const st = selfTest(schema);
console.log(st ? "FAIL speedscope schema: validator self-test: " + st : "ok speedscope schema: validator self-test");
for (let i = 0; i + 2 < rest.length; i += 3) {
	const name = rest[i];
	let f;
	try {
		f = JSON.parse(fs.readFileSync(rest[i + 1], "utf8"));
	} catch (e) {
		console.log("FAIL speedscope schema: " + name + ": not JSON: " + e.message);
		continue;
	}
	const e = validate(schema, schema, f, "$");
	console.log(e ? "FAIL speedscope schema: " + name + ": " + e : "ok speedscope schema: " + name);
	const m = meaning(f, folded(fs.readFileSync(rest[i + 2], "utf8")));
	console.log(m ? "FAIL speedscope stacks: " + name + ": " + m : "ok speedscope stacks: " + name);
}
console.log("done");
