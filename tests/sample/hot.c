/*
 * hot.c: a program whose profile is known.  hot70 burns 70% of the CPU
 * through main;work;path_a;hot70, hot30 30% through main;work;path_b;hot30:
 * the same loop, 7 and 3 units per round.  Build with
 * -fno-omit-frame-pointer -O1.
 *
 *	hot MS [threads N | fork | early | forever | kill | jit [PLANT] | stall]
 *
 * MS: milliseconds of CPU time per thread or process.  threads: N
 * threads do it at once; fork: a child process does it too; early: exit
 * from a thread while another still burns (exit status 3); forever:
 * never stop; kill: SIGKILL itself after MS; jit: run a loop copied
 * into anonymous memory, named jitted_loop in /tmp/perf-PID.map as JITs
 * name their code for perf (x86-64 only).  PLANT: the perf map is one
 * another user could have planted in /tmp instead: fifo (a FIFO), link
 * (a symbolic link to /dev/zero), other (the right lines, but the file
 * owned by uid 65534; exit status 4 when it cannot be given away), or
 * long (the right lines after one of 70,000 bytes).  stall: under the
 * signal mechanism, reserve a record in its ring and never publish it,
 * as a writer killed in the middle would, then work (exit status 5
 * without the ring).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/libtrsample/sring.h"

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

/* A call makes hot70 and hot30 set up frames: gcc leaves leaf functions
 * without one even with -fno-omit-frame-pointer, and the caller of a
 * frameless leaf is missing from a frame-pointer walk. */
static NOINLINE void
keep(unsigned long x)
{
	sink = x;
}

static NOINLINE void
hot70(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	keep(x);
}

static NOINLINE void
hot30(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	keep(x);
}

static NOINLINE void path_a(long n) { hot70(7 * n); __asm__ volatile(""); }
static NOINLINE void path_b(long n) { hot30(3 * n); __asm__ volatile(""); }

#include "cpums.h"

/*
 * Rounds of 7 + 3 units until ms of this thread's CPU time are used.  The
 * rounds vary in length: with a fixed one, the loop's period could lock
 * to a sampling clock's (the signal mechanism's fires on the kernel's
 * tick) and the samples fall on one phase of it; that once gave 59/40.
 */
static NOINLINE void
work(double ms)
{
	double end = cpu_ms() + ms;
	unsigned long r = (unsigned long)pthread_self();

	do {
		for (int i = 0; i < 20; i++) {
			long n;

			r = r * 6364136223846793005ul + 1442695040888963407ul;
			n = 5000 + (long)(r >> 33) % 10000;
			path_a(n);
			path_b(n);
		}
	} while (ms < 0 || cpu_ms() < end);
}

static double run_ms;

static void *
thread_main(void *p)
{
	(void)p;
	work(run_ms);
	return NULL;
}

static void *
early_exit(void *p)
{
	(void)p;
	work(run_ms / 2);
	exit(3);
}

/* dec %rdi; jnz .-3; ret */
static const unsigned char loop_code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };

static int
jit(double ms, const char *plant)
{
	unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *fp;

	if (code == MAP_FAILED)
		return 1;
	memcpy(code, loop_code, sizeof loop_code);
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	if (strcmp(plant, "fifo") == 0) {
		if (mkfifo(path, 0666) != 0)
			return 1;
	} else if (strcmp(plant, "link") == 0) {
		if (symlink("/dev/zero", path) != 0)
			return 1;
	} else {
		if ((fp = fopen(path, "w")) == NULL)
			return 1;
		if (strcmp(plant, "long") == 0)
			for (int i = 0; i < 7000; i++)
				fputs("0123456789", fp);
		/* A line of another shape, which trace-record names and skips. */
		fprintf(fp, "%s\n%lx %zx jitted_loop\n", *plant ? "" : "not a map line",
		    (unsigned long)code, sizeof loop_code);
		if (fclose(fp) != 0)
			return 1;
		if (strcmp(plant, "other") == 0 && chown(path, 65534, 65534) != 0) {
			unlink(path);
			return 4;
		}
	}
	void (*fn)(long) = (void (*)(long))(void *)code;
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		fn(1000000);
	return 0;
}

static int
stall(void)
{
	const char *env = getenv(SR_ENV);
	struct sr_ring *r;
	struct sr_rec h = { .type = SR_SAMPLE, .size = 64 };
	char path[64];
	int fd;

	/* The ring's path is the variable's first word. */
	if (env == NULL || sscanf(env, "%63s", path) != 1 || (fd = open(path, O_RDWR)) < 0)
		return 5;
	r = mmap(NULL, SR_HEAD, PROT_READ, MAP_SHARED, fd, 0);
	if (r == MAP_FAILED)
		return 5;
	uint64_t size = r->size;

	munmap(r, SR_HEAD);
	r = mmap(NULL, SR_HEAD + size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r == MAP_FAILED)
		return 5;
	uint64_t at = __atomic_fetch_add(&r->head, h.size, __ATOMIC_ACQ_REL);

	memcpy((unsigned char *)r + SR_HEAD + (at & (size - 1)), &h, sizeof h);
	work(run_ms);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[2] : "";
	pthread_t t[64];

	run_ms = argc > 1 ? atof(argv[1]) : 1000;
	if (strcmp(mode, "threads") == 0) {
		int n = argc > 3 ? atoi(argv[3]) : 2;

		if (n < 1 || n > 64)
			return 2;
		for (int i = 0; i < n; i++)
			pthread_create(&t[i], NULL, thread_main, NULL);
		for (int i = 0; i < n; i++)
			pthread_join(t[i], NULL);
	} else if (strcmp(mode, "fork") == 0) {
		pid_t pid = fork();

		work(run_ms);
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	} else if (strcmp(mode, "early") == 0) {
		pthread_create(&t[0], NULL, early_exit, NULL);
		work(-1);
	} else if (strcmp(mode, "forever") == 0) {
		work(-1);
	} else if (strcmp(mode, "jit") == 0) {
		return jit(run_ms, argc > 3 ? argv[3] : "");
	} else if (strcmp(mode, "stall") == 0) {
		return stall();
	} else if (strcmp(mode, "kill") == 0) {
		work(run_ms);
		raise(SIGKILL);
	} else {
		work(run_ms);
	}
	return 0;
}
