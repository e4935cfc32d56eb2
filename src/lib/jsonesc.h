/*
 * jsonesc: names from input written as JSON strings, for the programs
 * that write JSON (stackcollapse --to=speedscope, spanlayout --to=chrome).
 *
 * Input bytes are not trusted to be UTF-8.  What JSON cannot carry raw is
 * escaped: '"' and '\' by a backslash; tab, newline, carriage return,
 * backspace and form feed by their short escapes; every other C0 control
 * byte and DEL as \u00XX (so NUL is \u0000 and ESC \u001b, and no
 * terminal sequence reaches a file a person may cat).  A byte that does
 * not start a valid UTF-8 sequence (a stray continuation byte, an
 * overlong form, a surrogate, a sequence cut short) is written as
 * \ufffd, one per byte, as xmlesc does: JSON text must be Unicode, and a
 * reader given raw invalid bytes would refuse the whole file or mangle
 * them its own way.  That is the one lossy step, said in folded(5).
 * Valid UTF-8 is copied as it is, so names in other scripts stay
 * readable.  Rejected: \u00XX for an invalid byte, which a reader takes
 * for the Latin-1 character of that value (a different name that looks
 * right), and escaping all non-ASCII, which makes names unreadable.
 */
#ifndef FT_JSONESC_H
#define FT_JSONESC_H

#include <stddef.h>

/* Write s[0..n) as a JSON string, quotes included, to standard output (out.h). */
void json_out(const char *s, size_t n);

/*
 * For JSON inside XML or HTML (a graph's data in its <script>): also
 * < > & as \u003c \u003e \u0026, so that neither "]]>" nor "</script"
 * can appear, every control byte as \u00XX, and what XML 1.0 forbids
 * (U+FFFE, U+FFFF, ...) as U+FFFD, as xmlesc does.  _body writes the
 * inside alone, for a string written in parts.
 */
void json_out_xml(const char *s, size_t n);
void json_out_xml_body(const char *s, size_t n);
/*
 * The same as json_out into d, which has room for 6 * n + 2 bytes; returns the
 * length written (no NUL).  For tests and callers that buffer.
 */
size_t json_esc(char *d, const char *s, size_t n);

#endif
