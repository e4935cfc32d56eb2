/*
 * frac: the table's sums of fractional counts (scriptdata.c embeds this file
 * where a count has a fraction; table.js's stats() calls fractions()).
 * Fractions summed in binary come back to the decimals they were read
 * with, the most any count has: 0.1 + 0.2 is 0.3.
 */
fractions = () => {
	var dec = 0, digits = (v) => {
		var m = /(?:\.(\d+))?(?:e-(\d+))?$/.exec(String(v));
		return (m[1] ? m[1].length : 0) + (m[2] ? +m[2] : 0);
	};
	frames.concat(typeof D.tfix === "object" ? D.tfix.map((v) => ({ n: v })) : []).forEach((f) => {
		if (!Number.isInteger(f.n)) dec = Math.max(dec, digits(f.n));
	});
	if (dec) tab.forEach((r) => { r.self = +r.self.toFixed(dec); r.total = +r.total.toFixed(dec); });
};
