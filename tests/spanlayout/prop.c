/*
 * prop: spanlayout's layout checked on many random span trees.
 *	prop SPANLAYOUT TMPDIR [TREES]
 * For each tree (a seeded generator: the same trees every run) it writes
 * spans(5), runs spanlayout twice and checks that
 *   - the two outputs are byte-identical;
 *   - every span appears exactly once, and after its parent;
 *   - no two spans on one row overlap in time (a zero-length span holds
 *     one nanosecond);
 *   - every child is on a row below its parent's;
 *   - where the TiDB article's algorithm, run here as published
 *     (recursive, comparing with the previous sibling only), gives a
 *     layout without overlaps, spanlayout's rows are exactly its rows.
 * Prints "ok NAME" or "FAIL NAME: why" per check, then "done".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 200

struct sp {
	uint64_t id, parent;
	int64_t start, dur, maxend;
	int track;
	int pidx;		/* parent index or -1 */
	int kids[MAXN], nkids;
	int depth, mcd;		/* the article's */
	int row;		/* spanlayout's */
	int outpos;
};

static struct sp v[MAXN];
static int n;
static uint64_t seed = 42;

static uint64_t
rnd(uint64_t m)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (seed >> 33) % m;
}

/* A tree of 1..MAXN spans: children mostly inside their parent. */
static void
gen(int ntracks)
{
	n = 1 + (int)rnd(rnd(4) == 0 ? MAXN : 30);
	for (int i = 0; i < n; i++) {
		struct sp *s = &v[i];

		memset(s, 0, sizeof *s);
		s->id = (uint64_t)i * 7 + 3;
		s->track = (int)rnd((uint64_t)ntracks);
		if (i == 0 || rnd(8) == 0) {
			s->pidx = -1;
			s->start = (int64_t)rnd(1000);
			s->dur = (int64_t)rnd(1000);
		} else {
			struct sp *p = &v[rnd((uint64_t)i)];

			s->pidx = (int)(p - v);
			s->track = rnd(4) ? p->track : s->track;
			switch (rnd(6)) {
			case 0:		/* anywhere near the parent */
				s->start = p->start + (int64_t)rnd(300) - 100;
				s->dur = (int64_t)rnd(300);
				break;
			case 1:		/* same start */
				s->start = p->start;
				s->dur = (int64_t)rnd((uint64_t)p->dur + 1);
				break;
			default:	/* inside */
				s->start = p->start + (int64_t)rnd((uint64_t)p->dur + 1);
				s->dur = (int64_t)rnd((uint64_t)(p->start + p->dur - s->start) + 1);
			}
		}
		s->parent = s->pidx < 0 ? 0 : v[s->pidx].id;
	}
}

static int
cmp_kids(const void *a, const void *b)
{
	const struct sp *x = &v[*(const int *)a], *y = &v[*(const int *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static int roots[MAXN], nroots;

static int64_t
calc_maxend(int i)
{
	v[i].maxend = v[i].start + v[i].dur;
	for (int k = 0; k < v[i].nkids; k++) {
		int64_t m = calc_maxend(v[i].kids[k]);

		if (m > v[i].maxend)
			v[i].maxend = m;
	}
	return v[i].maxend;
}

static void
update_parent(int i)
{
	int p = v[i].pidx;

	if (p < 0)
		return;
	if (v[i].mcd > v[p].mcd) {
		v[p].mcd = v[i].mcd;
		update_parent(p);
	}
}

/* The article's calcDepth, for the children kids[0..nk) of a parent at pd. */
static void
calc_depth(const int *kids, int nk, int pd)
{
	for (int i = nk - 1; i >= 0; i--) {
		struct sp *cur = &v[kids[i]];

		if (i == nk - 1)
			cur->depth = pd + 1;
		else {
			struct sp *last = &v[kids[i + 1]];

			if (cur->maxend > last->start || cur->start == last->start)
				cur->depth = last->mcd == last->depth ? last->mcd + 1
				    : last->mcd + 2;
			else
				cur->depth = pd + 1;
		}
		cur->mcd = cur->depth;
		update_parent(kids[i]);
		calc_depth(cur->kids, cur->nkids, cur->depth);
	}
}

static int64_t
occ_end(const struct sp *s)
{
	return s->dur ? s->start + s->dur : s->start + 1;
}

/* Whether two spans share a row and overlap (by row or depth). */
static int
overlaps(int use_row)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			int ri = use_row ? v[i].row : v[i].depth;
			int rj = use_row ? v[j].row : v[j].depth;

			if (ri == rj && v[i].start < occ_end(&v[j]) &&
			    v[j].start < occ_end(&v[i]))
				return 1;
		}
	return 0;
}

static int passed, failed;

static void
verdict(int ok, const char *name, const char *why)
{
	if (ok)
		passed++;
	else {
		failed++;
		printf("FAIL %s: %s\n", name, why);
	}
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long len;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	b = malloc((size_t)len + 1);
	if (fread(b, 1, (size_t)len, f) != (size_t)len)
		len = 0;
	b[len] = '\0';
	fclose(f);
	return b;
}

/* One tree through spanlayout with opts; returns 0 if every check held. */
static int
run_one(const char *prog, const char *dir, int t, const char *opts, int compare)
{
	char in[512], o1[512], o2[512], cmd[2048], name[64], why[256];
	char *a, *b, *line;
	FILE *f;
	int bad = 0, seen[MAXN], pos = 0;

	snprintf(name, sizeof name, "tree %d%s%s", t, *opts ? " " : "", opts);
	snprintf(in, sizeof in, "%s/t.spans", dir);
	snprintf(o1, sizeof o1, "%s/o1", dir);
	snprintf(o2, sizeof o2, "%s/o2", dir);
	f = fopen(in, "w");
	fprintf(f, "# spans v1\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "%" PRIu64 "\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\tt%d\ts%d\n",
		    v[i].id, v[i].parent, v[i].start, v[i].dur, v[i].track, i);
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s %s %s > %s 2>/dev/null && %s %s %s > %s 2>/dev/null",
	    prog, opts, in, o1, prog, opts, in, o2);
	if (system(cmd) != 0) {
		verdict(0, name, "spanlayout failed");
		return -1;
	}
	a = slurp(o1);
	b = slurp(o2);
	verdict(a && b && strcmp(a, b) == 0, name, "two runs differ");
	memset(seen, 0, sizeof seen);
	for (line = strtok(a, "\n"); line; line = strtok(NULL, "\n")) {
		uint64_t id, parent, s, d;
		int row, k;
		char track[32];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%" SCNu64 "\t%" SCNu64 "\t%" SCNu64 "\t%" SCNu64
		    "\t%31s\t%d\ts%d", &id, &parent, &s, &d, track, &row, &k) != 7 ||
		    k < 0 || k >= n || v[k].id != id) {
			snprintf(why, sizeof why, "bad line: %s", line);
			verdict(0, name, why);
			bad = 1;
			break;
		}
		seen[k]++;
		v[k].row = row;
		v[k].outpos = pos++;
	}
	for (int i = 0; i < n && !bad; i++)
		if (seen[i] != 1) {
			snprintf(why, sizeof why, "span %d written %d times", i, seen[i]);
			verdict(0, name, why);
			bad = 1;
		}
	if (!bad) {
		int ok = 1;

		verdict(!overlaps(1), name, "two spans overlap on one row");
		for (int i = 0; i < n; i++) {
			int p = v[i].pidx;

			if (p >= 0 && (strstr(opts, "by-track") == NULL ||
			    v[p].track == v[i].track) &&
			    (v[p].outpos > v[i].outpos || v[p].row >= v[i].row))
				ok = 0;
		}
		verdict(ok, name, "a child is not after and below its parent");
		if (compare && !overlaps(0)) {
			ok = 1;
			for (int i = 0; i < n; i++)
				if (v[i].row != v[i].depth)
					ok = 0;
			verdict(ok, name, "rows differ from the article's overlap-free layout");
		}
	}
	free(a);
	free(b);
	return bad ? -1 : 0;
}

int
main(int argc, char **argv)
{
	int trees = argc > 3 ? atoi(argv[3]) : 2000, articles = 0, fixed = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: prop SPANLAYOUT TMPDIR [TREES]\n");
		return 2;
	}
	for (int t = 0; t < trees; t++) {
		int multi = t % 5 == 4;

		gen(multi ? 3 : 1);
		nroots = 0;
		for (int i = 0; i < n; i++) {
			if (v[i].pidx < 0)
				roots[nroots++] = i;
			else {
				struct sp *p = &v[v[i].pidx];

				p->kids[p->nkids++] = i;
			}
		}
		for (int i = 0; i < n; i++)
			qsort(v[i].kids, (size_t)v[i].nkids, sizeof(int), cmp_kids);
		qsort(roots, (size_t)nroots, sizeof(int), cmp_kids);
		for (int r = 0; r < nroots; r++)
			calc_maxend(roots[r]);
		calc_depth(roots, nroots, -1);
		if (overlaps(0))
			fixed++;
		else
			articles++;
		run_one(argv[1], argv[2], t, multi ? "--together" : "", 1);
		if (multi)
			run_one(argv[1], argv[2], t, "--by-track", 0);
	}
	/* Both kinds must have been exercised, or the test proves little. */
	verdict(articles > trees / 10, "generator", "too few overlap-free article layouts");
	verdict(fixed > trees / 20, "generator", "too few article layouts with overlaps");
	printf("%d trees: %d where the article's layout overlaps, %d where it "
	    "does not\n", trees, fixed, articles);
	printf("%d checks passed, %d failed\ndone\n", passed, failed);
	return failed != 0;
}
