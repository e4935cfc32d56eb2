/*
 * Unit tests of src/musl, the malloc and string functions flamegraph-svg
 * links in place of musl's (make MUSL=1): built with musl-gcc and those
 * objects, so that the functions under test are ours, and checked
 * against byte-at-a-time references written out here.  Each check
 * prints "ok NAME" or "FAIL NAME" (the protocol of tests/unit), then
 * "done".
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failed;

/* written with write(2): stdio calls the functions under test */
static void
say(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	if (write(1, s, n) < 0)
		failed = 1;
}

static void
verdict(const char *name, int ok)
{
	say(ok ? "ok " : "FAIL ");
	say(name);
	say("\n");
	if (!ok)
		failed = 1;
}

static uint32_t seed = 2463534242u;

static unsigned char
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return (unsigned char)seed;
}

#define AREA 9000

static unsigned char a[AREA], b[AREA], want[AREA];

static void
fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = rnd();
}

/* memmove's result, byte by byte through a copy */
static void
ref_move(unsigned char *buf, size_t d, size_t s, size_t n)
{
	static unsigned char t[AREA];

	for (size_t i = 0; i < n; i++)
		t[i] = buf[s + i];
	for (size_t i = 0; i < n; i++)
		buf[d + i] = t[i];
}

/* every length to 300, then ones about the loop's and rep movsb's edges */
static const size_t lens[] = { 511, 512, 513, 1023, 1024, 2047, 2048, 2049,
    4095, 4096, 4100, 8000 };

static size_t
len_at(size_t k)
{
	return k <= 300 ? k : lens[k - 301];
}

#define NLEN (301 + sizeof lens / sizeof lens[0])

static void
test_memcpy(void)
{
	int ok = 1;

	for (size_t k = 0; k < NLEN && ok; k++)
		for (size_t so = 0; so < 16 && ok; so += 3)
			for (size_t dof = 0; dof < 16 && ok; dof += 5) {
				size_t n = len_at(k);
				fill(a, AREA);
				fill(b, AREA);
				memcpy(want, b, AREA);
				for (size_t i = 0; i < n; i++)
					want[dof + 32 + i] = a[so + i];
				if (memcpy(b + dof + 32, a + so, n) != b + dof + 32 ||
				    memcmp(want, b, AREA) != 0)
					ok = 0;
			}
	verdict("memcpy: every length to 300 and about 512, 1024, 2048 and 4096, offsets, neighbours untouched", ok);
}

/*
 * fn (memcpy or memmove) moving n bytes from 8 + from to 8 + to inside a,
 * against ref_move; each shift up to 70 bytes over every length
 */
static int
overlaps(void *(*fn)(void *, const void *, size_t), int forward)
{
	for (size_t k = 0; k < NLEN; k++)
		for (size_t shift = 1; shift < 70; shift += shift < 20 ? 1 : 17) {
			size_t n = len_at(k), to = forward ? 0 : shift;
			size_t from = forward ? shift : 0;
			if (n + shift + 16 > AREA)
				continue;
			fill(a, AREA);
			memcpy(want, a, AREA);
			ref_move(want, 8 + to, 8 + from, n);
			if (fn(a + 8 + to, a + 8 + from, n) != a + 8 + to ||
			    memcmp(want, a, AREA) != 0)
				return 0;
		}
	return 1;
}

static void
test_overlap(void)
{
	/* dst below src: our memmove hands memcpy this case */
	verdict("memcpy: forward overlap comes out as memmove's", overlaps(memcpy, 1));
	verdict("memmove: overlapping, both directions",
	    overlaps(memmove, 1) && overlaps(memmove, 0));
}

static void
test_memchr(void)
{
	int ok = 1;

	for (size_t n = 0; n < 130 && ok; n++)
		for (size_t at = 0; at <= n && ok; at++) {
			for (size_t i = 0; i < n; i++)
				a[3 + i] = (unsigned char)(0x80 | (i % 0x7f));
			/* a match just past the end must not be found */
			a[3 + n] = 0xff;
			if (at < n)
				a[3 + at] = 0xff;
			unsigned char *p = memchr(a + 3, 0xff, n);
			if (p != (at < n ? a + 3 + at : NULL))
				ok = 0;
			/* c is taken as an unsigned char */
			if (at < n && memchr(a + 3, 0x1ff, n) != a + 3 + at)
				ok = 0;
		}
	verdict("memchr: every position in lengths to 130, none, a match past the end, c above 255", ok);
}

static int
sign(int v)
{
	return (v > 0) - (v < 0);
}

static void
test_memcmp(void)
{
	int ok = 1;

	for (size_t n = 0; n < 100 && ok; n++) {
		fill(a, n);
		memcpy(b, a, n);
		if (memcmp(a, b, n) != 0)
			ok = 0;
		for (size_t at = 0; at < n && ok; at++) {
			unsigned char keep = b[at];
			/* bytes compare as unsigned: 0x80 is above 0x01 */
			a[at] = 0x80;
			b[at] = 0x01;
			if (sign(memcmp(a, b, n)) != 1 || sign(memcmp(b, a, n)) != -1)
				ok = 0;
			a[at] = b[at] = keep;
		}
	}
	verdict("memcmp: equal, a difference at every position, unsigned bytes", ok);
}

static void
test_malloc(void)
{
	int ok = 1;
	void *p[400];

	for (size_t n = 0; n < 400; n++) {
		p[n] = malloc(n);
		if (p[n] == NULL || (uintptr_t)p[n] % 16 != 0 ||
		    malloc_usable_size(p[n]) < n)
			ok = 0;
		else
			memset(p[n], (int)n, n);
	}
	for (size_t n = 0; n < 400; n++) {
		for (size_t i = 0; i < n; i++)
			if (((unsigned char *)p[n])[i] != (unsigned char)n)
				ok = 0;
		free(p[n]);
	}
	verdict("malloc: 16-aligned, as big as asked, blocks apart", ok);

	/* the classes round up by a quarter at most, to 128 KiB and past */
	ok = 1;
	for (size_t n = 1; n < ((size_t)1 << 20); n += n / 7 + 1) {
		void *r = malloc(n);
		size_t u = malloc_usable_size(r);
		ok &= r != NULL && u >= n && u <= n + n / 4 + 4096 + 16;
		free(r);
	}
	verdict("malloc: a block's size is at most a quarter over the size asked", ok);

	/* a freed block comes back, and calloc zeroes it */
	unsigned char *q = malloc(100);
	memset(q, 0xff, 100);
	/* the fill must happen: a store before free() is dead to gcc */
	__asm__ volatile("" : : "r"(q) : "memory");
	free(q);
	unsigned char *z = calloc(25, 4);
	ok = z == q;
	for (size_t i = 0; i < 100; i++)
		ok &= z[i] == 0;
	free(z);
	verdict("calloc: a reused block is zeroed", ok);

	/* a big block's mapping, freed, is kept and handed back: zeroed */
	q = malloc(300 << 10);
	memset(q, 0xab, 300 << 10);
	__asm__ volatile("" : : "r"(q) : "memory");
	free(q);
	z = calloc(300, 1 << 10);
	ok = z == q;
	for (size_t i = 0; i < (300 << 10); i++)
		ok &= z[i] == 0;
	free(z);
	verdict("calloc: a kept mapping handed back is zeroed", ok);

	/* alignments up to 16 are given; above, EINVAL */
	void *al = NULL;
	ok = posix_memalign(&al, 16, 40) == 0 && (uintptr_t)al % 16 == 0;
	free(al);
	ok &= posix_memalign(&al, 64, 40) == EINVAL && posix_memalign(&al, 12, 40) == EINVAL;
	errno = 0;
	ok &= aligned_alloc(4096, 40) == NULL && errno == EINVAL;
	al = aligned_alloc(8, 40);
	ok &= al != NULL && memalign(16, 8) != NULL;
	free(al);
	verdict("aligned_alloc, posix_memalign, memalign: 16 and below, EINVAL above", ok);

	/* volatile: the compiler would refuse the sizes it sees */
	volatile size_t half = SIZE_MAX / 2, most = SIZE_MAX - 8;
	errno = 0;
	ok = calloc(half, 4) == NULL && errno == ENOMEM;
	errno = 0;
	ok &= malloc(most) == NULL && errno == ENOMEM;
	free(NULL);
	verdict("malloc, calloc: a size that overflows is ENOMEM", ok);
}

/* grows a block from 1 byte to 4 MiB and back, past the small classes'
 * end (128 KiB), checking the bytes it keeps each time */
static void
test_realloc(void)
{
	int ok = 1;
	unsigned char *p = NULL;
	size_t n = 0, m;

	for (m = 1; m <= ((size_t)4 << 20) && ok; m = m * 3 / 2 + 1) {
		p = realloc(p, m);
		if (p == NULL)
			break;
		for (size_t i = 0; i < n && ok; i++)
			ok = p[i] == (unsigned char)(i * 7);
		for (size_t i = n; i < m; i++)
			p[i] = (unsigned char)(i * 7);
		n = m;
	}
	for (m = n; m > 0 && ok; m /= 3) {
		p = realloc(p, m);
		for (size_t i = 0; i < m && ok; i++)
			ok = p[i] == (unsigned char)(i * 7);
	}
	free(p);
	verdict("realloc: grows to 4 MiB and shrinks, keeping the bytes", ok && p != NULL);

	/* the last block cut grows in place; one cut after it must not */
	ok = 1;
	for (size_t k = 0; k < 4; k++) {
		unsigned char *x = malloc(40 + k * 1000), *y = malloc(40);
		unsigned char *z = malloc(300 + k);
		memset(y, 0x3c, 40);
		memset(z, 0x5e, 300 + k);
		x = realloc(x, 60000);
		y = realloc(y, 4000 + k);
		z = realloc(z, 9000);
		memset(x, 0x11, 60000);
		for (size_t i = 0; i < 40; i++)
			ok &= y[i] == 0x3c;
		for (size_t i = 0; i < 300 + k; i++)
			ok &= z[i] == 0x5e;
		memset(y, 0x22, 4000 + k);
		memset(z, 0x33, 9000);
		for (size_t i = 0; i < 60000; i++)
			ok &= x[i] == 0x11;
		free(x);
		free(y);
		free(z);
	}
	verdict("realloc: blocks grown in place or moved stay apart", ok);
}

/* two threads at once: the lock keeps each block to one owner */
static void *
churn(void *arg)
{
	uintptr_t tag = (uintptr_t)arg, bad = 0;
	unsigned char *p[64] = { 0 };

	for (int r = 0; r < 20000; r++) {
		int i = r % 64;
		size_t n = (size_t)(r * 37 % 1000) + 1;
		if (p[i] != NULL) {
			size_t was = (size_t)((r - 64) * 37 % 1000) + 1;
			for (size_t k = 0; k < was; k++)
				bad |= p[i][k] != (unsigned char)tag;
			free(p[i]);
		}
		p[i] = malloc(n);
		memset(p[i], (int)tag, n);
	}
	for (int i = 0; i < 64; i++)
		free(p[i]);
	return (void *)bad;
}

static void
test_threads(void)
{
	pthread_t t;
	void *r1 = (void *)1, *r2;

	if (pthread_create(&t, NULL, churn, (void *)0x5a) != 0) {
		verdict("malloc: two threads at once", 0);
		return;
	}
	r2 = churn((void *)0xa5);
	pthread_join(t, &r1);
	verdict("malloc: two threads at once", r1 == NULL && r2 == NULL);
}

/*
 * Run first, on a fresh chunk: the last block cut grows in place, and the
 * next block is cut after it.  (Later, free lists full from the other
 * tests hand out blocks that are not the last cut.)
 */
static void
test_grow_in_place(void)
{
	unsigned char *x = malloc(100), *y, *w;
	int ok;

	memset(x, 0x44, 100);
	y = realloc(x, 50000);
	ok = y == x;
	w = malloc(100);
	ok &= w >= y + 50000;
	memset(w, 0x55, 100);
	memset(y + 100, 0x66, 50000 - 100);
	for (size_t i = 0; i < 100; i++)
		ok &= y[i] == 0x44 && w[i] == 0x55;
	free(w);
	free(y);
	verdict("realloc: the last block cut grows in place, the next is cut past it", ok);
}

int
main(void)
{
	test_grow_in_place();
	test_memcpy();
	test_overlap();
	test_memchr();
	test_memcmp();
	test_malloc();
	test_realloc();
	test_threads();
	say("done\n");
	return failed;
}
