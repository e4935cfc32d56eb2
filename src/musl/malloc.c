/*
 * malloc, calloc, realloc and free for flamegraph-svg linked statically
 * with musl (make MUSL=1), in place of musl's mallocng, which a short
 * filter pays for in system calls: it maps and unmaps a group of pages
 * per size class as the class fills and empties.  One graph of 1,300
 * frames made 80 mmap and 79 munmap calls and 300 more page faults than
 * with glibc's malloc (12 brk calls), a third of its time.
 *
 * Blocks of up to BIG bytes come in size classes, the powers of two from
 * 16, each with a free list; they are cut from chunks mapped once and
 * never given back (a filter gives all back when it exits).  A block's
 * class is in the 16 bytes before it, so blocks stay 16-aligned.  Bigger
 * blocks are mappings of their own, grown in place or moved by mremap
 * (no copy) and unmapped when freed.  One spin lock: flamegraph-svg has
 * at most one other thread (--gzip's deflate), which allocates rarely.
 *
 * musl links no malloc of its own then: its objects are one function
 * each, and this file defines every one its other functions call.  A
 * libc function that wanted another (aligned_alloc) would pull in
 * mallocng, whose malloc would clash with this one at link time, loudly.
 */
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HDR	16
#define MINSH	4			/* the smallest class: 16 bytes */
#define NCLASS	14			/* 16 bytes .. 128 KiB */
#define BIG	((size_t)1 << (MINSH + NCLASS - 1))
#define CHUNK	((size_t)1 << 20)	/* pages are touched only as used */
#define PAGE	((size_t)4096)

struct hdr {
	size_t size;	/* the class's size, or the whole mapping's */
	size_t big;	/* a mapping of its own */
};

static void *freel[NCLASS];
static char *next, *end;
static atomic_flag lock = ATOMIC_FLAG_INIT;

static void
take(void)
{
	while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
		;
}

static void
give(void)
{
	atomic_flag_clear_explicit(&lock, memory_order_release);
}

static int
alloc_class(size_t n)
{
	return n <= 16 ? 0 : (int)(sizeof(long) * 8) - __builtin_clzl(n - 1) - MINSH;
}

static void *
nomem(void)
{
	errno = ENOMEM;
	return NULL;
}

static void *
small(size_t n)
{
	int c = alloc_class(n);
	size_t sz = (size_t)1 << (MINSH + c);
	struct hdr *h;
	void *p;

	take();
	if ((p = freel[c]) != NULL) {
		freel[c] = *(void **)p;
		give();
		return p;
	}
	if ((size_t)(end - next) < sz + HDR) {
		char *m = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED) {
			give();
			return nomem();
		}
		next = m;
		end = m + CHUNK;
	}
	h = (struct hdr *)(void *)next;
	next += sz + HDR;
	give();
	h->size = sz;
	h->big = 0;
	return h + 1;
}

/* a big block's mapping for n bytes, or 0 when that overflows */
static size_t
map_len(size_t n)
{
	return n > SIZE_MAX - HDR - PAGE ? 0 : (n + HDR + PAGE - 1) & ~(PAGE - 1);
}

static void *
big(size_t n)
{
	size_t len = map_len(n);
	struct hdr *h;

	if (len == 0)
		return nomem();
	h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (h == MAP_FAILED)
		return nomem();
	h->size = len;
	h->big = 1;
	return h + 1;
}

void *
malloc(size_t n)
{
	return n <= BIG ? small(n) : big(n);
}

void
free(void *p)
{
	struct hdr *h;
	int c;

	if (p == NULL)
		return;
	h = (struct hdr *)p - 1;
	if (h->big) {
		munmap(h, h->size);
		return;
	}
	c = alloc_class(h->size);
	take();
	*(void **)p = freel[c];
	freel[c] = p;
	give();
}

void *
calloc(size_t m, size_t n)
{
	void *p;

	if (n != 0 && m > SIZE_MAX / n)
		return nomem();
	/* a big block is a new mapping: zero already */
	if ((p = malloc(m * n)) != NULL && m * n <= BIG)
		memset(p, 0, m * n);
	return p;
}

size_t
malloc_usable_size(void *p)
{
	struct hdr *h = (struct hdr *)p - 1;

	return p == NULL ? 0 : h->big ? h->size - HDR : h->size;
}

void *
realloc(void *p, size_t n)
{
	struct hdr *h;
	size_t have;
	void *q;

	if (p == NULL)
		return malloc(n);
	h = (struct hdr *)p - 1;
	if (h->big && n > BIG) {
		size_t len = map_len(n);
		if (len == 0)
			return nomem();
		h = mremap(h, h->size, len, MREMAP_MAYMOVE);
		if (h == MAP_FAILED)
			return nomem();
		h->size = len;
		return h + 1;
	}
	have = malloc_usable_size(p);
	if (!h->big && n <= have)
		return p;
	if ((q = malloc(n)) == NULL)
		return NULL;
	memcpy(q, p, have < n ? have : n);
	free(p);
	return q;
}
