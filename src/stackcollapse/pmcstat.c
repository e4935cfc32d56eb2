/*
 * pmcstat: FreeBSD hwpmc callchains as pmcstat -G writes them
 * (stackcollapse-pmc.pl).
 *
 *	pmcstat -S unhalted-cycles -O out.pmc; pmcstat -R out.pmc -z 16 -G out.txt
 *
 * Lines "PCT%  [COUNT]  FUNCTION @ MODULE" form a tree: the leaf at no
 * indentation, its callers indented below it, one space a level.  Like
 * the Perl script, a node is written when the next line is not deeper,
 * with its own count and the path to it (leaf last); lines of another
 * shape are passed over.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/num.h"
#include "../lib/scan.h"
#include "formats.h"

/*
 * The name last seen at one indentation, copied out of the line (none,
 * an empty frame, at a level never seen), and the length of the stack
 * that ends there ("NAME;CALLER;...;LEAF").
 */
struct level {
	char *s;
	size_t n, cap;
	size_t tail;
};

/*
 * The stack is kept joined, right-aligned in join: a deeper line puts
 * its name in front of its caller's stack, so writing a node copies
 * nothing.  A level keeps its name when the levels above it change (the
 * script's array does), so after a jump deeper the levels between are
 * put back from their names; valid is the deepest level whose stack is
 * current.
 */
struct pmc {
	struct level *at;	/* per indentation */
	size_t cap;
	long prev;		/* indentation of the last node, -1 before */
	long valid;
	uint64_t count;
	char *join;
	size_t joincap;
};

/* Put level k's name in front of the stack of level k - 1. */
static void
place(struct pmc *m, long k)
{
	struct level *v = &m->at[k];
	size_t below = k ? m->at[k - 1].tail + 1 : 0;

	v->tail = below + v->n;
	if (v->tail > m->joincap) {
		size_t cap = m->joincap * 2 > v->tail ? m->joincap * 2 : v->tail + 256;
		char *j = xmalloc(cap);

		if (below)
			memcpy(j + cap - (below - 1), m->join + m->joincap -
			    (below - 1), below - 1);
		free(m->join);
		m->join = j;
		m->joincap = cap;
	}
	if (k)
		m->join[m->joincap - below] = ';';
	if (v->n) {
		memcpy(m->join + m->joincap - v->tail, v->s, v->n);
		folded_frame_fix(m->join + m->joincap - v->tail, v->n);
	}
}

static void
emit(struct reader *r, struct pmc *m)
{
	size_t t = m->at[m->prev].tail;

	sink_put(r->sink, m->join + m->joincap - t, t, m->count, 0);
}

/*
 * /^( *)[0-9.]+%  \[([0-9]+)\]\s*(\S+)/: 1 a node, 0 not one, -1 a count
 * that does not fit in 64 bits.
 */
static int
node(const char *l, size_t n, size_t *ind, uint64_t *count, const char **f,
    size_t *fl)
{
	const char *e = l + n, *b;
	size_t i, d;

	i = (size_t)(scan_skip(l, e, ' ', ' ') - l);
	*ind = i;
	for (d = i; i < n && ((l[i] >= '0' && l[i] <= '9') || l[i] == '.'); i++)
		;
	if (i == d || n - i < 4 || memcmp(l + i, "%  [", 4) != 0)
		return 0;
	i += 4;
	for (d = i; i < n && l[i] >= '0' && l[i] <= '9'; i++)
		;
	if (i == d || i >= n || l[i] != ']')
		return 0;
	if (num_parse_u64(l + d, i - d, count) < 0)
		return -1;
	*f = scan_skip(l + i + 1, e, ' ', '\t');
	if ((b = scan_find2(*f, e, ' ', '\t')) == NULL)
		b = e;
	*fl = (size_t)(b - *f);
	return *fl > 0;
}

static int
pmcstat_collapse(struct reader *r)
{
	struct pmc m;
	struct level *v;
	const char *l, *f;
	size_t n, ind, fl;
	uint64_t count;
	int ret;

	memset(&m, 0, sizeof m);
	m.prev = -1;
	m.valid = -1;
	m.join = xmalloc(m.joincap = 256);	/* never NULL, even for "" */
	while ((ret = rd_line(r, &l, &n)) > 0) {
		int k = node(l, n, &ind, &count, &f, &fl);

		if (k < 0) {
			ret = rd_fail(r, "count does not fit in 64 bits");
			break;
		}
		if (k == 0)
			continue;
		if ((long)ind <= m.prev)
			emit(r, &m);
		if (ind >= m.cap) {
			size_t old = m.cap;

			m.at = xgrow(m.at, &m.cap, ind + 1, sizeof *m.at);
			memset(m.at + old, 0, (m.cap - old) * sizeof *m.at);
		}
		v = &m.at[ind];
		v->s = xgrow(v->s, &v->cap, fl + 1, 1);
		memcpy(v->s, f, fl);
		v->n = fl;
		if (m.valid >= (long)ind)
			m.valid = (long)ind - 1;
		while (m.valid < (long)ind)
			place(&m, ++m.valid);
		m.count = count;
		m.prev = (long)ind;
	}
	if (ret == 0 && m.prev >= 0)
		emit(r, &m);
	for (size_t i = 0; i < m.cap; i++)
		free(m.at[i].s);
	free(m.at);
	free(m.join);
	return ret;
}

static int
pmcstat_detect(const char *p, size_t n)
{
	const char *e = p + n, *l, *f;
	size_t len, ind, fl;
	uint64_t c;
	int k = 0;

	while (fmt_nextline(&p, e, &l, &len) && k < 3)
		if (len && l[0] != '@' && (k++, node(l, len, &ind, &c, &f, &fl) == 0))
			return 0;
	return k > 0;
}

const struct format pmcstat_format = {
	.name = "pmcstat",
	.detect = pmcstat_detect,
	.collapse = pmcstat_collapse,
};
