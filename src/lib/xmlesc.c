/*
 * xmlesc: see xmlesc.h for the design note.
 */
#include <string.h>

#include "out.h"
#include "xmlesc.h"

size_t
utf8_char(const char *s, size_t n, unsigned *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned c = p[0], min, k, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		k = 1, c &= 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		k = 2, c &= 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		k = 3, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < k + 1)
		return 0;
	for (i = 1; i <= k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return k + 1;
}

size_t
utf8_count(const char *s, size_t n)
{
	size_t i = 0, count = 0, k;
	unsigned cp;

	while (i < n) {
		k = utf8_char(s + i, n - i, &cp);
		i += k ? k : 1;
		count++;
	}
	return count;
}

size_t
utf8_prefix(const char *s, size_t n, size_t want)
{
	size_t i = 0, k;
	unsigned cp;

	while (i < n && want-- > 0) {
		k = utf8_char(s + i, n - i, &cp);
		i += k ? k : 1;
	}
	return i;
}

int
xml_allowed(unsigned cp)
{
	if (cp < 0x20)
		return cp == '\t' || cp == '\n' || cp == '\r';
	return cp != 0xfffe && cp != 0xffff;
}

void
xml_out(const char *s, size_t n)
{
	size_t i = 0, run = 0, k;
	unsigned cp;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		const char *rep = NULL;

		if (c >= 0x20 && c < 0x80 && c != '&' && c != '<' && c != '>' &&
		    c != '"' && c != '\'') {
			i++;
			continue;
		}
		k = utf8_char(s + i, n - i, &cp);
		if (k && xml_allowed(cp) && c >= 0x80) {
			i += k;
			continue;
		}
		out_write(s + run, i - run);
		switch (k ? c : 0) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			rep = k && xml_allowed(cp) ? NULL : "\xef\xbf\xbd";
		}
		if (rep)
			out_write(rep, strlen(rep));
		else
			out_write(s + i, k);
		i += k ? k : 1;
		run = i;
	}
	out_write(s + run, i - run);
}
