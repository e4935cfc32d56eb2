// outer names, used inside; each function's own names start again at the
// shortest letters that no outer name it uses has
var total = 0, label = "x";
var unused = 1;
function add(count, weight) {
	var sum = count * weight;
	total += sum;
	return [1, 2].map((step) => step + sum + total);
}
function show(text) {
	let shown = text + label;
	return shown;
}
// === stays next to a number, a string a number can equal ("1e3", " ",
// "Infinity"), or two names; == otherwise
function cmp(v, w) {
	return [v === "svg", v !== 'none', v === "1e3", v === " ", v === "Infinity", v === 2, v === w];
}
for (var i = 0; i < 2; i++) var j = i; var k = 0;
window.api = [add, show, cmp, unused, k];
