// Pixels of a PNG screenshot, for the browser tests' pixel checks.
"use strict";
const zlib = require("zlib");

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

// The colour of a pixel, as "r,g,b".
function pixel(png, x, y) {
	const i = (Math.round(y) * png.w + Math.round(x)) * png.bpp;
	return [png.data[i], png.data[i + 1], png.data[i + 2]].join(",");
}

module.exports = { pngPixels, pixel };
