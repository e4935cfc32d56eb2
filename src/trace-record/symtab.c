/*
 * symtab.c: text symbol tables.  /proc/kallsyms lines are "ADDR TYPE
 * NAME [module]", perf-PID.map lines "START SIZE NAME" (hex, the format
 * JITs write for perf).  Both become a sorted array searched by binary
 * search.  Kernel symbols have no size: one reaches to the next.  A
 * kallsyms whose addresses are all zero (kptr_restrict) counts as none.
 */
#include "symtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"

struct tsym {
	uint64_t	addr, size;	/* size 0: up to the next symbol */
	char		*name;
};

struct symtab {
	char		path[64];
	struct tsym	*v;
	size_t		n, cap;
};

struct pmap {
	uint32_t	pid;
	struct symtab	*t;
};

static int
by_addr(const void *a, const void *b)
{
	const struct tsym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A hex number at *p, moving *p past it and the blanks after it. */
static int
hex(const char **p, unsigned long long *v)
{
	const char *q = *p;
	unsigned long long x = 0;

	for (; *q; q++) {
		int d = *q >= '0' && *q <= '9' ? *q - '0' :
		    (*q | 32) >= 'a' && (*q | 32) <= 'f' ? (*q | 32) - 'a' + 10 : -1;

		if (d < 0 || x >> 60)
			break;
		x = x << 4 | (unsigned)d;
	}
	if (q == *p || (*q != ' ' && *q != '\t'))
		return -1;
	while (*q == ' ' || *q == '\t')
		q++;
	*p = q;
	*v = x;
	return 0;
}

#define SHOWN 3		/* bad perf map lines named before only counted */

/*
 * kallsyms: "ADDR TYPE NAME[\t[module]]", code symbols (t, T, w, W) at a
 * non-zero address; other symbols are passed over.  perf map: "START
 * SIZE NAME", the name running to the end of the line however long (a
 * JIT's signatures can run to kilobytes); a line of another shape is
 * named (the first few) and counted on stderr, since its code will show
 * as [unknown].  By hand: sscanf made kallsyms' 200,000 lines the
 * largest cost of a short run.
 */
static struct symtab *
load(const char *path, int kernel)
{
	FILE *fp = fopen(path, "re");
	struct symtab *t;
	char *line = NULL, quoted[4 * 60 + 8];
	size_t linecap = 0;
	ssize_t len;
	unsigned long long a, sz = 0, lineno = 0, bad = 0;

	if (fp == NULL)
		return NULL;
	t = xcalloc(1, sizeof *t);
	snprintf(t->path, sizeof t->path, "%s", kernel ? "[kernel.kallsyms]" : path);
	while ((len = getline(&line, &linecap, fp)) > 0) {
		const char *q = line;
		size_t n;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (kernel) {
			if (hex(&q, &a) != 0 || a == 0 || !strchr("tTwW", *q) ||
			    *q == '\0' || q[1] != ' ')
				continue;
			q += 2;
			n = strcspn(q, " \t");
		} else if (hex(&q, &a) != 0 || hex(&q, &sz) != 0 ||
		    (n = strlen(q)) == 0) {
			if (bad++ < SHOWN)
				warn_at(path, lineno, "skipped malformed line %s",
				    err_quote(quoted, line, (size_t)len, 60));
			continue;
		}
		if (n == 0)
			continue;
		t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
		t->v[t->n].addr = a;
		t->v[t->n].size = kernel ? 0 : sz;
		t->v[t->n].name = xmalloc(n + 1);
		memcpy(t->v[t->n].name, q, n);
		t->v[t->n].name[n] = '\0';
		t->n++;
	}
	free(line);
	fclose(fp);
	if (bad)
		warn_at(path, 0, "skipped %llu malformed line%s", bad,
		    bad == 1 ? "" : "s");
	if (t->n == 0) {
		free(t->v);
		free(t);
		return NULL;
	}
	qsort(t->v, t->n, sizeof *t->v, by_addr);
	return t;
}

struct symtab *
symtab_kernel(void)
{
	static struct symtab *k;
	static int tried;

	if (!tried) {
		tried = 1;
		k = load("/proc/kallsyms", 1);
	}
	return k;
}

struct symtab *
symtab_perfmap(uint32_t pid)
{
	static struct pmap *v;
	static size_t n, cap;
	char path[64];

	for (size_t i = 0; i < n; i++)
		if (v[i].pid == pid)
			return v[i].t;
	snprintf(path, sizeof path, "/tmp/perf-%u.map", pid);
	v = xgrow(v, &cap, n + 1, sizeof *v);
	v[n].pid = pid;
	v[n].t = load(path, 0);
	return v[n++].t;
}

const char *
symtab_lookup(const struct symtab *t, uint64_t addr, uint64_t *symoff)
{
	size_t lo = 0, hi;

	if (t == NULL)
		return NULL;
	hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct tsym *s = &t->v[lo - 1];

	if (s->size && addr >= s->addr + s->size)
		return NULL;
	*symoff = addr - s->addr;
	return s->name;
}

const char *
symtab_path(const struct symtab *t)
{
	return t->path;
}
