/*
 * gdb: backtraces of all threads taken again and again by gdb, the poor
 * man's profiler (stackcollapse-gdb.pl).
 *
 *	for i in $(seq 100); do gdb -p PID -batch -ex 'thread apply all bt'
 *	    2>/dev/null; sleep 0.1; done > out.txt
 *
 * A "Thread ..." line starts a stack; each "#N ..." line is a frame, the
 * leaf first: "#1  0x... in FUNC (args) at file:line" gives FUNC, a frame
 * without an address ("#0  FUNC (args) ...") its first word.  Like the
 * Perl script, a frame line needs three blanks after "#N", and any other
 * line ends the stack, which counts 1.
 */
#include <string.h>

#include "../lib/scan.h"
#include "formats.h"

/*
 * The function of a frame line, as the Perl script's
 * /^#[0-9]* *([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*)/ picks it: the third word
 * when the first holds "0x", else the first.  The match needs three
 * blanks after the leading ones; with fewer, the regex gives back leading
 * blanks and its first word is empty, so the function is too.  Returns 0
 * when the line does not match at all.
 */
static int
frame(const char *l, size_t n, const char **f, size_t *fl)
{
	const char *p = l + 1, *e = l + n, *b[3], *q;
	size_t lead;
	int k;

	while (p < e && *p >= '0' && *p <= '9')
		p++;
	for (lead = 0; p < e && *p == ' '; p++)
		lead++;
	for (k = 0, q = p; k < 3; k++, q = b[k - 1] + 1)
		if ((b[k] = scan_byte(q, e, ' ')) == NULL)
			break;
	if (k < 3) {
		if (lead + (size_t)k < 3)
			return 0;
		*f = p;
		*fl = 0;
		return 1;
	}
	if (b[0] - p >= 2 && ((p[0] == '0' && p[1] == 'x') ||
	    scan_mem(p, (size_t)(b[0] - p), "0x", 2) != NULL)) {
		*f = b[1] + 1;
		*fl = (size_t)(b[2] - *f);
	} else {
		*f = p;
		*fl = (size_t)(b[0] - p);
	}
	return 1;
}

static int
gdb_collapse(struct reader *r)
{
	struct fstack fs;
	const char *l, *f;
	size_t n, fl;
	int ret;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (n >= 6 && memcmp(l, "Thread", 6) == 0) {
			fs_truncate(&fs, 0);
		} else if (n && l[0] == '#' && frame(l, n, &f, &fl)) {
			/* The script's stack is one string: empty leaves vanish. */
			if (fs.len + 1 == fs.n)
				fs_truncate(&fs, 0);
			if (fs.n || fl)
				fs_push(&fs, f, fl);
		} else if (fs.n) {
			const char *s = fs_join(&fs, 1, &n);

			sink_put(r->sink, s, n, 1, 0);
			fs_truncate(&fs, 0);
		}
	}
	if (ret == 0 && fs.n) {
		const char *s = fs_join(&fs, 1, &n);

		sink_put(r->sink, s, n, 1, 0);
	}
	fs_free(&fs);
	return ret;
}

/* A "Thread N (...)" line, then "#0 " frame lines. */
static int
gdb_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int thread = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		if (len >= 7 && memcmp(l, "Thread ", 7) == 0)
			thread = 1;
		else if (thread && len > 3 && memcmp(l, "#0 ", 3) == 0)
			return 1;
	}
	return 0;
}

const struct format gdb_format = {
	.name = "gdb",
	.detect = gdb_detect,
	.collapse = gdb_collapse,
	.split = fmt_split_blank,	/* a blank line ends the stack */
};
