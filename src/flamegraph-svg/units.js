/*
 * units: counts in --countname's unit where it is one (scriptdata.c embeds this
 * file where --countname is not samples; flame.js's amount() is the
 * rest): as Pyroscope's Duration and Bytes formatters show them, a time
 * (ns, us, ms, s) or a size (bytes, KiB, ...) in the largest unit that
 * keeps it at least 1, with two decimals; anything else (objects) exact,
 * and its name.
 */
amount = (v) => {
	var c = D.countname, u = ["ns", "µs", "ms", "s"], i = u.indexOf(c === "us" ? "µs" : c), k = 1000;
	if (i < 0) { u = ["bytes", "KiB", "MiB", "GiB", "TiB"]; i = u.indexOf(c === "B" ? "bytes" : c); k = 1024; }
	if (i < 0) return exact(v) + " " + c;
	for (; i < u.length - 1 && Math.abs(v) >= k; i++) v /= k;
	return (Number.isInteger(v) ? v : v.toFixed(2)) + " " + u[i];
};
