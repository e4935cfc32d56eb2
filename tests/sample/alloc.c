/*
 * alloc.c: a program whose allocations are known, for trace-record
 * --alloc (alloc.sh).
 *
 *	alloc split MIB    MIB allocated (and freed), 70% by path_a, 30% by
 *	                   path_b, with malloc, calloc and realloc of 16 B
 *	                   to 64 KiB (realloc counts its new size)
 *	alloc leak MIB     64 MiB leaked by leak_path, MIB more freed by
 *	                   churn_path
 *	alloc peak         64 MiB held by hold_path, then 128 MiB in one
 *	                   block by big_path (freed), then 384 MiB of 4 KiB
 *	                   blocks by small_path, each freed at once
 *	alloc fork MIB     split in a forked child (no exec) and its parent
 *	alloc kill MIB     leak_path's 64 MiB, then SIGKILL
 *
 * Built with -DOWN_MALLOC, the executable defines malloc, calloc,
 * realloc and free itself (a bump allocator that never reuses memory).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef OWN_MALLOC
static unsigned char *arena;
static size_t used;

void *
malloc(size_t n)
{
	if (arena == NULL)
		arena = mmap(NULL, (size_t)4 << 30, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	void *p = arena + used + 16;

	memcpy(arena + used, &n, sizeof n);
	used += (n + 16 + 15) & ~(size_t)15;
	return p;
}

void
free(void *p)
{
	(void)p;
}

void *
calloc(size_t k, size_t n)
{
	return malloc(k * n);	/* fresh mappings are zero */
}

void *
realloc(void *p, size_t n)
{
	void *q = malloc(n);
	size_t was;

	if (p) {
		memcpy(&was, (unsigned char *)p - 16, sizeof was);
		memcpy(q, p, was < n ? was : n);
	}
	return q;
}
#endif

static uint64_t seed = 88172645463325252ull;

/* Every block is stored here: a compiler may drop an allocation whose
 * pointer goes nowhere (GCC removes malloc and free pairs). */
static void *volatile sink;

static void *
kept(void *p)
{
	sink = p;
	return p;
}

static size_t
size16to64k(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return 16 + (size_t)(seed % 65521);
}

/* One round: about n bytes by malloc, calloc and realloc, all freed;
 * returns the bytes allocated. */
static __attribute__((noinline)) size_t
round_of(size_t n)
{
	size_t done = 0;

	while (done < n) {
		size_t a = size16to64k(), b = size16to64k(), c = size16to64k();
		char *p = kept(malloc(a)), *q = kept(calloc(1, b));

		p[0] = q[0] = 1;
		p = kept(realloc(p, c));
		p[0] = 2;
		free(p);
		free(q);
		done += a + b + c;
	}
	return done;
}

static __attribute__((noinline)) size_t
path_a(size_t n)
{
	return round_of(n);
}

static __attribute__((noinline)) size_t
path_b(size_t n)
{
	return round_of(n);
}

/* 7 of every 10 MiB by path_a; the bytes each allocated are printed. */
static void
split(size_t mib)
{
	size_t a = 0, b = 0;

	for (size_t i = 0; i < mib; i++) {
		if (i % 10 < 7)
			a += path_a((size_t)1 << 20);
		else
			b += path_b((size_t)1 << 20);
	}
	printf("path_a %zu path_b %zu\n", a, b);
}

static __attribute__((noinline)) void
leak_path(void)
{
	for (int i = 0; i < 64 * 256; i++)
		((char *)kept(malloc(4096)))[0] = 1;
}

static __attribute__((noinline)) void
churn_path(size_t mib)
{
	round_of(mib << 20);
}

static __attribute__((noinline)) void
hold_path(void)
{
	leak_path();
}

static __attribute__((noinline)) void
big_path(void)
{
	char *p = kept(malloc((size_t)128 << 20));

	p[0] = 1;
	free(p);
}

static __attribute__((noinline)) void
small_path(void)
{
	for (int i = 0; i < 384 * 256; i++) {
		char *p = kept(malloc(4096));

		p[0] = 1;
		free(p);
	}
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "split";
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 1024;

	if (strcmp(mode, "split") == 0) {
		split(mib);
	} else if (strcmp(mode, "leak") == 0) {
		leak_path();
		churn_path(mib);
	} else if (strcmp(mode, "peak") == 0) {
		hold_path();
		big_path();
		small_path();
	} else if (strcmp(mode, "fork") == 0) {
		pid_t pid = fork();
		int st = 0;

		split(mib);
		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
			return 1;
	} else if (strcmp(mode, "kill") == 0) {
		leak_path();
		kill(getpid(), SIGKILL);
	} else {
		fprintf(stderr, "alloc: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
