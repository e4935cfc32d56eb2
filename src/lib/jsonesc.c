/*
 * jsonesc: see jsonesc.h for the design note.  One function escapes into
 * a buffer; json_out runs it a slice at a time, so a megabyte-long name
 * costs no allocation.
 */
#include "jsonesc.h"
#include "out.h"
#include "xmlesc.h"

/*
 * The inside of the string: no quotes around it.  With xml, also < > &
 * as \u escapes and what XML forbids as U+FFFD (json_out_xml).
 */
static size_t
body(char *d, const char *s, size_t n, int xml)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, w = 0, k;
	unsigned cp;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' &&
		    !(xml && (c == '<' || c == '>' || c == '&'))) {
			d[w++] = (char)c;
			i++;
			continue;
		}
		if (c >= 0x80) {
			if ((k = utf8_char(s + i, n - i, &cp)) != 0 &&
			    (!xml || xml_allowed(cp))) {
				while (k-- > 0)
					d[w++] = s[i++];
			} else {
				for (const char *r = "\\ufffd"; *r; r++)
					d[w++] = *r;
				i += k ? k : 1;
			}
			continue;
		}
		d[w++] = '\\';
		switch (xml && c < 0x20 ? 0 : c) {
		case '"': d[w++] = '"'; break;
		case '\\': d[w++] = '\\'; break;
		case '\b': d[w++] = 'b'; break;
		case '\f': d[w++] = 'f'; break;
		case '\n': d[w++] = 'n'; break;
		case '\r': d[w++] = 'r'; break;
		case '\t': d[w++] = 't'; break;
		default:
			d[w++] = 'u';
			d[w++] = '0';
			d[w++] = '0';
			d[w++] = hex[c >> 4];
			d[w++] = hex[c & 15];
		}
		i++;
	}
	return w;
}

size_t
json_esc(char *d, const char *s, size_t n)
{
	size_t w = body(d + 1, s, n, 0) + 1;

	d[0] = '"';
	d[w++] = '"';
	return w;
}

/* body of s[0..n) to standard output, a slice at a time */
static void
out_body(const char *s, size_t n, int xml)
{
	enum { SLICE = 4096 };
	char buf[6 * SLICE];
	size_t i = 0, len, k;

	while (i < n) {
		len = n - i < SLICE ? n - i : SLICE;
		/*
		 * A slice does not end inside a character: back to the lead
		 * byte of one the next byte continues (at most 3 back; a
		 * longer run of continuation bytes is invalid anyway, each a
		 * U+FFFD wherever it is cut).
		 */
		for (k = 0; i + len < n && k < 3 &&
		    ((unsigned char)s[i + len - k] & 0xc0) == 0x80; k++)
			;
		len -= k;
		out_write(buf, body(buf, s + i, len, xml));
		i += len;
	}
}

void
json_out(const char *s, size_t n)
{
	out_char('"');
	out_body(s, n, 0);
	out_char('"');
}

void
json_out_xml(const char *s, size_t n)
{
	out_char('"');
	out_body(s, n, 1);
	out_char('"');
}

void
json_out_xml_body(const char *s, size_t n)
{
	out_body(s, n, 1);
}
