/*
 * vsprof: the Visual Studio profiler's call tree summary, CSV
 * (inferno-collapse-vsprof).
 *
 *	VSPerfReport /summary:CallTree profile.vsp    (CallTreeSummary.csv)
 *
 * Each line after the header is a node: its level, its quoted function
 * name and its number of calls, written with thousands separators
 * ("2,893,824", quoted then).  A node's calls include its children's, so
 * leaving a subtree subtracts the child's calls from its parent's, and a
 * node is written with what remains, as inferno does.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "formats.h"

#define HEADER "Level,Function Name,Number of Calls,Elapsed Inclusive " \
	"Time %,Elapsed Exclusive Time %,Avg Elapsed Inclusive Time,Avg " \
	"Elapsed Exclusive Time,Module Name,"

struct vs {
	struct fstack fs;
	uint64_t *calls;	/* per frame of fs */
	size_t cap;
};

/*
 * One number field of s[0..*n): quoted (then with ',', '.' or ' ' between
 * groups of three digits) or up to the next comma.  Moves s past the field
 * and its comma.  Returns 0, or -1 with *why set.
 */
static int
number(const char **s, size_t *n, uint64_t *v, const char **why)
{
	const char *p = *s, *e = *s + *n, *q, *end;
	int quoted = 0, group = 0, first = 1;
	char sep = 0;

	if (p < e && *p == ',')
		p++;
	if (p < e && *p == '"') {
		quoted = 1;
		p++;
		if ((q = memchr(p, '"', (size_t)(e - p))) == NULL) {
			*why = "a quoted number has no closing quote";
			return -1;
		}
		end = q + 1;
	} else {
		q = memchr(p, ',', (size_t)(e - p));
		if (q == NULL)
			q = e;
		end = q < e ? q + 1 : e;
	}
	*v = 0;
	for (const char *c = p; c < q; c++) {
		if (*c >= '0' && *c <= '9') {
			if (group > 2) {
				*why = "a number lacks a thousands separator";
				return -1;
			}
			unsigned d = (unsigned)(*c - '0');

			if (*v > (UINT64_MAX - d) / 10) {
				*why = "a number does not fit in 64 bits";
				return -1;
			}
			*v = *v * 10 + d;
			group++;
		} else if (*c == ',' || *c == '.' || *c == ' ') {
			if ((!first && group < 3) || (sep && sep != *c)) {
				*why = "a number is not an integer in groups of "
				    "three digits";
				return -1;
			}
			sep = *c;
			first = 0;
			group = 0;
		} else {
			*why = "a field is not a number";
			return -1;
		}
	}
	if (quoted && end < e && *end == ',')
		end++;
	*n = (size_t)(e - end);
	*s = end;
	return 0;
}

static void
write_stack(struct reader *r, struct vs *v)
{
	size_t n;
	const char *st;

	if (v->fs.n == 0 || v->calls[v->fs.n - 1] == 0)
		return;
	st = fs_join(&v->fs, 0, &n);
	sink_put(r->sink, st, n, v->calls[v->fs.n - 1], 1);
}

static void
push(struct vs *v, const char *f, size_t n, uint64_t calls)
{
	fs_push(&v->fs, f, n);
	v->calls = xgrow(v->calls, &v->cap, v->fs.n, sizeof *v->calls);
	v->calls[v->fs.n - 1] = calls;
}

static int
node(struct reader *r, struct vs *v, const char *l, size_t n)
{
	const char *why, *fn, *q;
	uint64_t depth, calls, prevcalls = 0;
	size_t fl, prev = v->fs.n;

	if (number(&l, &n, &depth, &why) < 0)
		return rd_fail(r, "level: %s", why);
	if (n == 0)
		return rd_fail(r, "no function name");
	if (*l != '"' || (q = memchr(l + 1, '"', n - 1)) == NULL)
		return rd_fail(r, "the function name is not a quoted field");
	fn = l + 1;
	fl = (size_t)(q - fn);
	n -= (size_t)(q + 1 - l);
	l = q + 1;
	if (number(&l, &n, &calls, &why) < 0)
		return rd_fail(r, "number of calls: %s", why);
	if (depth > prev + 1)
		return rd_fail(r, "level %llu follows level %zu",
		    (unsigned long long)depth, prev);
	if (depth == prev + 1) {
		push(v, fn, fl, calls);
		return 0;
	}
	if (depth == prev) {
		write_stack(r, v);
		fs_truncate(&v->fs, prev - 1);
		push(v, fn, fl, calls);
		return 0;
	}
	for (size_t k = 0; k < prev - depth + 1; k++) {
		size_t top = v->fs.n - 1;

		if (prevcalls != v->calls[top])
			write_stack(r, v);
		prevcalls = v->calls[top];
		fs_truncate(&v->fs, top);
		if (v->fs.n == 0)
			break;
		if (prevcalls < v->calls[v->fs.n - 1])
			v->calls[v->fs.n - 1] -= prevcalls;
	}
	push(v, fn, fl, calls);
	return 0;
}

static int
is_header(const char *l, size_t n)
{
	n = fmt_trim(&l, n);
	if (n >= 3 && memcmp(l, "\xef\xbb\xbf", 3) == 0)
		l += 3, n -= 3;
	return n >= strlen(HEADER) && memcmp(l, HEADER, strlen(HEADER)) == 0;
}

static int
vsprof_collapse(struct reader *r)
{
	struct vs v = { 0 };
	const char *l;
	size_t n;
	int ret;

	fs_init(&v.fs);
	if ((ret = rd_line(r, &l, &n)) == 0)
		warn_at(r->name, 0, "empty input: nothing to fold");
	else if (ret > 0 && !is_header(l, n))
		ret = rd_fail(r, "the first line is not the call tree summary's "
		    "header \"Level,Function Name,...\"");
	while (ret > 0 && (ret = rd_line(r, &l, &n)) > 0) {
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		if (n && node(r, &v, l, n) < 0)
			ret = -1;
	}
	if (ret == 0)
		write_stack(r, &v);
	fs_free(&v.fs);
	free(v.calls);
	return ret < 0 ? -1 : 0;
}

static int
vsprof_detect(const char *p, size_t n)
{
	const char *l;
	size_t len;

	return fmt_nextline(&p, p + n, &l, &len) && is_header(l, len);
}

const struct format vsprof_format = {
	.name = "vsprof",
	.detect = vsprof_detect,
	.collapse = vsprof_collapse,
};
