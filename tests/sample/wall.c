/*
 * wall.c: threads that run and wait, for trace-record --wall.
 *
 *	wall mix MS	two threads, each in rounds of 20 ms of its own CPU
 *			time (spin) then 30 ms asleep (nap), for MS ms of
 *			wall time: 40% on the CPU, 60% off
 *	wall three MS	three threads for MS ms: one spins, one is blocked
 *			in read() on a pipe, one on a mutex, the whole time
 *	wall many N MS	N threads asleep in nanosleep for MS ms
 *	wall stuck MS	a thread blocked in read() on a pipe for good,
 *			and one in a fork's child, while the main threads
 *			sleep MS ms and exit, the child's first
 *	wall term MS	a thread blocked in read() on a pipe for good, and
 *			the main thread asleep for MS ms (to be ended by a
 *			signal before)
 *	wall eintr MS	for MS ms, one thread spins while three wait a
 *			millisecond at a time, in nanosleep, poll and
 *			epoll_wait; exit status 3 if any wait failed with
 *			EINTR (a profiler that signals blocked threads)
 *	wall stdio MS	four threads blocked in stdio for MS ms: in fgets
 *			and in fread on pipes, in fwrite on a full pipe,
 *			and in fputc on that stream, whose lock the fwrite
 *			holds
 *	wall getc FILE	FILE read with getc, three times: prints the
 *			least CPU time a getc took, in ns
 *	wall getcfrom	prints the file of the getc the program calls
 *
 * The spin is timed by the thread's CPU clock, so that a busy machine
 * (the thread preempted, waiting for a CPU) makes it longer in wall time
 * but leaves its share of the samples.
 */
#define _GNU_SOURCE	/* F_GETPIPE_SZ */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
static long ms;
static int fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double
clock_ms(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static NOINLINE void
spin(double cpu)
{
	double end = clock_ms(CLOCK_THREAD_CPUTIME_ID) + cpu;

	while (clock_ms(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 1000; i++)
			sink = sink * 6364136223846793005ul + 1;
}

static NOINLINE void
nap(double wall)
{
	struct timespec t = { (time_t)(wall / 1000), (long)(wall * 1e6) % 1000000000 };

	while (nanosleep(&t, &t) != 0)
		;
}

static void *
mix(void *a)
{
	double end = clock_ms(CLOCK_MONOTONIC) + (double)ms;

	(void)a;
	while (clock_ms(CLOCK_MONOTONIC) < end) {
		spin(20);
		nap(30);
	}
	return NULL;
}

static NOINLINE void *
spinner(void *a)
{
	double end = clock_ms(CLOCK_MONOTONIC) + (double)ms;

	(void)a;
	while (clock_ms(CLOCK_MONOTONIC) < end)
		spin(1);
	return NULL;
}

static NOINLINE void *
reader(void *a)
{
	char c;

	(void)a;
	if (read(fds[0], &c, 1) != 1)
		exit(3);
	return NULL;
}

static NOINLINE void *
locker(void *a)
{
	(void)a;
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static NOINLINE void *
sleeper(void *a)
{
	(void)a;
	nap((double)ms);
	return NULL;
}

static int eintr;

/* Waits of 1 ms until the run's end; any EINTR counted. */
static void *
waiter(void *a)
{
	double end = clock_ms(CLOCK_MONOTONIC) + (double)ms;
	int how = (int)(long)a, ep = epoll_create1(0);
	struct pollfd p = { fds[0], POLLIN, 0 };
	struct epoll_event ev = { .events = EPOLLIN };

	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev) != 0)
		exit(2);
	while (clock_ms(CLOCK_MONOTONIC) < end) {
		struct timespec t = { 0, 1000000 };
		int r = how == 0 ? nanosleep(&t, NULL) : how == 1 ? poll(&p, 1, 1) :
		    epoll_wait(ep, &ev, 1, 1);

		if (r < 0 && errno == EINTR)
			__atomic_fetch_add(&eintr, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* stdio's pipes: a line, two bytes, and a full pipe to write to. */
static int line[2], bytes[2], full[2];
static FILE *out;

static NOINLINE void *
liner(void *a)
{
	char b[16];
	FILE *f = fdopen(line[0], "r");

	(void)a;
	if (f == NULL || fgets(b, sizeof b, f) == NULL || strcmp(b, "x\n") != 0)
		exit(3);
	fclose(f);
	return NULL;
}

static NOINLINE void *
freader(void *a)
{
	char b[2];
	FILE *f = fdopen(bytes[0], "r");

	(void)a;
	if (f == NULL || fread(b, 1, 2, f) != 2)
		exit(3);
	fclose(f);
	return NULL;
}

#define BIG	(256 * 1024)

static NOINLINE void *
writer(void *a)
{
	static char b[BIG];

	(void)a;
	if (fwrite(b, 1, sizeof b, out) != sizeof b || fflush(out) != 0)
		exit(3);
	return NULL;
}

/* Once the pipe is full (the writer holds the stream's lock, blocked),
 * a byte to the same stream. */
static NOINLINE void *
putter(void *a)
{
	int n = 0, cap = fcntl(full[1], F_GETPIPE_SZ);

	(void)a;
	while (cap > 0 && ioctl(full[0], FIONREAD, &n) == 0 && n < cap)
		nap(1);
	if (cap <= 0 || fputc('y', out) != 'y' || fflush(out) != 0)
		exit(3);
	return NULL;
}

static int
stdio(void)
{
	pthread_t t[4];
	void *(*fn[4])(void *) = { liner, freader, writer, putter };
	static char b[BIG + 1];
	size_t got = 0;
	ssize_t k;

	if (pipe(line) != 0 || pipe(bytes) != 0 || pipe(full) != 0 ||
	    (out = fdopen(full[1], "w")) == NULL)
		return 2;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, fn[i], NULL);
	nap((double)ms);
	if (write(line[1], "x\n", 2) != 2 || write(bytes[1], "ab", 2) != 2)
		return 2;
	while (got < sizeof b && (k = read(full[0], b, sizeof b - got)) > 0)
		got += (size_t)k;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return got == sizeof b && fclose(out) == 0 ? 0 : 2;
}

/* The least CPU time of a getc over the file, of three passes. */
static int
getcs(const char *path)
{
	FILE *f = fopen(path, "r");
	double best = 0;

	if (f == NULL)
		return 2;
	for (int i = 0; i < 3; i++) {
		double t0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
		long n = 0;

		rewind(f);
		while (getc(f) != EOF)
			n++;
		double t = (clock_ms(CLOCK_THREAD_CPUTIME_ID) - t0) * 1e6 / (double)(n ? n : 1);

		if (i == 0 || t < best)
			best = t;
	}
	printf("%.2f\n", best);
	return fclose(f) == 0 ? 0 : 2;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "mix";
	pthread_t t[3], *many;
	long n;

	if (strcmp(mode, "mix") == 0) {
		ms = argc > 2 ? atol(argv[2]) : 2000;
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, mix, NULL);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	} else if (strcmp(mode, "three") == 0) {
		ms = argc > 2 ? atol(argv[2]) : 2000;
		if (pipe(fds) != 0)
			return 2;
		pthread_mutex_lock(&lock);
		pthread_create(&t[0], NULL, spinner, NULL);
		pthread_create(&t[1], NULL, reader, NULL);
		pthread_create(&t[2], NULL, locker, NULL);
		pthread_join(t[0], NULL);
		pthread_mutex_unlock(&lock);
		if (write(fds[1], "x", 1) != 1)
			return 2;
		pthread_join(t[1], NULL);
		pthread_join(t[2], NULL);
	} else if (strcmp(mode, "many") == 0) {
		n = argc > 2 ? atol(argv[2]) : 1000;
		ms = argc > 3 ? atol(argv[3]) : 1000;
		if ((many = calloc((size_t)n, sizeof *many)) == NULL)
			return 2;
		for (long i = 0; i < n; i++)
			if (pthread_create(&many[i], NULL, sleeper, NULL) != 0)
				return 2;
		for (long i = 0; i < n; i++)
			pthread_join(many[i], NULL);
		free(many);
	} else if (strcmp(mode, "stuck") == 0) {
		ms = argc > 2 ? atol(argv[2]) : 1000;
		if (pipe(fds) != 0)
			return 2;
		pthread_create(&t[0], NULL, reader, NULL);
		pid_t pid = fork();

		if (pid == 0)
			pthread_create(&t[0], NULL, reader, NULL);
		nap((double)ms);
		/* The child's records first: trace-record reads until the
		 * process it started ends, and on a busy machine the child
		 * could end after. */
		if (pid > 0)
			waitpid(pid, NULL, 0);
		exit(0);
	} else if (strcmp(mode, "term") == 0) {
		ms = argc > 2 ? atol(argv[2]) : 1000;
		if (pipe(fds) != 0)
			return 2;
		pthread_create(&t[0], NULL, reader, NULL);
		nap((double)ms);
	} else if (strcmp(mode, "eintr") == 0) {
		pthread_t w[3];

		ms = argc > 2 ? atol(argv[2]) : 1000;
		if (pipe(fds) != 0)
			return 2;
		pthread_create(&t[0], NULL, spinner, NULL);
		for (long i = 0; i < 3; i++)
			pthread_create(&w[i], NULL, waiter, (void *)i);
		for (int i = 0; i < 3; i++)
			pthread_join(w[i], NULL);
		pthread_join(t[0], NULL);
		if (eintr) {
			fprintf(stderr, "wall: %d waits failed with EINTR\n", eintr);
			return 3;
		}
	} else if (strcmp(mode, "stdio") == 0) {
		ms = argc > 2 ? atol(argv[2]) : 1000;
		return stdio();
	} else if (strcmp(mode, "getc") == 0 && argc > 2) {
		return getcs(argv[2]);
	} else if (strcmp(mode, "getcfrom") == 0) {
		int (*volatile g)(FILE *) = getc;
		Dl_info di;

		if (!dladdr((void *)g, &di) || di.dli_fname == NULL)
			return 1;
		printf("%s\n", di.dli_fname);
	} else {
		fprintf(stderr, "usage: wall mix MS | three MS | many N MS | stuck MS | term MS | "
		    "eintr MS | stdio MS | getc FILE | getcfrom\n");
		return 2;
	}
	return 0;
}
