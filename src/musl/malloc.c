/*
 * malloc, calloc, realloc and free for flamegraph-svg linked statically
 * with musl (make MUSL=1), in place of musl's mallocng, which a short
 * filter pays for in system calls: it maps and unmaps a group of pages
 * per size class as the class fills and empties.  One graph of 1,300
 * frames made 80 mmap and 79 munmap calls and 300 more page faults than
 * with glibc's malloc (12 brk calls), a third of its time.
 *
 * Blocks of up to BIG bytes come in size classes, each with a free list:
 * 16, 32, 48 and 64 bytes, then four to each doubling (80, 96, 112, 128,
 * 160 ...), so that rounding up wastes an eighth on average where powers
 * of two waste a quarter (page faults and time came out within 5% of
 * theirs).  They are cut from chunks mapped once and never given back (a
 * filter gives all back when it exits).  A block's size is in the 16
 * bytes before it, so blocks stay 16-aligned; the last block cut grows
 * in place.  Bigger blocks are mappings of their own, grown or moved by
 * mremap (no copy); a few freed ones are kept for reuse (see big).  One
 * spin lock: flamegraph-svg has at most one other thread (--gzip's
 * deflate), which allocates rarely.
 *
 * Every function of musl's malloc is defined here, aligned_alloc and its
 * kin too (for alignments up to 16, all anything here asks), so that no
 * libc function can pull in mallocng, whose blocks free() here would
 * misread: mallocng names its malloc __libc_malloc_impl, and so would
 * link beside this one without a clash.  The Makefile checks the link
 * for it all the same.
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
#define BIG	((size_t)128 << 10)
#define NCLASS	48			/* 16 to 64 bytes, 4 a doubling to BIG */
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

/* n's class, and in *size the class's size: 0 < n <= BIG */
static int
class_of(size_t n, size_t *size)
{
	int e, q;

	if (n <= 64) {
		*size = n <= 16 ? 16 : (n + 15) & ~(size_t)15;
		return (int)(*size / 16) - 1;
	}
	/* 2^e <= n - 1 < 2^(e + 1), and q quarters of 2^e below n */
	e = (int)(sizeof(long) * 8) - 1 - __builtin_clzl(n - 1);
	q = (int)((n - 1) >> (e - 2)) + 1;
	*size = (size_t)q << (e - 2);
	return 4 + (e - 6) * 4 + (q - 5);
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
	size_t sz;
	int c = class_of(n, &sz);
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

/*
 * Freed mappings are kept, NKEPT of them and KEEPMAX bytes in all, for
 * the next big blocks: their pages are in already, where a new mapping's
 * fault in one by one as they are touched (the graph of 24,000 stacks
 * frees and takes back buffers of 200 KiB to 1 MiB a dozen times).  A
 * block takes a kept mapping at most twice its size.
 */
#define NKEPT	8
#define KEEPMAX	((size_t)32 << 20)
static struct hdr *kept[NKEPT];
static size_t nkept;	/* their bytes */

/* a big block; *fresh tells whether its mapping is new, so zero */
static void *
big(size_t n, int *fresh)
{
	size_t len = map_len(n);
	struct hdr *h = NULL;
	int best = -1;

	if (len == 0)
		return nomem();
	take();
	for (int i = 0; i < NKEPT; i++)
		if (kept[i] != NULL && kept[i]->size >= len &&
		    kept[i]->size / 2 <= len &&
		    (best < 0 || kept[i]->size < kept[best]->size))
			best = i;
	if (best >= 0) {
		h = kept[best];
		kept[best] = NULL;
		nkept -= h->size;
	}
	give();
	*fresh = h == NULL;
	if (h == NULL) {
		h = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (h == MAP_FAILED)
			return nomem();
		h->size = len;
		h->big = 1;
	}
	return h + 1;
}

/* keeps a freed mapping in a free place, if there is one and room */
static void
unmap(struct hdr *h)
{
	take();
	if (h->size <= KEEPMAX - nkept)
		for (int i = 0; i < NKEPT; i++)
			if (kept[i] == NULL) {
				kept[i] = h;
				nkept += h->size;
				h = NULL;
				break;
			}
	give();
	if (h != NULL)
		munmap(h, h->size);
}

void *
malloc(size_t n)
{
	int fresh;

	return n <= BIG ? small(n) : big(n, &fresh);
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
		unmap(h);
		return;
	}
	c = class_of(h->size, &(size_t){ 0 });
	take();
	*(void **)p = freel[c];
	freel[c] = p;
	give();
}

void *
calloc(size_t m, size_t n)
{
	void *p;
	int fresh = 0;

	if (n != 0 && m > SIZE_MAX / n)
		return nomem();
	p = m * n <= BIG ? small(m * n) : big(m * n, &fresh);
	/* a new mapping is zero already */
	if (p != NULL && !fresh)
		memset(p, 0, m * n);
	return p;
}

size_t
malloc_usable_size(void *p)
{
	struct hdr *h = (struct hdr *)p - 1;

	return p == NULL ? 0 : h->big ? h->size - HDR : h->size;
}

/* blocks are 16-aligned; nothing here asks for more, so nothing more is
 * given (EINVAL, as for an alignment that is not a power of two) */
void *
aligned_alloc(size_t align, size_t n)
{
	if (align == 0 || (align & (align - 1)) != 0 || align > HDR) {
		errno = EINVAL;
		return NULL;
	}
	return malloc(n);
}

int
posix_memalign(void **res, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *))
		return EINVAL;
	if ((p = aligned_alloc(align, n)) == NULL)
		return errno;
	*res = p;
	return 0;
}

void *
memalign(size_t align, size_t n)
{
	return aligned_alloc(align, n);
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
	if (!h->big && n <= BIG) {
		size_t sz;
		class_of(n, &sz);
		take();
		if ((char *)p + h->size == next && (size_t)(end - (char *)p) >= sz) {
			next = (char *)p + sz;
			h->size = sz;
			give();
			return p;
		}
		give();
	}
	if ((q = malloc(n)) == NULL)
		return NULL;
	memcpy(q, p, have < n ? have : n);
	free(p);
	return q;
}
