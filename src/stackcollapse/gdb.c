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
 * Perl script, a frame line needs four words, and any other line ends the
 * stack, which counts 1.
 */
#include <string.h>

#include "formats.h"

/* The first four blank-separated words after "#N ", Perl's split. */
static int
words(const char *l, size_t n, const char *w[4], size_t wl[4])
{
	size_t i = 1, k;

	while (i < n && l[i] >= '0' && l[i] <= '9')
		i++;
	while (i < n && l[i] == ' ')
		i++;
	for (k = 0; k < 4; k++) {
		size_t s = i;

		while (i < n && l[i] != ' ')
			i++;
		w[k] = l + s;
		wl[k] = i - s;
		if (k < 3) {
			if (i >= n)
				return 0;
			i++;
		}
	}
	return 1;
}

int
gdb_collapse(struct reader *r)
{
	struct fstack fs;
	const char *l, *w[4];
	size_t n, wl[4];
	int ret;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (n >= 6 && memcmp(l, "Thread", 6) == 0) {
			fs_truncate(&fs, 0);
		} else if (n && l[0] == '#' && words(l, n, w, wl)) {
			int hex = memmem(w[0], wl[0], "0x", 2) != NULL;

			if (hex)
				fs_push(&fs, w[2], wl[2]);
			else
				fs_push(&fs, w[0], wl[0]);
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
int
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
