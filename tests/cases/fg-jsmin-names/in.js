/* jsmin.awk's renaming: what it renames, and what it must not touch. */
var count = 0, label = "count", b = a, on = true, off = { false: false };
function bump(step, g) {
	var obj = { count: step, label: label, g: g ? count : step };
	count += obj.count;
	try { g = "step g count".replace(/g/g, "x"); } catch (err) { return err; }
	return [1, 2].map((v) => v + step).concat([3].map(x => x * g), obj.label);
}
window.bump = bump;
top.count = count
function sum(list, of) { var s = of; for (var x of list) s += x; return s; }
