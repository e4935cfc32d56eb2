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
#include "../lib/intern.h"
#include "formats.h"

struct pmc {
	struct intern names;
	uint32_t *at;		/* per indentation: name id, or NONE */
	size_t cap;
	long prev;		/* indentation of the last node, -1 before */
	uint64_t count;
	struct fstack fs;
};

#define NONE UINT32_MAX

static void
emit(struct reader *r, struct pmc *m)
{
	const char *s;
	size_t n;

	fs_truncate(&m->fs, 0);
	for (long i = m->prev; i >= 0; i--) {
		uint32_t id = m->at[i];

		if (id == NONE)
			fs_push(&m->fs, "", 0);
		else
			fs_push(&m->fs, intern_str(&m->names, id),
			    intern_len(&m->names, id));
	}
	s = fs_join(&m->fs, 0, &n);
	sink_put(r->sink, s, n, m->count, 0);
}

/* /^( *)[0-9.]+%  \[([0-9]+)\]\s*(\S+)/ */
static int
node(const char *l, size_t n, size_t *ind, uint64_t *count, const char **f,
    size_t *fl)
{
	size_t i = 0, d;

	while (i < n && l[i] == ' ')
		i++;
	*ind = i;
	for (d = i; i < n && ((l[i] >= '0' && l[i] <= '9') || l[i] == '.'); i++)
		;
	if (i == d || n - i < 4 || memcmp(l + i, "%  [", 4) != 0)
		return 0;
	i += 4;
	*count = 0;
	for (d = i; i < n && l[i] >= '0' && l[i] <= '9'; i++) {
		if (*count > (UINT64_MAX - 9) / 10)
			return 0;
		*count = *count * 10 + (uint64_t)(l[i] - '0');
	}
	if (i == d || i >= n || l[i] != ']')
		return 0;
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
	const char *l, *f;
	size_t n, ind, fl;
	uint64_t count;
	int ret;

	memset(&m, 0, sizeof m);
	intern_init(&m.names);
	fs_init(&m.fs);
	m.prev = -1;
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (!node(l, n, &ind, &count, &f, &fl))
			continue;
		if ((long)ind <= m.prev)
			emit(r, &m);
		if (ind >= m.cap) {
			size_t old = m.cap;

			m.at = xgrow(m.at, &m.cap, ind + 1, sizeof *m.at);
			for (size_t i = old; i < m.cap; i++)
				m.at[i] = NONE;
		}
		m.at[ind] = intern_put(&m.names, f, fl, NULL);
		m.count = count;
		m.prev = (long)ind;
	}
	if (ret == 0 && m.prev >= 0)
		emit(r, &m);
	intern_free(&m.names);
	fs_free(&m.fs);
	free(m.at);
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
