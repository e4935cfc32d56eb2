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
#include "formats.h"

/* The name last seen at one indentation, copied out of the line. */
struct level {
	char *s;
	size_t n, cap;
	int set;
};

struct pmc {
	struct level *at;	/* per indentation */
	size_t cap;
	long prev;		/* indentation of the last node, -1 before */
	uint64_t count;
	char *join;
	size_t joincap;
};

static void
emit(struct reader *r, struct pmc *m)
{
	size_t w = 0;

	for (long i = m->prev; i >= 0; i--) {
		const struct level *v = &m->at[i];

		m->join = xgrow(m->join, &m->joincap, w + v->n + 1, 1);
		if (i != m->prev)
			m->join[w++] = ';';
		if (v->set) {
			memcpy(m->join + w, v->s, v->n);
			w += v->n;
		}
	}
	sink_put(r->sink, m->join, w, m->count, 0);
}

/* /^( *)[0-9.]+%  \[([0-9]+)\]\s*(\S+)/ */
static int
node(const char *l, size_t n, size_t *ind, uint64_t *count, const char **f,
    size_t *fl)
{
	size_t i = 0, d;
	uint64_t c;

	while (i < n && l[i] == ' ')
		i++;
	*ind = i;
	for (d = i; i < n && ((l[i] >= '0' && l[i] <= '9') || l[i] == '.'); i++)
		;
	if (i == d || n - i < 4 || memcmp(l + i, "%  [", 4) != 0)
		return 0;
	i += 4;
	/* The count in a local: through *count, every digit is a store. */
	for (d = i, c = 0; i < n && l[i] >= '0' && l[i] <= '9'; i++) {
		if (c > (UINT64_MAX - 9) / 10)
			return 0;
		c = c * 10 + (uint64_t)(l[i] - '0');
	}
	if (i == d || i >= n || l[i] != ']')
		return 0;
	*count = c;
	for (i++; i < n && (l[i] == ' ' || l[i] == '\t'); i++)
		;
	for (d = i; i < n && l[i] != ' ' && l[i] != '\t'; i++)
		;
	*f = l + d;
	*fl = i - d;
	return i > d;
}

int
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
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (!node(l, n, &ind, &count, &f, &fl))
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
		v->set = 1;
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

int
pmcstat_detect(const char *p, size_t n)
{
	const char *e = p + n, *l, *f;
	size_t len, ind, fl;
	uint64_t c;
	int k = 0;

	while (fmt_nextline(&p, e, &l, &len) && k < 3)
		if (len && l[0] != '@' && (k++, !node(l, len, &ind, &c, &f, &fl)))
			return 0;
	return k > 0;
}
