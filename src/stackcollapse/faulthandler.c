/*
 * faulthandler: Python tracebacks dumped by the faulthandler module again
 * and again (stackcollapse-faulthandler.pl).
 *
 *	faulthandler.dump_traceback_later(0.01, repeat=True, file=f)
 *
 * or the dumps of "python3 -X faulthandler" when a process is killed.
 * Each '  File "FILE", line N in FUNC' line is a frame, the leaf first,
 * named FILE:N:FUNC; the first other line ends the stack, which counts 1,
 * except a "Thread ..." line, which drops it: as in the Perl script, a
 * thread's stack counts when a blank line or the next dump's header
 * follows it, not when the next thread's header does.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "formats.h"

/*
 * A frame line, /^  File "([^"]*)", line ([0-9]*) in (.*)/: 1 with its
 * frame FILE:N:FUNC in *buf, 0 when not one.
 */
static int
frame(const char *l, size_t n, char **buf, size_t *cap, size_t *len)
{
	const char *p, *e = l + n, *file, *num, *fn;
	size_t fl, nl;

	if (!FMT_STARTS(l, n, "  File \""))
		return 0;
	file = l + 8;
	if ((p = memchr(file, '"', (size_t)(e - file))) == NULL)
		return 0;
	fl = (size_t)(p - file);
	if (!FMT_STARTS(p, (size_t)(e - p), "\", line "))
		return 0;
	num = p += 8;
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	nl = (size_t)(p - num);
	if (!FMT_STARTS(p, (size_t)(e - p), " in "))
		return 0;
	fn = p + 4;
	*len = fl + 1 + nl + 1 + (size_t)(e - fn);
	*buf = xgrow(*buf, cap, *len, 1);
	memcpy(*buf, file, fl);
	(*buf)[fl] = ':';
	memcpy(*buf + fl + 1, num, nl);
	(*buf)[fl + 1 + nl] = ':';
	memcpy(*buf + fl + nl + 2, fn, (size_t)(e - fn));
	return 1;
}

static int
faulthandler_collapse(struct reader *r)
{
	struct fstack fs;
	const char *l;
	char *buf = NULL;
	size_t n, cap = 0, len;
	int ret;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (FMT_STARTS(l, n, "Thread"))
			fs_truncate(&fs, 0);
		else if (frame(l, n, &buf, &cap, &len))
			fs_push(&fs, buf, len);
		else if (fs.n)
			rd_put_stack(r, &fs, 1);
	}
	if (ret == 0 && fs.n)
		rd_put_stack(r, &fs, 1);
	fs_free(&fs);
	free(buf);
	return ret;
}

/*
 * A dump's header, "Thread 0x...", "Current thread 0x..." or "Stack"
 * with "(most recent call first):", then a frame line.
 */
static int
faulthandler_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int head = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		if (FMT_ENDS(l, len, " (most recent call first):") &&
		    (FMT_STARTS(l, len, "Thread 0x") ||
		    FMT_STARTS(l, len, "Current thread 0x") ||
		    FMT_STARTS(l, len, "Stack (")))
			head = 1;
		else if (head && FMT_STARTS(l, len, "  File \""))
			return 1;
		else
			head = 0;
	}
	return 0;
}

const struct format faulthandler_format = {
	.name = "faulthandler",
	.detect = faulthandler_detect,
	.collapse = faulthandler_collapse,
};
