/*
 * article: the TiDB Dashboard article's span layout (Datadog's drawing) as
 * published, for make bench to time spanlayout against on the same file.
 *	article FILE > rows
 * Reads spans(5) (id, parent, start, duration, track, name), lays each
 * track's span trees out with the article's calcDepth (siblings from the
 * latest start to the earliest, each compared with the previous sibling
 * only; a span's deepest row passed up to the root at once, as the
 * article's updateParent does) and writes every span in preorder with its
 * row, as spanlayout's output lines are.  The same work around the
 * layout as spanlayout's: the file read whole, ids hashed, children
 * sorted by (start, longer first, position), output through one buffer.
 * Not the tool: no check that rows do not overlap, no errors but "bad
 * line" (spanlayout does both), recursion as deep as the trees.  A port:
 * the latest end of each subtree is computed top down (the article's
 * first variant, the same values as its bottom-up walk from every leaf);
 * article.js is the article's TypeScript itself, and the golden case
 * sl-article-c-rows checks that the two write the same rows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sp {
	uint64_t id, parent;
	int64_t start, dur, maxend;
	const char *track, *name;
	int tracklen, namelen;
	int pidx, depth, mcd;
};

static struct sp *v;
static int *kids, *first, n;
static char *out;
static size_t outn, outcap;

static void
die(const char *what)
{
	fprintf(stderr, "article: %s\n", what);
	exit(1);
}

static int
cmp_kids(const void *a, const void *b)
{
	const struct sp *x = &v[*(const int *)a], *y = &v[*(const int *)b];

	if (x->pidx != y->pidx)
		return x->pidx < y->pidx ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static int64_t
calc_maxend(int i)
{
	v[i].maxend = v[i].start + v[i].dur;
	for (int k = first[i]; k < first[i + 1]; k++) {
		int64_t m = calc_maxend(kids[k]);

		if (m > v[i].maxend)
			v[i].maxend = m;
	}
	return v[i].maxend;
}

static void
update_parent(int i)
{
	for (int p = v[i].pidx; p >= 0 && v[i].mcd > v[p].mcd; i = p, p = v[p].pidx)
		v[p].mcd = v[i].mcd;
}

static void
calc_depth(const int *k, int nk, int pd)
{
	for (int i = nk - 1; i >= 0; i--) {
		struct sp *cur = &v[k[i]];

		if (i == nk - 1)
			cur->depth = pd + 1;
		else {
			struct sp *last = &v[k[i + 1]];

			if (cur->maxend > last->start || cur->start == last->start)
				cur->depth = last->mcd == last->depth ? last->mcd + 1
				    : last->mcd + 2;
			else
				cur->depth = pd + 1;
		}
		cur->mcd = cur->depth;
		update_parent(k[i]);
		calc_depth(kids + first[k[i]], first[k[i] + 1] - first[k[i]],
		    cur->depth);
	}
}

static void
put(const void *p, size_t len)
{
	if (outn + len > outcap) {
		fwrite(out, 1, outn, stdout);
		outn = 0;
	}
	memcpy(out + outn, p, len);
	outn += len;
}

static void
put_i64(int64_t x, char sep)
{
	char b[24];
	int i = 23;
	uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;

	b[i--] = sep;
	do
		b[i--] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (x < 0)
		b[i--] = '-';
	put(b + i + 1, (size_t)(23 - i));
}

static void
emit(int i)
{
	struct sp *s = &v[i];

	put_i64((int64_t)s->id, '\t');
	put_i64((int64_t)s->parent, '\t');
	put_i64(s->start, '\t');
	put_i64(s->dur, '\t');
	put(s->track, (size_t)s->tracklen);
	put("\t", 1);
	put_i64(s->depth, '\t');
	put(s->name, (size_t)s->namelen);
	put("\n", 1);
	for (int k = first[i]; k < first[i + 1]; k++)
		emit(kids[k]);
}

/* The next tab-separated field of the line at *p (ending before e). */
static const char *
field(const char **p, const char *e, int *len)
{
	const char *s = *p, *t = memchr(s, '\t', (size_t)(e - s));

	if (t == NULL)
		t = e;
	*len = (int)(t - s);
	*p = t < e ? t + 1 : e;
	return s;
}

int
main(int argc, char **argv)
{
	FILE *f;
	char *buf, *p, *end;
	long sz;
	size_t cap = 1024, mask, nslot;
	int *slots, *roots, nroots = 0, *order;

	if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL)
		die("usage: article FILE");
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)sz + 1);
	if (buf == NULL || fread(buf, 1, (size_t)sz, f) != (size_t)sz)
		die("cannot read");
	fclose(f);
	end = buf + sz;
	v = malloc(cap * sizeof *v);
	for (p = buf; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *q = p;
		struct sp *s;
		int len;

		if (*p != '#' && e > p) {
			if ((size_t)n == cap && (v = realloc(v, (cap *= 2) * sizeof *v)) == NULL)
				die("out of memory");
			s = &v[n++];
			s->id = strtoull(field(&q, e, &len), NULL, 10);
			s->parent = strtoull(field(&q, e, &len), NULL, 10);
			s->start = strtoll(field(&q, e, &len), NULL, 10);
			s->dur = strtoll(field(&q, e, &len), NULL, 10);
			s->track = field(&q, e, &s->tracklen);
			s->name = q;
			s->namelen = (int)(e - q);
			if (s->tracklen == 0)
				die("bad line");
		}
		p = nl ? nl + 1 : end;
	}
	for (nslot = 16; nslot < 2 * (size_t)n; nslot *= 2)
		;
	mask = nslot - 1;
	slots = calloc(nslot, sizeof *slots);
	for (int i = 0; i < n; i++) {
		size_t h = (size_t)(v[i].id * 0x9e3779b97f4a7c15ULL >> 20) & mask;

		while (slots[h])
			h = (h + 1) & mask;
		slots[h] = i + 1;
	}
	for (int i = 0; i < n; i++) {
		size_t h = (size_t)(v[i].parent * 0x9e3779b97f4a7c15ULL >> 20) & mask;

		v[i].pidx = -1;
		while (v[i].parent && slots[h]) {
			if (v[slots[h] - 1].id == v[i].parent) {
				v[i].pidx = slots[h] - 1;
				break;
			}
			h = (h + 1) & mask;
		}
	}
	/* Children grouped by parent (roots, pidx -1, first), by start. */
	order = malloc((size_t)n * sizeof *order);
	for (int i = 0; i < n; i++)
		order[i] = i;
	qsort(order, (size_t)n, sizeof *order, cmp_kids);
	kids = order;
	first = calloc((size_t)n + 2, sizeof *first);
	for (int i = 0; i < n; i++)
		if (v[i].pidx >= 0)
			first[v[i].pidx + 1]++;
		else
			nroots++;
	roots = order;		/* the roots sort first */
	kids = order + nroots;
	for (int i = 0; i < n; i++)
		first[i + 1] += first[i];
	for (int r = 0; r < nroots; r++)
		calc_maxend(roots[r]);
	/* One band per track, its roots laid out as the children of one. */
	{
		int *band = malloc((size_t)nroots * sizeof *band), nb;

		for (int t = 0; t < nroots; t++) {
			const struct sp *a = &v[roots[t]];
			int seen = 0;

			for (int u = 0; u < t && !seen; u++)
				seen = v[roots[u]].tracklen == a->tracklen &&
				    memcmp(v[roots[u]].track, a->track, (size_t)a->tracklen) == 0;
			if (seen)
				continue;
			nb = 0;
			for (int u = t; u < nroots; u++)
				if (v[roots[u]].tracklen == a->tracklen &&
				    memcmp(v[roots[u]].track, a->track, (size_t)a->tracklen) == 0)
					band[nb++] = roots[u];
			calc_depth(band, nb, -1);
		}
		outcap = 1 << 20;
		out = malloc(outcap);
		for (int r = 0; r < nroots; r++)
			emit(roots[r]);
		fwrite(out, 1, outn, stdout);
		free(band);
	}
	return 0;
}
