/*
 * jstack: Java thread dumps, many taken in a row (stackcollapse-jstack.pl).
 *
 *	for i in $(seq 100); do jstack PID; sleep 0.1; done > out.txt
 *
 * A thread is its header line ("NAME" #N ... tid=...), a
 * "java.lang.Thread.State: STATE" line and "at CLASS.METHOD(File.java:N)"
 * frames, leaf first, up to a blank line; it counts 1.  As in the Perl
 * script only RUNNABLE threads count (--all-states: every thread), JVM
 * housekeeping threads never, threads in epoll or socket reads are
 * WAITING or NETWORK; the root frame is the thread name without its
 * "-NUMBER" (--thread-ids keeps it, --no-thread-names drops the frame);
 * --shorten-pkgs writes org.foo.Bar.run as o.f.Bar.run; the script's own
 * names for these (--include-tid, --no-include-tname, ...) work too.  Lock lines
 * ("- locked ..."), the dump's date and banner, the "Threads class SMR
 * info:" list (JDK 10 on), the "JNI global refs" count and a compiler
 * thread's task are passed over; other lines are counted and skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/scan.h"
#include "formats.h"

static struct {
	int tid;		/* keep "-TID" on thread names */
	int no_tname;		/* no thread name root frame */
	int all;		/* every thread state, not RUNNABLE */
	int shorten_pkgs;	/* org.foo.Bar.run -> o.f.Bar.run */
} opt;

static const struct fmt_option jstack_options[] = {
	{ "thread-ids", &opt.tid, 1, NULL },
	{ "no-thread-names", &opt.no_tname, 1, NULL },
	{ "all-states", &opt.all, 1, NULL },
	{ "shorten-pkgs", &opt.shorten_pkgs, 1, NULL },
	/*
	 * stackcollapse-jstack.pl's names, negatable as Getopt::Long's "!"
	 * makes them (--no-NAME and --noNAME), so that a script calling it
	 * runs unchanged; the last one given wins, as there.
	 */
	{ "include-tname", &opt.no_tname, 0, NULL },
	{ "no-include-tname", &opt.no_tname, 1, NULL },
	{ "noinclude-tname", &opt.no_tname, 1, NULL },
	{ "include-tid", &opt.tid, 1, NULL },
	{ "no-include-tid", &opt.tid, 0, NULL },
	{ "noinclude-tid", &opt.tid, 0, NULL },
	{ "no-shorten-pkgs", &opt.shorten_pkgs, 0, NULL },
	{ "noshorten-pkgs", &opt.shorten_pkgs, 0, NULL },
	{ NULL, NULL, 0, NULL },
};

struct js {
	struct fstack fs;	/* frames, leaf first */
	char *tname;
	size_t tnlen, tncap;
	int have_tname;
	char state[16];		/* "?" until known */
	char *tmp;
	size_t tmpcap;
};

/* Whether s[0..n) holds a string literal. */
#define HAS(s, n, lit) (scan_mem(s, n, lit, sizeof lit - 1) != NULL)

/*
 * /epollWait|EPoll.wait/, the test of every frame: anchored on their
 * capitals (W, P), rare in Java names, where an anchor on their first
 * letter stopped at every 'e'.
 */
static int
in_epoll(const char *f, size_t n)
{
	const char *e = f + n, *c;

	for (c = f; (c = scan_find2(c, e, 'W', 'P')) != NULL; c++) {
		if (*c == 'W' && c - f >= 5 &&
		    FMT_STARTS(c - 5, (size_t)(e - c) + 5, "epollWait"))
			return 1;
		if (*c == 'P' && c - f >= 1 &&
		    FMT_STARTS(c - 1, (size_t)(e - c) + 1, "EPoll.wait"))
			return 1;
	}
	return 0;
}

/*
 * "java.lang.Thread.State: " in a line, or NULL: found at its ':' (one a
 * frame line, at its line number), where an anchor on 'j' stopped at
 * every "java".
 */
static const char *
state_in(const char *l, size_t n)
{
	static const char st[] = "java.lang.Thread.State: ";
	const char *e = l + n, *c;

	for (c = l; (c = scan_byte(c, e, ':')) != NULL; c++)
		if (c - l >= 22 && e - c >= 2 && c[1] == ' ' &&
		    memcmp(c - 22, st, 22) == 0)
			return c + 2;
	return NULL;
}

static void
set_state(struct js *j, const char *s, size_t n)
{
	if (n >= sizeof j->state)
		n = sizeof j->state - 1;
	memcpy(j->state, s, n);
	j->state[n] = '\0';
}

/* Socket.*accept0$ */
static int
socket_accept(const char *f, size_t n)
{
	const char *s;

	return FMT_ENDS(f, n, "accept0") && (s = scan_mem(f, n, "Socket", 6)) &&
	    (size_t)(s - f) + 6 <= n - 7;
}

/* m/(.*\.)([^.]+\.[^.]+)$/: initials of every package word. */
static const char *
shorten(struct js *j, const char *f, size_t *np)
{
	size_t n = *np, dots = 0, cut = 0, w = 0;

	for (size_t i = n; i-- > 0;)
		if (f[i] == '.' && ++dots == 2) {
			cut = i + 1;
			break;
		}
	if (dots < 2 || cut < 2)
		return f;
	j->tmp = xgrow(j->tmp, &j->tmpcap, n + 1, 1);
	for (size_t i = 0; i < cut;) {
		int word = f[i] == '_' || (f[i] >= '0' && f[i] <= '9') ||
		    ((f[i] | 0x20) >= 'a' && (f[i] | 0x20) <= 'z');

		j->tmp[w++] = f[i++];
		if (word)
			while (i < cut && (f[i] == '_' || (f[i] >= '0' &&
			    f[i] <= '9') || ((f[i] | 0x20) >= 'a' &&
			    (f[i] | 0x20) <= 'z')))
				i++;
	}
	memcpy(j->tmp + w, f + cut, n - cut);
	*np = w + n - cut;
	return j->tmp;
}

static void
end_thread(struct reader *r, struct js *j)
{
	if (strcmp(j->state, "RUNNABLE") == 0 || (opt.all &&
	    strcmp(j->state, "BACKGROUND") != 0)) {
		const char *s;
		size_t n;

		if (j->have_tname)
			fs_push(&j->fs, j->tname, j->tnlen);
		s = fs_join(&j->fs, 1, &n);
		if (j->fs.n)	/* a thread with no frames is its name */
			sink_put(r->sink, s, n, 1, 0);
	}
	fs_truncate(&j->fs, 0);
	j->have_tname = 0;
	set_state(j, "?", 1);
}

/* /C. CompilerThread/ */
static int
compiler_thread(const char *s, size_t n)
{
	for (size_t i = 0; i + 17 <= n; i++)
		if (s[i] == 'C' && memcmp(s + i + 2, " CompilerThread", 15) == 0)
			return 1;
	return 0;
}

static void
header(struct js *j, const char *l, size_t n)
{
	const char *name = l + 1, *q = memchr(name, '"', n - 1);
	size_t nl = q ? (size_t)(q - name) : n - 1;

	if (!opt.no_tname) {
		size_t k = nl;

		if (!opt.tid) {
			while (k && l[1 + k - 1] >= '0' && l[1 + k - 1] <= '9')
				k--;
			if (k < nl && k && name[k - 1] == '-')
				nl = k - 1;
		}
		j->tname = xgrow(j->tname, &j->tncap, nl + 1, 1);
		memcpy(j->tname, name, nl);
		j->tnlen = nl;
		j->have_tname = 1;
	}
	if (compiler_thread(name, nl) ||
	    HAS(name, nl, "Signal Dispatcher") || HAS(name, nl, "Service Thread") ||
	    HAS(name, nl, "Attach Listener"))
		set_state(j, "BACKGROUND", 10);
}

static void
frame(struct js *j, const char *f, size_t n)
{
	const char *op = memchr(f, '(', n);

	if (op)
		n = (size_t)(op - f);
	if (opt.shorten_pkgs)
		f = shorten(j, f, &n);
	fs_push(&j->fs, f, n);
	if (in_epoll(f, n))
		set_state(j, "WAITING", 7);
	if (FMT_ENDS(f, n, "socketAccept") || socket_accept(f, n) ||
	    FMT_ENDS(f, n, "socketRead0"))
		set_state(j, "NETWORK", 7);
}

static int
jstack_collapse(struct reader *r)
{
	struct js j;
	const char *l, *t;
	size_t n, k;
	int ret, smr = 0;	/* in the list of threads of JDK 10 on */

	memset(&j, 0, sizeof j);
	fs_init(&j.fs);
	set_state(&j, "?", 1);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (n && l[0] == '#')
			continue;
		if (smr) {
			/* Up to the "}" that closes the list, or a blank line. */
			smr = n && !(n == 1 && l[0] == '}');
			if (n)
				continue;
		}
		if (n == 0) {
			end_thread(r, &j);
			continue;
		}
		if (l[0] == '"') {
			header(&j, l, n);
		} else if ((t = state_in(l, n)) != NULL) {
			for (k = 0; t + k < l + n && t[k] != ' ' && t[k] != '\t'; k++)
				;
			if (k && strcmp(j.state, "?") == 0)
				set_state(&j, t, k);
		} else {
			for (k = 0; k < n && (l[k] == ' ' || l[k] == '\t'); k++)
				;
			if (n - k > 3 && memcmp(l + k, "at ", 3) == 0)
				frame(&j, l + k + 3, n - k - 3);
			else if ((k < n && l[k] == '-') ||
			    FMT_STARTS(l + k, n - k, "No compile task") ||
			    FMT_STARTS(l + k, n - k, "Compiling:") ||
			    (n > 5 && l[0] == '2' &&
			    fmt_all_digits(l + 1, 3) && l[4] == '-') ||
			    FMT_STARTS(l, n, "Full thread dump") ||
			    FMT_STARTS(l, n, "JNI global ref"))
				continue;
			else if (FMT_STARTS(l, n, "Threads class SMR info:"))
				smr = 1;
			else
				rd_skip(r, l, n);
		}
	}
	if (ret == 0)
		end_thread(r, &j);
	fs_free(&j.fs);
	free(j.tname);
	free(j.tmp);
	return ret;
}

static int
jstack_detect(const char *p, size_t n)
{
	return memmem(p, n, "java.lang.Thread.State: ", 24) != NULL;
}

const struct format jstack_format = {
	.name = "jstack",
	.detect = jstack_detect,
	.collapse = jstack_collapse,
	.split = fmt_split_blank,	/* a blank line ends the thread */
	.options = jstack_options,
};
