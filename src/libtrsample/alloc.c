/*
 * alloc.c: allocation sampling in the preloaded library (trace-record
 * --alloc).
 *
 * Contract.  malloc, calloc, realloc, reallocarray, free,
 * posix_memalign, aligned_alloc, memalign, valloc and pvalloc are
 * wrapped (C++'s new and delete call them); each calls the next
 * definition in the lookup order (dlsym RTLD_NEXT: libc's, or a
 * malloc library the program links) and returns what it returns.
 * With the ring's alloc_interval R set, allocations are sampled as Go
 * and tcmalloc do: each thread counts down a number of bytes drawn from
 * an exponential distribution of mean R, and the allocation that
 * reaches zero is sampled, its stack walked (sampler_walk: by frame
 * pointers, or by DWARF CFI with --call-graph=dwarf, from the caller's
 * registers at the call, which the wrapper's frame holds) and
 * written as an SR_ALLOC record (sring.h), and a new count drawn.  A
 * block of s bytes is so sampled with probability 1 - exp(-s/R)
 * whatever came before it (the exponential forgets), which trace-record
 * undoes when it weighs the sample (s / (1 - exp(-s/R)) bytes: pprof's
 * scaleHeapSample): a block of 64 MiB is sampled almost surely and
 * weighs its size, one of 16 bytes rarely and weighs about R.
 * realloc is a free of the old block and an allocation of the new size.
 * A size of 0 is never sampled.
 *
 * With alloc_frees set (--alloc=inuse_* and peak_*), a sampled block's
 * address is kept in a hash, and its free written as an SR_FREE record
 * before the block goes back to the allocator, so that an address
 * reused by another thread is allocated after it was freed, in time.
 * The hash: 2^16 buckets of chained nodes, a spin lock per bucket; a
 * free looks at its bucket's head first, without the lock, and most
 * find it empty (sampled blocks are few: one per R bytes).  A block can
 * only be freed after its malloc returned, which added it, so that look
 * cannot miss it.  Nodes come from pages of our own (mmap), never from
 * malloc.  Rejected: a lock-free open-addressing table (its deleted
 * slots only grow, and make every free's miss longer).
 *
 * Safe against: recursion (dlsym may call calloc while the real
 * functions are looked up: those calls get memory from a static
 * bootstrap buffer, never freed; and our own allocations while a sample
 * is written are not sampled); threads (the countdown, the random state
 * (sampler_exp's) and the recursion flag are per thread, initial-exec TLS, which needs
 * no allocation); fork (the child's bucket locks are reset: their
 * holders are gone); a program that brings its own malloc: one in a
 * library it links is found by RTLD_NEXT and sampled, but one defined
 * in the executable itself comes before us in the lookup order, so the
 * program's calls never reach these wrappers and nothing is sampled
 * (trace-record says so).
 */
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sampler.h"

#define EXPORT	__attribute__((visibility("default")))
#define TLS	__thread __attribute__((tls_model("initial-exec")))

static __typeof__(&malloc) real_malloc;
static __typeof__(&calloc) real_calloc;
static __typeof__(&realloc) real_realloc;
static __typeof__(&free) real_free;
static __typeof__(&posix_memalign) real_posix_memalign;
static __typeof__(&aligned_alloc) real_aligned_alloc;
static __typeof__(&memalign) real_memalign;
static __typeof__(&valloc) real_valloc;
static __typeof__(&pvalloc) real_pvalloc;

static uint64_t interval;	/* mean bytes between samples; 0: off */
static int track_frees;

static TLS int64_t left;	/* bytes to the next sample */
static TLS int drawn;		/* left was drawn for this thread */
static TLS int inside;		/* writing a sample: not one more */

/* What dlsym allocates while the real functions are looked up. */
static unsigned char boot[1 << 16] __attribute__((aligned(16)));
static size_t boot_used;
static int resolving;

static int
in_boot(const void *p)
{
	return (const unsigned char *)p >= boot && (const unsigned char *)p < boot + sizeof boot;
}

static void *
boot_alloc(size_t n)
{
	size_t at = boot_used;

	/* A 16-byte header holds the size, for realloc. */
	if (n > sizeof boot - at - 16)
		return NULL;
	boot_used += (n + 16 + 15) & ~(size_t)15;
	memcpy(boot + at, &n, sizeof n);
	return boot + at + 16;
}

static void
resolve(void)
{
	resolving = 1;
	*(void **)&real_malloc = dlsym(RTLD_NEXT, "malloc");
	*(void **)&real_calloc = dlsym(RTLD_NEXT, "calloc");
	*(void **)&real_realloc = dlsym(RTLD_NEXT, "realloc");
	*(void **)&real_free = dlsym(RTLD_NEXT, "free");
	*(void **)&real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
	*(void **)&real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
	*(void **)&real_memalign = dlsym(RTLD_NEXT, "memalign");
	*(void **)&real_valloc = dlsym(RTLD_NEXT, "valloc");
	*(void **)&real_pvalloc = dlsym(RTLD_NEXT, "pvalloc");
	resolving = 0;
}

/* The hash of sampled live blocks. */
#define NBUCKETS	(1u << 16)
#define POOL_BYTES	(1u << 16)

struct node {
	uintptr_t	 addr;
	struct node	*next;
};

static struct node *buckets[NBUCKETS];
static int locks[NBUCKETS];
static struct node *spare;	/* free nodes, under pool_lock */
static int pool_lock;

static void
lock(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			sched_yield();
}

static void
unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static size_t
bucket(uintptr_t a)
{
	return (size_t)(((uint64_t)a * 0x9e3779b97f4a7c15ull) >> 48);
}

static struct node *
node_get(void)
{
	struct node *n;

	lock(&pool_lock);
	if (spare == NULL) {
		struct node *m = mmap(NULL, POOL_BYTES, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m != MAP_FAILED)
			for (size_t i = 0; i < POOL_BYTES / sizeof *m; i++) {
				m[i].next = spare;
				spare = &m[i];
			}
	}
	if ((n = spare) != NULL)
		spare = n->next;
	unlock(&pool_lock);
	return n;
}

static void
node_put(struct node *n)
{
	lock(&pool_lock);
	n->next = spare;
	spare = n;
	unlock(&pool_lock);
}

static void
hash_add(uintptr_t a)
{
	size_t b = bucket(a);
	struct node *n = node_get();

	if (n == NULL)
		return;
	n->addr = a;
	lock(&locks[b]);
	n->next = buckets[b];
	__atomic_store_n(&buckets[b], n, __ATOMIC_RELEASE);
	unlock(&locks[b]);
}

/* Whether a was sampled and live; forgotten. */
static int
hash_take(uintptr_t a)
{
	size_t b = bucket(a);
	struct node **pp, *n = NULL;

	if (__atomic_load_n(&buckets[b], __ATOMIC_ACQUIRE) == NULL)
		return 0;
	lock(&locks[b]);
	for (pp = &buckets[b]; *pp; pp = &(*pp)->next)
		if ((*pp)->addr == a) {
			n = *pp;
			__atomic_store_n(pp, n->next, __ATOMIC_RELEASE);
			break;
		}
	unlock(&locks[b]);
	if (n)
		node_put(n);
	return n != NULL;
}

/* Bytes to the next sample: exponential, of mean interval. */
static int64_t
draw(void)
{
	return sampler_exp((double)interval);
}

/*
 * Write the sample of the block p of n bytes, allocated from the call
 * that returns to ret: the frames from there up, within the thread's
 * stack.  Our own frames (take, the wrapper; this file keeps frame
 * pointers) are passed over up to the one that returns to ret, whose
 * saved frame pointer and end are the caller's at the call.
 */
static __attribute__((noinline)) void
take(void *p, size_t n, uintptr_t ret)
{
	struct {
		struct sr_alloc	a;
		uint64_t	fr[SR_MAXFRAMES];
	} b;
	uint32_t k = 0;
	uintptr_t lo, hi, fp = (uintptr_t)__builtin_frame_address(0);
	struct sr_rec h;

	if (inside)
		return;
	inside = 1;
	b.a.addr = (uint64_t)(uintptr_t)p;
	b.a.size = n;
	if (sampler_stack(&lo, &hi) && fp >= lo && fp < hi) {
		for (int i = 0; i < 4 && fp <= hi - 16 && (fp & 7) == 0; i++) {
			const uintptr_t *f = (const uintptr_t *)fp;

			if (f[1] == ret) {
				k = sampler_walk(ret, fp + 16, f[0], hi, b.fr, SR_MAXFRAMES);
				break;
			}
			if (f[0] <= fp)
				break;
			fp = f[0];
		}
	}
	if (k == 0)
		b.fr[k++] = ret;
	sampler_header(&h, SR_ALLOC);
	h.n = k;
	if (track_frees)
		hash_add((uintptr_t)p);
	sampler_emit(&h, &b, sizeof b.a + k * sizeof b.fr[0]);
	inside = 0;
}

/* After an allocation of n bytes at p: count it down, maybe sample it. */
static inline __attribute__((always_inline)) void
count(void *p, size_t n, void *ret)
{
	if (__atomic_load_n(&interval, __ATOMIC_RELAXED) == 0 || p == NULL || n == 0)
		return;
	if (!drawn) {
		drawn = 1;
		left = draw();
	}
	if ((uint64_t)left > n) {
		left -= (int64_t)n;
		return;
	}
	left = draw();
	take(p, n, (uintptr_t)ret);
}

/* Before p goes back to the allocator. */
static inline __attribute__((always_inline)) void
forget(void *p)
{
	struct sr_rec h;
	uint64_t a = (uint64_t)(uintptr_t)p;

	if (track_frees && p && hash_take((uintptr_t)p)) {
		sampler_header(&h, SR_FREE);
		h.n = 1;
		sampler_emit(&h, &a, sizeof a);
	}
}

EXPORT void *
malloc(size_t n)
{
	if (real_malloc == NULL) {
		if (resolving)
			return boot_alloc(n);
		resolve();
		if (real_malloc == NULL)
			return NULL;
	}
	void *p = real_malloc(n);

	count(p, n, __builtin_return_address(0));
	return p;
}

EXPORT void *
calloc(size_t k, size_t n)
{
	if (real_calloc == NULL) {
		if (resolving)
			return n && k > SIZE_MAX / n ? NULL : boot_alloc(k * n);
		resolve();
		if (real_calloc == NULL)
			return NULL;
	}
	void *p = real_calloc(k, n);

	count(p, k * n, __builtin_return_address(0));
	return p;
}

EXPORT void
free(void *p)
{
	if (p == NULL || in_boot(p))
		return;
	if (real_free == NULL) {
		if (resolving)
			return;		/* dlsym's own: kept */
		resolve();
	}
	forget(p);
	real_free(p);
}

/* realloc, called from ret. */
static void *
realloc_from(void *p, size_t n, void *ret)
{
	if (in_boot(p)) {
		size_t was;
		void *q = malloc(n);

		memcpy(&was, (unsigned char *)p - 16, sizeof was);
		if (q)
			memcpy(q, p, was < n ? was : n);
		return q;
	}
	if (real_realloc == NULL) {
		resolve();
		if (real_realloc == NULL)
			return NULL;
	}
	forget(p);
	void *q = real_realloc(p, n);

	count(q, n, ret);
	return q;
}

EXPORT void *
realloc(void *p, size_t n)
{
	return realloc_from(p, n, __builtin_return_address(0));
}

EXPORT void *
reallocarray(void *p, size_t k, size_t n)
{
	if (n && k > SIZE_MAX / n) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc_from(p, k * n, __builtin_return_address(0));
}

/* The aligned ones: looked up on first use, after the rest. */
#define REAL_OR(name, fail) \
	if (real_##name == NULL) \
		resolve(); \
	if (real_##name == NULL) \
		return fail

EXPORT int
posix_memalign(void **pp, size_t al, size_t n)
{
	REAL_OR(posix_memalign, ENOMEM);
	int r = real_posix_memalign(pp, al, n);

	if (r == 0)
		count(*pp, n, __builtin_return_address(0));
	return r;
}

EXPORT void *
aligned_alloc(size_t al, size_t n)
{
	REAL_OR(aligned_alloc, NULL);
	void *p = real_aligned_alloc(al, n);

	count(p, n, __builtin_return_address(0));
	return p;
}

EXPORT void *
memalign(size_t al, size_t n)
{
	REAL_OR(memalign, NULL);
	void *p = real_memalign(al, n);

	count(p, n, __builtin_return_address(0));
	return p;
}

EXPORT void *
valloc(size_t n)
{
	REAL_OR(valloc, NULL);
	void *p = real_valloc(n);

	count(p, n, __builtin_return_address(0));
	return p;
}

EXPORT void *
pvalloc(size_t n)
{
	REAL_OR(pvalloc, NULL);
	void *p = real_pvalloc(n);

	count(p, n, __builtin_return_address(0));
	return p;
}

/* The child's only thread holds no lock; one another thread held at the
 * fork would be held for ever.  The chains are whole at every store. */
static void
after_fork(void)
{
	memset(locks, 0, sizeof locks);
	pool_lock = 0;
}

void
alloc_init(const struct sr_ring *r)
{
	if (r->alloc_interval == 0)
		return;
	if (real_malloc == NULL)
		resolve();
	track_frees = r->alloc_frees != 0;
	pthread_atfork(NULL, NULL, after_fork);
	__atomic_store_n(&interval, r->alloc_interval, __ATOMIC_RELEASE);
}
