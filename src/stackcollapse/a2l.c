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
 * Rejected: one addr2line per module fed addresses on its standard input
 * (fewer processes, but the reply to one address has no end marker with
 * -i, and --inline is for small captures, as in the script); the
 * script's fallback through nm for an address addr2line cannot place,
 * not done: it needs the symbol table of the module by name, and perf
 * prints addresses that addr2line places in the files it names.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
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

/* addr2line's output for pc in mod, NUL-terminated, or NULL. */
static char *
run(const char *pc, const char *mod, size_t *len)
{
	char *argv[] = { "addr2line", "-a", (char *)pc, "-e", (char *)mod,
	    "-i", "-f", "-s", "-C", NULL };
	posix_spawn_file_actions_t fa;
	struct stat st;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int fd[2], status;
	pid_t pid;
	ssize_t r;

	if (stat(mod, &st) < 0 || !S_ISREG(st.st_mode) || pipe(fd) < 0)
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	if (posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ) != 0)
		pid = -1;
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

size_t
a2l_frames(const char *pc, size_t pcn, const char *mod, size_t modn,
    int context, char **out)
{
	char *pcs = xmalloc(pcn + 1), *mods = xmalloc(modn + 1), *txt, *res;
	const char *p, *e, *first = NULL;
	size_t n, flen = 0, len = 0, cap;

	*out = NULL;
	memcpy(pcs, pc, pcn);
	pcs[pcn] = '\0';
	memcpy(mods, mod, modn);
	mods[modn] = '\0';
	txt = run(pcs, mods, &n);
	free(pcs);
	free(mods);
	if (txt == NULL)
		return 0;
	/* At most the output and a ':' per pair; frames go to the front. */
	cap = n + 2;
	res = xmalloc(cap);
	p = memchr(txt, '\n', n);	/* the address line */
	for (p = p ? p + 1 : txt + n, e = txt + n; p < e;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p)), *d;
		size_t ln = (size_t)((nl ? nl : e) - p), k;

		if ((d = memmem(p, ln, " (discriminator ", 16)) != NULL) {
			const char *q = d + 16, *end = p + ln;

			while (q < end && *q != ' ' && *q != '\t' && *q != ')')
				q++;
			if (q < end && *q == ')' && q > d + 16) {
				memmove((char *)d, q + 1, (size_t)(end - q - 1));
				ln -= (size_t)(q + 1 - d);
			}
		}
		if (first == NULL) {
			first = p;
			flen = ln;
		} else {
			/* this pair before the ones found so far */
			k = flen + (context ? 1 + ln : 0) + (len ? 1 : 0);
			memmove(res + k, res, len);
			memcpy(res, first, flen);
			if (context) {
				res[flen] = ':';
				memcpy(res + flen + 1, p, ln);
			}
			if (len)
				res[k - 1] = ';';
			len += k;
			first = NULL;
		}
		p = nl ? nl + 1 : e;
	}
	free(txt);
	if (len == 0 || (len == 2 && memcmp(res, "??", 2) == 0) ||
	    (len == 7 && memcmp(res, "??:??:0", 7) == 0)) {
		free(res);
		return 0;
	}
	*out = res;
	return len;
}
