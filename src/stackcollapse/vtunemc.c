/*
 * vtune-mc: the top-down tree of Intel VTune's memory-consumption analysis
 * as CSV (stackcollapse-vtune-mc.pl).
 *
 *	amplxe-cl -R top-down -call-stack-mode all \
 *	    -column="Allocations:Self","Allocation Size:Self","Module" \
 *	    -report-out allocations.csv -format csv -csv-delimiter comma -r DIR
 *
 * After the header (and any "war:" lines before it), each line is a node:
 * leading blanks give its depth, then its function, its allocation size,
 * deallocation size and allocation count, and its module; quotes are
 * removed first, as in the script.  A node is named FUNCTION(MODULE) and
 * weighs its allocation count (--size, the script's --size: its bytes),
 * under the names of the last nodes read at each lesser depth; nodes of
 * no allocations are left out.  The script prints a line per node in tree
 * order; here equal stacks are summed and sorted, and a fraction is cut
 * from a count.  A line the script's pattern does not read is an error.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/num.h"
#include "bydepth.h"
#include "formats.h"

static struct {
	int size;		/* weigh bytes, not allocations */
} opt;

static const struct fmt_option vtunemc_options[] = {
	{ "size", &opt.size, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

/* Perl's \s. */
static int
space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* [0-9]*\.?[0-9]* whole. */
static int
number(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i < n && s[i] == '.')
		i++;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i == n;
}

struct node {
	size_t depth;
	const char *fn, *bytes, *count, *module;
	size_t fnlen, byteslen, countlen, modlen;
};

/*
 * /(\s*)(.*?),(N),(N),(N),(.*)/ with N [0-9]*?\.?[0-9]*?: the function
 * ends at the first comma that three numbers and a comma follow.
 */
static int
match(const char *l, size_t n, struct node *nd)
{
	const char *e = l + n, *p = l, *c, *t[4];

	while (p < e && space(*p))
		p++;
	nd->depth = (size_t)(p - l);
	for (c = p; (c = memchr(c, ',', (size_t)(e - c))) != NULL; c++) {
		int k;

		t[0] = c;
		for (k = 1; k < 4; k++)
			if ((t[k] = memchr(t[k - 1] + 1, ',',
			    (size_t)(e - t[k - 1] - 1))) == NULL ||
			    !number(t[k - 1] + 1, (size_t)(t[k] - t[k - 1] - 1)))
				break;
		if (k < 4)
			continue;
		nd->fn = p;
		nd->fnlen = (size_t)(c - p);
		nd->bytes = t[0] + 1;
		nd->byteslen = (size_t)(t[1] - t[0] - 1);
		nd->count = t[2] + 1;
		nd->countlen = (size_t)(t[3] - t[2] - 1);
		nd->module = t[3] + 1;
		nd->modlen = (size_t)(e - t[3] - 1);
		return 1;
	}
	return 0;
}

/* Whether a number is 0 ("", "." and "0.00" are): no digit but 0. */
static int
zero(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] >= '1' && s[i] <= '9')
			return 0;
	return 1;
}

/* A number's whole part (empty or "." is 0). */
static int
whole(const char *s, size_t n, uint64_t *v)
{
	size_t i = 0;

	while (i < n && s[i] != '.')
		i++;
	*v = 0;
	return i == 0 ? 0 : num_parse_u64(s, i, v);
}

struct mc {
	struct bydepth names;	/* the script's @stack */
	struct fstack fs;
	char *buf;
	size_t cap;
};

static int
node(struct reader *r, struct mc *s, const char *l, size_t n)
{
	struct node nd;
	const char *st;
	char *w;
	uint64_t v;
	size_t len;

	/* s/"//g */
	s->buf = xgrow(s->buf, &s->cap, n + 1, 1);
	for (size_t i = len = 0; i < n; i++)
		if (l[i] != '"')
			s->buf[len++] = l[i];
	if (!match(s->buf, len, &nd))
		return rd_fail(r, "not a node of a VTune memory-consumption "
		    "tree (FUNCTION,SIZE,SIZE,COUNT,MODULE)");
	w = bd_set(&s->names, nd.depth, nd.fnlen + nd.modlen + 2);
	memcpy(w, nd.fn, nd.fnlen);
	w[nd.fnlen] = '(';
	memcpy(w + nd.fnlen + 1, nd.module, nd.modlen);
	w[nd.fnlen + 1 + nd.modlen] = ')';
	if (opt.size ? nd.byteslen == 0 : zero(nd.count, nd.countlen))
		return 0;
	if (whole(opt.size ? nd.bytes : nd.count, opt.size ? nd.byteslen :
	    nd.countlen, &v) < 0)
		return rd_fail(r, "%s does not fit in 64 bits",
		    opt.size ? "allocation size" : "allocation count");
	bd_stack(&s->names, nd.depth, &s->fs);
	st = fs_join(&s->fs, 0, &len);
	sink_put(r->sink, st, len, v, 0);
	return 0;
}

static int
vtunemc_collapse(struct reader *r)
{
	struct mc s = { .names = { NULL, 0, 0 } };
	const char *l;
	size_t n;
	int ret;

	fs_init(&s.fs);
	while ((ret = rd_line(r, &l, &n)) > 0 && FMT_STARTS(l, n, "war:"))
		;			/* warnings, then the header */
	while (ret > 0 && (ret = rd_line(r, &l, &n)) > 0)
		if (node(r, &s, l, n) < 0) {
			ret = -1;
			break;
		}
	bd_free(&s.names);
	free(s.buf);
	fs_free(&s.fs);
	return ret < 0 ? -1 : 0;
}

/* The header, after any "war:" lines. */
static int
vtunemc_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;

	while (fmt_nextline(&p, e, &l, &len))
		if (!FMT_STARTS(l, len, "war:"))
			return FMT_STARTS(l, len, "Function Stack,") &&
			    memmem(l, len, "Allocation Size:Self", 20) != NULL;
	return 0;
}

const struct format vtunemc_format = {
	.name = "vtune-mc",
	.detect = vtunemc_detect,
	.collapse = vtunemc_collapse,
	.options = vtunemc_options,
	.all_or_nothing = 1,
};
