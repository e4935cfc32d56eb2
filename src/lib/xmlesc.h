/*
 * xmlesc: names from input, made safe for XML text and attributes.
 *
 * Input bytes are not trusted to be UTF-8 or XML: a byte that does not start
 * a valid UTF-8 sequence becomes U+FFFD, and so does every code point XML
 * 1.0 forbids (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; surrogates),
 * so no NUL or ESC ever reaches the output.  & < > " ' become entities, so
 * the result is inert in text and in single- or double-quoted attributes,
 * and "]]>" cannot close a CDATA section because '>' is escaped.
 * Truncation counts code points, never splitting a character.
 */
#ifndef FT_XMLESC_H
#define FT_XMLESC_H

#include <stddef.h>

/*
 * Length of the UTF-8 character at s[0..n), or 0 when it is invalid (the
 * byte then stands for U+FFFD).  *cp gets the code point.
 */
size_t utf8_char(const char *s, size_t n, unsigned *cp);
/* Number of characters in s[0..n), an invalid byte counting as one. */
size_t utf8_count(const char *s, size_t n);
/* Bytes taken by the first k characters of s[0..n). */
size_t utf8_prefix(const char *s, size_t n, size_t k);
/* May code point cp appear in XML 1.0 text? */
int xml_allowed(unsigned cp);
/* Whether s[0..n) is written as it is: printable ASCII but & < > " '. */
int xml_plain(const char *s, size_t n);
/* Write s[0..n) escaped to standard output (out.h). */
void xml_out(const char *s, size_t n);

#endif
