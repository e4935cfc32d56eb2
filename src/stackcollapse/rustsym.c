/*
 * rustsym: see rustsym.h.  One table of Rust's legacy escapes, shared by
 * every format whose profiler leaves them half demangled.
 */
#include <string.h>

#include "rustsym.h"

size_t
rust_fix(const char *fp, size_t fn, char *buf)
{
	static const struct {
		const char *esc, *out;
	} tab[] = {
		{ "$SP$", "@" }, { "$BP$", "*" }, { "$RF$", "&" },
		{ "$LT$", "<" }, { "$GT$", ">" }, { "$LP$", "(" },
		{ "$RP$", ")" }, { "$C$", "," }, { "$u7e$", "~" },
		{ "$u20$", " " }, { "$u27$", "'" }, { "$u3d$", "=" },
		{ "$u5b$", "[" }, { "$u5d$", "]" }, { "$u7b$", "{" },
		{ "$u7d$", "}" }, { "$u3b$", ";" }, { "$u2b$", "+" },
		{ "$u21$", "!" }, { "$u22$", "\"" },
	};
	const char *r, *e;
	size_t n = 0, i, k;

	if (fn < 17 || fp[fn - 17] != 'h')
		return 0;
	for (i = fn - 16; i < fn; i++)
		if (!(fp[i] >= '0' && fp[i] <= '9') &&
		    !((fp[i] | 0x20) >= 'a' && (fp[i] | 0x20) <= 'f'))
			return 0;
	r = fp;
	e = fp + fn - 17;
	if (e - r >= 2 && memcmp(e - 2, "::", 2) == 0)
		e -= 2;
	if (e - r >= 2 && r[0] == '_' && r[1] == '$')
		r++;
	while (r < e) {
		if (*r == '.') {
			if (e - r >= 2 && r[1] == '.') {
				buf[n++] = ':';
				buf[n++] = ':';
				r += 2;
			} else {
				buf[n++] = *r++;
			}
		} else if (*r == '$') {
			for (k = 0; k < sizeof tab / sizeof tab[0]; k++) {
				size_t el = strlen(tab[k].esc);

				if ((size_t)(e - r) >= el &&
				    memcmp(r, tab[k].esc, el) == 0) {
					buf[n++] = tab[k].out[0];
					r += el;
					break;
				}
			}
			if (k == sizeof tab / sizeof tab[0]) {
				memcpy(buf + n, r, (size_t)(e - r));
				n += (size_t)(e - r);
				break;
			}
		} else {
			buf[n++] = *r++;
		}
	}
	return n;
}

