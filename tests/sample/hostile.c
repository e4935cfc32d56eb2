/*
 * hostile.c: programs that do what real programs do to a sampler living
 * inside them (the signal mechanism's), each burning CPU in burn() for
 * MS milliseconds so that it is sampled meanwhile.  Build with -pthread.
 *
 *	hostile MS dfl | prof | strict | sysstrict | tsc | rt | deep KIB
 *	hostile MS plugin PATH FIRST SECOND cp|mv
 *	hostile MS dlloop PATH [move]
 *	hostile MS spawn | exec
 *	hostile MS closefds
 *	hostile MS block | rawblock
 *
 * dfl: every signal reset to SIG_DFL first, as daemons do.  prof: a
 * SIGPROF handler of its own, which must not be called (no timer of the
 * program's sends SIGPROF); prints how often it was.  strict: seccomp
 * strict mode (only read, write, exit and sigreturn allowed) after a
 * rename, entered with prctl; sysstrict: the same, entered with the
 * seccomp system call through syscall(2); tsc: the TSC taken away
 * (PR_TSC_SIGSEGV), as rr does.  rt: SIGRTMAX used by the program itself: a handler, 3
 * sent, then SIG_IGN and 1 sent, then SIG_DFL and 1 sent (which ends
 * it); prints SIGRTMAX's number, whether sigaction reports its handler,
 * and how many signals the handler saw.  deep: a thread recurses until
 * its stack pointer is within KIB KiB of its stack's end (a guard page
 * below), and burns there; prints "deep ok" when it is back.  plugin:
 * FIRST (a library built from plugin.c) copied to PATH, loaded, its
 * work(MS) called, unloaded; then SECOND put at PATH, as cp does (the
 * same file rewritten: same inode) or as a package manager does (a new
 * file renamed over it: a new inode), and loaded and called again.
 * dlloop: the library at PATH loaded and unloaded for MS ms of CPU
 * time; prints the iterations of the last three quarters and the growth
 * of its own anonymous memory (RssAnon) and its parent's over them.
 * move: at a new address each time (the span it took mapped again
 * without access after dlclose, as in dlloop.c).
 * spawn, exec: a thread with a 64 KiB stack runs this program again
 * (posix_spawn, or fork and execve) with 20,000 more environment
 * variables; the child prints how many it has and burns MS.  closefds:
 * every descriptor but 0, 1 and 2 closed, as Python's subprocess does
 * before exec, then this program executed again to burn MS.  block:
 * every signal blocked (sigprocmask), then burn MS; rawblock: the same
 * with the system call itself, past libc.
 * Build with -ldl.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/seccomp.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
static volatile sig_atomic_t seen;

#include "cpums.h"

static NOINLINE void
spin(void)
{
	unsigned long x = sink;

	for (int i = 0; i < 100000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

/* ms of this thread's CPU time. */
static NOINLINE void
burn(double ms)
{
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		spin();
}

static void
count(int sig)
{
	(void)sig;
	seen++;
}

/*
 * No clock once in strict mode: clock_gettime is a system call, or the
 * vDSO's TSC read, and strict mode disables the TSC on some kernels (a
 * SIGSEGV at rdtsc), as PR_SET_TSC does on all.  So spin() is timed
 * first, for a count to run.  how: strict (prctl), sysstrict (the
 * seccomp system call, through syscall(2)), tsc (PR_TSC_SIGSEGV).
 */
static NOINLINE void
burn_noclock(double ms, const char *how)
{
	double t0 = cpu_ms(), per_ms;
	unsigned long n = 0, todo;

	do {
		spin();
		n++;
	} while (cpu_ms() - t0 < 50);
	per_ms = (double)n / (cpu_ms() - t0);
	todo = (unsigned long)(per_ms * ms);
	pthread_setname_np(pthread_self(), how);
	if (strcmp(how, "tsc") == 0) {
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) != 0)
			_exit(3);
		while (todo-- > 0)
			spin();
		printf("%s ok\n", how);
		exit(0);
	}
	if (strcmp(how, "strict") == 0 ? prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT) != 0 :
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL) != 0)
		_exit(3);
	while (todo-- > 0)
		spin();
	if (write(1, how, strlen(how)) != (ssize_t)strlen(how) || write(1, " ok\n", 4) != 4)
		syscall(SYS_exit, 2);
	/* exit_group is not allowed: exit, of the only thread. */
	syscall(SYS_exit, 0);
}

static unsigned char *deep_lo;
static size_t deep_room;

/* Frames of about 1 KiB until within deep_room bytes of deep_lo. */
static NOINLINE int
recurse(double ms)
{
	volatile unsigned char pad[1000];

	pad[0] = 1;
	if ((size_t)(pad - deep_lo) > deep_room + sizeof pad)
		return recurse(ms) + pad[0];
	burn(ms);
	return pad[0];
}

static void *
deep_main(void *p)
{
	recurse(*(double *)p);
	return NULL;
}

static int
deep(double ms, size_t kib)
{
	size_t size = 256 << 10, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_attr_t a;
	pthread_t t;

	if (m == MAP_FAILED || mprotect(m, page, PROT_NONE) != 0)
		return 3;
	deep_lo = m + page;
	deep_room = kib << 10;
	pthread_attr_init(&a);
	if (pthread_attr_setstack(&a, deep_lo, size) != 0 ||
	    pthread_create(&t, &a, deep_main, &ms) != 0)
		return 3;
	pthread_join(t, NULL);
	printf("deep ok\n");
	return 0;
}

/* Copy from to the file at to, in place when it exists (as cp does). */
static int
copy(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n;

	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	return close(out);
}

static int
load_and_work(const char *path, double ms)
{
	void *h = dlopen(path, RTLD_NOW);
	void (*work)(double);

	if (h == NULL || (*(void **)&work = dlsym(h, "work")) == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	work(ms);
	return dlclose(h);
}

static int
plugin(double ms, char **argv)
{
	const char *path = argv[3], *first = argv[4], *second = argv[5], *how = argv[6];
	char tmp[4096];

	if (copy(first, path) != 0 || load_and_work(path, ms) != 0)
		return 3;
	if (strcmp(how, "cp") == 0) {
		if (copy(second, path) != 0)
			return 3;
	} else {
		snprintf(tmp, sizeof tmp, "%s.new", path);
		if (copy(second, tmp) != 0 || rename(tmp, path) != 0)
			return 3;
	}
	if (load_and_work(path, ms) != 0)
		return 3;
	printf("plugin ok\n");
	return 0;
}

/* RssAnon of process pid, in KiB. */
static long
rss_anon(int pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *fp;

	snprintf(path, sizeof path, "/proc/%d/status", pid);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, fp))
		if (sscanf(line, "RssAnon: %ld", &kib) == 1)
			break;
	fclose(fp);
	return kib;
}

#include "dlmove.h"

static int
dlloop(double ms, const char *path, int move)
{
	double start = cpu_ms();
	long n = 0, self = 0, parent = 0;

	for (int quarter = 0; quarter < 4; quarter++) {
		if (quarter == 1) {
			self = rss_anon(getpid());
			parent = rss_anon(getppid());
			n = 0;
		}
		while (cpu_ms() < start + ms * (quarter + 1) / 4) {
			void *h = dlopen(path, RTLD_NOW);
			int r;

			if (h == NULL)
				return 3;
			if ((r = dlclose_moving(h, move)) < 0)
				return r == -1 ? 3 : 4;
			n++;
		}
	}
	printf("%ld iterations, growth %ld KiB, parent %ld KiB\n", n,
	    rss_anon(getpid()) - self, rss_anon(getppid()) - parent);
	return 0;
}

#define NVARS 20000

static char **spawn_argv;
static char **spawn_env;

static void *
spawn_main(void *p)
{
	pid_t pid;
	int st = -1;

	if (strcmp(p, "spawn") == 0) {
		if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, spawn_argv, spawn_env) != 0)
			return NULL;
	} else if ((pid = fork()) == 0) {
		execve("/proc/self/exe", spawn_argv, spawn_env);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		printf("child exit %d\n", WEXITSTATUS(st));
	else
		printf("child killed by %d\n", WTERMSIG(st));
	return NULL;
}

static int
spawn(const char *ms, const char *how)
{
	extern char **environ;
	static char *argv[] = { "hostile", NULL, "count", NULL };
	size_t n = 0;
	pthread_attr_t a;
	pthread_t t;

	while (environ[n])
		n++;
	if ((spawn_env = calloc(n + NVARS + 1, sizeof *spawn_env)) == NULL)
		return 3;
	memcpy(spawn_env, environ, n * sizeof *spawn_env);
	for (int i = 0; i < NVARS; i++)
		if (asprintf(&spawn_env[n + i], "HOSTILE_%05d=x", i) < 0)
			return 3;
	argv[1] = (char *)ms;
	spawn_argv = argv;
	pthread_attr_init(&a);
	if (pthread_attr_setstacksize(&a, 64 << 10) != 0 ||
	    pthread_create(&t, &a, spawn_main, (void *)how) != 0)
		return 3;
	pthread_join(t, NULL);
	return 0;
}

int
main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 1000;
	const char *mode = argc > 2 ? argv[2] : "";

	if (strcmp(mode, "dfl") == 0) {
		for (int i = 1; i < NSIG; i++)
			if (i != SIGKILL && i != SIGSTOP)
				signal(i, SIG_DFL);
		burn(ms);
	} else if (strcmp(mode, "prof") == 0) {
		signal(SIGPROF, count);
		burn(ms);
		printf("SIGPROF %d\n", (int)seen);
	} else if (strcmp(mode, "strict") == 0 || strcmp(mode, "sysstrict") == 0 ||
	    strcmp(mode, "tsc") == 0) {
		burn_noclock(ms, mode);
	} else if (strcmp(mode, "rt") == 0) {
		struct sigaction sa, old;

		printf("SIGRTMAX is %d\n", SIGRTMAX);
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = count;
		sigaction(SIGRTMAX, &sa, NULL);
		sigaction(SIGRTMAX, NULL, &old);
		printf("handler %s\n", old.sa_handler == count ? "kept" : "lost");
		for (int i = 0; i < 3; i++) {
			raise(SIGRTMAX);
			burn(ms / 4);
		}
		signal(SIGRTMAX, SIG_IGN);
		raise(SIGRTMAX);
		burn(ms / 4);
		printf("SIGRTMAX %d\n", (int)seen);
		fflush(stdout);
		signal(SIGRTMAX, SIG_DFL);
		raise(SIGRTMAX);
		return 0;	/* not reached: SIGRTMAX's default ends the process */
	} else if (strcmp(mode, "plugin") == 0 && argc > 6) {
		return plugin(ms, argv);
	} else if (strcmp(mode, "dlloop") == 0 && argc > 3) {
		return dlloop(ms, argv[3], argc > 4 && strcmp(argv[4], "move") == 0);
	} else if (strcmp(mode, "spawn") == 0 || strcmp(mode, "exec") == 0) {
		return spawn(argv[1], mode);
	} else if (strcmp(mode, "block") == 0 || strcmp(mode, "rawblock") == 0) {
		sigset_t all;

		sigfillset(&all);
		if (strcmp(mode, "block") == 0)
			sigprocmask(SIG_BLOCK, &all, NULL);
		else
			syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, _NSIG / 8);
		burn(ms);
	} else if (strcmp(mode, "closefds") == 0) {
		char *again[] = { "hostile", argv[1], "dfl", NULL };
		extern char **environ;

		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		execve("/proc/self/exe", again, environ);
		return 3;
	} else if (strcmp(mode, "count") == 0) {
		extern char **environ;
		int n = 0;

		for (char **e = environ; *e; e++)
			n += strncmp(*e, "HOSTILE_", 8) == 0;
		printf("%d variables\n", n);
		fflush(stdout);
		burn(ms);
	} else if (strcmp(mode, "deep") == 0) {
		return deep(ms, argc > 3 ? (size_t)atoi(argv[3]) : 8);
	} else {
		return 2;
	}
	return 0;
}
