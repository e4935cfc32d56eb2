/*
 * a2l: see a2l.h.  The Perl script runs
 *
 *	addr2line -a PC -e MODULE -i -f -s -C
 *
 * once per distinct frame and reads, after the address line, pairs of
 * lines (function; file:line, without " (discriminator N)"), innermost
 * first.  So do we, also once per distinct frame line (perf.c's cache),
 * but without a shell: the module's path comes from the input and goes
 * to addr2line as one argument, never through sh.  Only regular files
 * are looked up, so that a path naming a FIFO or a device cannot make
 * the run wait forever; addr2line's complaints (a module that is gone)
 * are silenced, the frame then keeping perf's symbol, which is also what
 * the script ends up writing.
 *
 * When addr2line places nothing ("??" and "??:0": older perf printed
 * run-time addresses of shared libraries), the script looks the symbol
 * up with nm and asks again at the symbol's address plus the frame's
 * offset; so do we, with nm's output kept per module as the script keeps
 * it (behind a lock: contexts of several threads ask).
 *
 * Rejected: one addr2line per module fed addresses on its standard input
 * (fewer processes, but the reply to one address has no end marker with
 * -i, and --inline is for small captures, as in the script).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "a2l.h"

extern char **environ;

int
a2l_available(void)
{
	const char *path = getenv("PATH"), *p, *e;
	char buf[4096];

	for (p = path ? path : ""; *p; p = *e ? e + 1 : e) {
		size_t n;

		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		n = (size_t)(e - p);
		if (n == 0 || n + sizeof "/addr2line" > sizeof buf)
			continue;
		memcpy(buf, p, n);
		memcpy(buf + n, "/addr2line", sizeof "/addr2line");
		if (access(buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

/*
 * The standard output of argv[0] run with argv, NUL-terminated, or NULL
 * when mod, the file it reads, is not a regular file.
 *
 * Parsing threads run this at once: each pipe is close-on-exec, so that
 * no child holds another's write end open (its reader would wait for that
 * child's exit to see the end), and it is made so before any other child
 * is spawned, under spawn_lock (pipe2 is not POSIX.1-2008).
 */
static char *
run(char *const argv[], const char *mod, size_t *len)
{
	static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
	posix_spawn_file_actions_t fa;
	struct stat st;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int fd[2], status;
	pid_t pid;
	ssize_t r;

	if (stat(mod, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	pthread_mutex_lock(&spawn_lock);
	if (pipe(fd) < 0) {
		pthread_mutex_unlock(&spawn_lock);
		return NULL;
	}
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0)
		pid = -1;
	pthread_mutex_unlock(&spawn_lock);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	for (;;) {
		buf = xgrow(buf, &cap, n + 4096 + 1, 1);
		r = read(fd[0], buf + n, 4096);
		if (r > 0)
			n += (size_t)r;
		else if (r == 0 || errno != EINTR)
			break;
	}
	close(fd[0]);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* addr2line -a PC -e MODULE -i -f -s -C */
static char *
addr2line(const char *pc, const char *mod, size_t *len)
{
	char *argv[] = { "addr2line", "-a", (char *)pc, "-e", (char *)mod,
	    "-i", "-f", "-s", "-C", NULL };

	return run(argv, mod, len);
}

/* nm's output for mod, run once per module; NULL when there is none. */
static const char *
nm_of(const char *mod)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct nm {
		struct nm *next;
		char *mod, *txt;
	} *cache;
	struct nm *e;
	const char *txt;

	pthread_mutex_lock(&lock);
	for (e = cache; e != NULL; e = e->next)
		if (strcmp(e->mod, mod) == 0)
			break;
	if (e == NULL) {
		char *argv[] = { "nm", (char *)mod, NULL };
		size_t n, ml = strlen(mod);

		e = xmalloc(sizeof *e);
		e->mod = xmalloc(ml + 1);
		memcpy(e->mod, mod, ml + 1);
		e->txt = run(argv, mod, &n);
		e->next = cache;
		cache = e;
	}
	txt = e->txt;
	pthread_mutex_unlock(&lock);
	return txt;
}

/*
 * /^([0-9a-f]+) . \Qfunc\E$/m in nm's output: the value of the symbol
 * func, in *val; 0 when there is no such line.
 */
static int
nm_find(const char *txt, const char *func, size_t fn, unsigned long long *val)
{
	const char *l = txt, *nl;

	for (; *l; l = nl ? nl + 1 : l + strlen(l)) {
		const char *h = l;
		size_t ln;

		nl = strchr(l, '\n');
		ln = nl ? (size_t)(nl - l) : strlen(l);
		while ((*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f'))
			h++;
		/* "VALUE T name": the type letter is any one byte */
		if (h > l && (size_t)(h - l) + 3 + fn == ln && h[0] == ' ' &&
		    h[2] == ' ' && memcmp(h + 3, func, fn) == 0) {
			*val = strtoull(l, NULL, 16);
			return 1;
		}
	}
	return 0;
}

/*
 * /^(.+)\+0x([0-9a-f]+)$/ on the frame's symbol: the name in *fn bytes,
 * the offset in *off; 0 when it has no offset.
 */
static int
split_offset(const char *f, size_t n, size_t *fn, unsigned long long *off)
{
	size_t e = n;

	while (e > 0 && ((f[e - 1] >= '0' && f[e - 1] <= '9') ||
	    (f[e - 1] >= 'a' && f[e - 1] <= 'f')))
		e--;
	if (e == n || e < 4 || memcmp(f + e - 3, "+0x", 3) != 0 || n - e > 16)
		return 0;
	*fn = e - 3;
	*off = strtoull(f + e, NULL, 16);
	return 1;
}

/*
 * The pairs of addr2line's output after its address line, outermost
 * first and joined with ';', in a string of *len bytes (malloc'd).
 */
static char *
pairs(const char *txt, size_t n, int context, size_t *len)
{
	char *res = xmalloc(n + 2);
	const char *p, *e = txt + n, *first = NULL;
	size_t flen = 0;
	char *line = xmalloc(n + 1);

	*len = 0;
	p = memchr(txt, '\n', n);	/* the address line */
	for (p = p ? p + 1 : e; p < e;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p)), *d;
		size_t ln = (size_t)((nl ? nl : e) - p), k;
		char *cur = line + (size_t)(p - txt);

		/* s/ \(discriminator \S+\)// */
		memcpy(cur, p, ln);
		if ((d = memmem(cur, ln, " (discriminator ", 16)) != NULL) {
			const char *q = d + 16, *end = cur + ln;

			while (q < end && *q != ' ' && *q != '\t' && *q != ')')
				q++;
			if (q < end && *q == ')' && q > d + 16) {
				memmove((char *)d, q + 1, (size_t)(end - q - 1));
				ln -= (size_t)(q + 1 - d);
			}
		}
		if (first == NULL) {
			first = cur;
			flen = ln;
		} else {
			/* this pair before the ones found so far */
			k = flen + (context ? 1 + ln : 0) + (*len ? 1 : 0);
			memmove(res + k, res, *len);
			memcpy(res, first, flen);
			if (context) {
				res[flen] = ':';
				memcpy(res + flen + 1, cur, ln);
			}
			if (*len)
				res[k - 1] = ';';
			*len += k;
			first = NULL;
		}
		p = nl ? nl + 1 : e;
	}
	free(line);
	return res;
}

size_t
a2l_frames(const char *pc, size_t pcn, const char *mod, size_t modn,
    const char *func, size_t funcn, int context, char **out)
{
	char *pcs = xmalloc(pcn + 1), *mods = xmalloc(modn + 1), *txt, *res;
	const char *nmtxt, *rest;
	size_t n, len, fn;
	unsigned long long off, base;

	*out = NULL;
	memcpy(pcs, pc, pcn);
	pcs[pcn] = '\0';
	memcpy(mods, mod, modn);
	mods[modn] = '\0';
	txt = addr2line(pcs, mods, &n);
	rest = txt ? memchr(txt, '\n', n) : NULL;
	if (rest != NULL && memmem(rest, n - (size_t)(rest - txt),
	    "??\n??:0", 7) != NULL && split_offset(func, funcn, &fn, &off) &&
	    (nmtxt = nm_of(mods)) != NULL) {
		char *name = xmalloc(fn + 1), at[24];

		memcpy(name, func, fn);
		name[fn] = '\0';
		if (nm_find(nmtxt, name, fn, &base)) {
			snprintf(at, sizeof at, "0x%llx", base + off);
			free(txt);
			txt = addr2line(at, mods, &n);
		}
		free(name);
	}
	free(pcs);
	free(mods);
	if (txt == NULL)
		return 0;
	res = pairs(txt, n, context, &len);
	free(txt);
	if (len == 0 || (len == 2 && memcmp(res, "??", 2) == 0) ||
	    (len == 7 && memcmp(res, "??:??:0", 7) == 0)) {
		free(res);
		return 0;
	}
	*out = res;
	return len;
}
