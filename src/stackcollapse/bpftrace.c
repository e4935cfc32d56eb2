/*
 * bpftrace: a map of stacks as bpftrace prints it when the program ends
 * (stackcollapse-bpftrace.pl).
 *
 *	bpftrace -e 'profile:hz:99 { @[kstack, ustack] = count(); }' > out.txt
 *
 * An entry is "@[" on a line of its own, then frames one a line (leaf
 * first, with their +offset, kept as the Perl script keeps them), then
 * "]: COUNT".  An entry on one line, "@[, ...]: COUNT", is taken whole.
 * Other lines (the "Attaching" banner, other maps) are passed over.
 */
#include <string.h>

#include "../lib/num.h"
#include "../lib/scan.h"
#include "formats.h"

/* The last "]: " followed by a digit: the count's line. */
static int
end_line(const char *l, size_t n, size_t *body, uint64_t *count)
{
	if (scan_byte(l, l + n, ']') == NULL)	/* every frame line */
		return 0;
	for (size_t i = n; i-- > 0;) {
		size_t d = i + 3;

		if (i + 3 >= n || memcmp(l + i, "]: ", 3) != 0 ||
		    l[d] < '0' || l[d] > '9')
			continue;
		while (d < n && l[d] >= '0' && l[d] <= '9')
			d++;
		if (num_parse_u64(l + i + 3, d - (i + 3), count) < 0)
			return -1;
		*body = i;
		return 1;
	}
	return 0;
}

static int
bpftrace_collapse(struct reader *r)
{
	struct fstack fs;
	const char *l;
	size_t n, body = 0;
	uint64_t count = 0;
	int ret, in_stack = 0, e;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if ((e = end_line(l, n, &body, &count)) < 0) {
			ret = rd_fail(r, "count does not fit in 64 bits");
			break;
		}
		if (!in_stack) {
			if (n == 2 && memcmp(l, "@[", 2) == 0)
				in_stack = 1;
			else if (e && n > 4 && memcmp(l, "@[,", 3) == 0 &&
			    (l[3] == ' ' || l[3] == '\t'))
				sink_put(r->sink, l + 4, body - 4, count, 0);
			continue;
		}
		if (e) {
			const char *s;
			size_t k = 0;

			if (k < body && l[k] == ',')
				k++;
			if (k < body && (l[k] == ' ' || l[k] == '\t'))
				k++;
			if (body > k)
				fs_push(&fs, l + k, body - k);
			s = fs_join(&fs, 1, &n);
			sink_put(r->sink, s, n, count, 0);
			fs_truncate(&fs, 0);
			in_stack = 0;
			continue;
		}
		while (n && (*l == ' ' || *l == '\t'))
			l++, n--;
		fs_push(&fs, l, n);
	}
	if (ret == 0 && in_stack) {
		r->line++;
		ret = rd_fail(r, "input ends inside a map entry (no \"]: COUNT\")");
	}
	fs_free(&fs);
	return ret;
}

static int
bpftrace_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;

	while (fmt_nextline(&p, e, &l, &len))
		if (len >= 2 && memcmp(l, "@[", 2) == 0)
			return 1;
	return 0;
}

const struct format bpftrace_format = {
	.name = "bpftrace",
	.detect = bpftrace_detect,
	.collapse = bpftrace_collapse,
};
