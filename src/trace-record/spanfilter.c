/*
 * spanfilter.c: the record-time filters, as uftrace has them (-t, -D,
 * -F, -N): which spans trace-record writes and who their parents are.
 *
 * The rules, for a span S whose parent as recorded is P (none: a root):
 *   scope(S)    no --filter is given, or S's name matches one, or scope(P)
 *               (a --filter keeps the matching spans and all under them);
 *   excluded(S) S's name matches an --exclude, or excluded(P) (an
 *               --exclude leaves out the matching spans and all under
 *               them, and wins over --filter);
 *   short(S)    S ended, and lasted less than --min-duration (a span still
 *               open is never short: it may be the one that hung);
 *   depth(S)    1 + the depth of S's nearest kept ancestor (0 if none):
 *               depth counts kept spans only;
 *   kept(S)     scope(S), not excluded(S), not short(S) and depth(S) <=
 *               --max-depth.
 * A kept span's parent is written as its nearest kept ancestor, so a
 * span under a dropped one is not lost with it.  A span's duration is
 * its own, from begin to end, so a dropped child's time stays in its
 * parent (in the parent's self time, where a flame graph shows it).
 * Properties and events of a dropped span go with it.
 *
 * A span is marked from its parent's mark alone (struct
 * spanfilter_mark), so the caller walks each tree from its roots once;
 * collect.c does, over the spans received.  Names are matched once each
 * by the caller's cache (spanfilter_name): a regexec per span would cost
 * more than the rest of the writing.  The library (trace_record.c) also
 * takes back a function's short span as it ends, when nothing was
 * recorded inside it; that is the same rule applied early, since such a
 * span has no children to re-parent.
 */
#include "spanfilter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"

unsigned
spanfilter_name(const struct spanfilter *f, const char *name)
{
	unsigned m = 0;

	for (size_t i = 0; i < f->nkeep && !m; i++)
		if (regexec(&f->keep[i], name, 0, NULL, 0) == 0)
			m |= SPANFILTER_SCOPE;
	for (size_t i = 0; i < f->ndrop; i++)
		if (regexec(&f->drop[i], name, 0, NULL, 0) == 0)
			return m | SPANFILTER_EXCLUDED;
	return m;
}

int
spanfilter_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	uint64_t v = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s || v == 0)
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strcmp(p, units[i].unit) == 0) {
			if (v > (UINT64_C(1) << 63) / units[i].ns)
				return -1;
			*ns = v * units[i].ns;
			return 0;
		}
	return -1;
}

const char *
spanfilter_add(struct spanfilter *f, int exclude, const char *re)
{
	static char why[256];
	regex_t **v = exclude ? &f->drop : &f->keep;
	size_t *n = exclude ? &f->ndrop : &f->nkeep;
	regex_t r;
	int e = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);

	if (e != 0) {
		regerror(e, &r, why, sizeof why);
		return why;
	}
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = r;
	return NULL;
}

void
spanfilter_note(struct spanfilter *f, const char *opt, const char *arg)
{
	size_t old = f->given ? strlen(f->given) : 0;
	size_t len = old + 1 + strlen(opt) + 1 + strlen(arg) + 1;

	f->given = xrealloc(f->given, len);
	snprintf(f->given + old, len - old, "%s%s=%s", old ? " " : "", opt, arg);
}

int
spanfilter_active(const struct spanfilter *f)
{
	return f->min_ns || f->max_depth || f->nkeep || f->ndrop;
}

int
spanfilter_mark(const struct spanfilter *f, const struct spanfilter_mark *parent,
    unsigned match, uint64_t dur_ns, int ended, struct spanfilter_mark *m)
{
	unsigned from = parent ? parent->bits : 0;
	uint32_t depth = (parent ? parent->depth : 0) + 1;
	int kept;

	m->bits = (uint8_t)((from | match) & (SPANFILTER_SCOPE | SPANFILTER_EXCLUDED));
	if (f->nkeep == 0)
		m->bits |= SPANFILTER_SCOPE;
	kept = (m->bits & SPANFILTER_SCOPE) && !(m->bits & SPANFILTER_EXCLUDED) &&
	    !(ended && dur_ns < f->min_ns) && (f->max_depth == 0 || depth <= f->max_depth);
	m->depth = kept ? depth : depth - 1;
	if (kept)
		m->bits |= SPANFILTER_KEPT;
	return kept;
}

void
spanfilter_free(struct spanfilter *f)
{
	for (size_t i = 0; i < f->nkeep; i++)
		regfree(&f->keep[i]);
	for (size_t i = 0; i < f->ndrop; i++)
		regfree(&f->drop[i]);
	free(f->keep);
	free(f->drop);
	free(f->given);
}
