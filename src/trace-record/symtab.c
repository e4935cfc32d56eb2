/*
 * symtab.c: text symbol tables.  /proc/kallsyms lines are "ADDR TYPE
 * NAME [module]", perf-PID.map lines "START SIZE NAME" (hex, the format
 * JITs write for perf).  Both become a sorted array searched by binary
 * search.  Kernel symbols have no size: one reaches to the next.  A
 * kallsyms whose addresses are all zero (kptr_restrict) counts as none.
 *
 * /tmp is anyone's: a perf map for a pid to come can be planted there by
 * any user, as a FIFO (open would block for ever), a link to /dev/zero
 * (a line without end) or a file of lies.  So, as perf does, the map is
 * opened without following a link and without blocking, and used only
 * if it is a regular file owned by root, by this user or by the sampled
 * process's user; of it, at most PERFMAP_MAX bytes are read and lines of
 * at most PERFMAP_LINE bytes used.  What is refused is said on stderr.
 */
#include "symtab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
#define PERFMAP_MAX	(256u << 20)	/* bytes of a perf map read */
#define PERFMAP_LINE	65536		/* the longest perf map line used */

/* The sampled process's user, whose perf maps are trusted too. */
static uid_t owner = (uid_t)-1;

/* The perf map open for reading, or -1: absent, or refused (and said). */
static int
perfmap_open(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ELOOP)
			warn_at(path, 0, "refused: a symbolic link");
		else if (errno != ENOENT)
			warn_at(path, 0, "not read:");
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		warn_at(path, 0, "not read:");
	} else if (!S_ISREG(st.st_mode)) {
		warn_at(path, 0, "refused: not a regular file");
	} else if (st.st_uid != 0 && st.st_uid != geteuid() && st.st_uid != owner) {
		warn_at(path, 0, "refused: owned by uid %u, not by root or the "
		    "sampled program's user", (unsigned)st.st_uid);
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

/* Up to max bytes of fd, in *len (a NUL after them); *cut when more. */
static char *
slurp(int fd, size_t max, size_t *len, int *cut)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap + 1), c;
	ssize_t r;

	while (n < max) {
		if (n == cap) {
			cap = cap > max / 2 ? max : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, (cap < max ? cap : max) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	*cut = n == max && read(fd, &c, 1) > 0;
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * kallsyms: "ADDR TYPE NAME[\t[module]]", code symbols (t, T, w, W) at a
 * non-zero address; other symbols are passed over.  perf map: "START
 * SIZE NAME", the name running to the end of the line however long (a
 * JIT's signatures can run to kilobytes, not to PERFMAP_LINE); a line of
 * another shape is named (the first few) and counted on stderr, since
 * its code will show as [unknown].  By hand: sscanf made kallsyms'
 * 200,000 lines the largest cost of a short run.
 */
static struct symtab *
load(const char *path, int kernel)
{
	int fd = kernel ? open(path, O_RDONLY | O_CLOEXEC) : perfmap_open(path), cut;
	struct symtab *t;
	char *buf, *line, *nl, quoted[4 * 60 + 8];
	size_t len, size;
	unsigned long long a, sz = 0, lineno = 0, bad = 0;

	if (fd < 0)
		return NULL;
	buf = slurp(fd, kernel ? SIZE_MAX / 2 : PERFMAP_MAX, &size, &cut);
	close(fd);
	if (cut) {
		warn_at(path, 0, "read only the first %u bytes", PERFMAP_MAX);
		/* The last line is cut short: not a name to trust. */
		while (size > 0 && buf[size - 1] != '\n')
			size--;
	}
	t = xcalloc(1, sizeof *t);
	snprintf(t->path, sizeof t->path, "%s", kernel ? "[kernel.kallsyms]" : path);
	for (line = buf; line < buf + size; line = nl + 1) {
		const char *q = line;
		size_t n;

		lineno++;
		if ((nl = memchr(line, '\n', (size_t)(buf + size - line))) == NULL)
			nl = buf + size;
		*nl = '\0';
		len = (size_t)(nl - line);
		if (len == 0)
			continue;
		if (kernel) {
			if (hex(&q, &a) != 0 || a == 0 || !strchr("tTwW", *q) ||
			    *q == '\0' || q[1] != ' ')
				continue;
			q += 2;
			n = strcspn(q, " \t");
		} else if (len > PERFMAP_LINE || hex(&q, &a) != 0 ||
		    hex(&q, &sz) != 0 || (n = strlen(q)) == 0) {
			if (bad++ < SHOWN && len > PERFMAP_LINE)
				warn_at(path, lineno, "skipped a line of %zu bytes (more "
				    "than %u)", len, PERFMAP_LINE);
			else if (bad <= SHOWN)
				warn_at(path, lineno, "skipped malformed line %s",
				    err_quote(quoted, line, len, 60));
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
	free(buf);
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

void
symtab_perfmap_owner(uid_t uid)
{
	owner = uid;
}

const char *
symtab_path(const struct symtab *t)
{
	return t->path;
}
