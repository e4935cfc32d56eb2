/*
 * go: a Go CPU profile as `go tool pprof -raw` prints it
 * (stackcollapse-go.pl).
 *
 *	go tool pprof -raw -output=out.txt prog cpu.pprof
 *
 * After "Samples:", each sample line is "COUNT VALUE: LOC LOC ...", the
 * leaf's location first; after "Locations", "ID: 0xADDR [M=N ]FUNC ..."
 * names a location (continuation lines of inlined functions are passed
 * over, as in the Perl script); "Mappings" ends the part that is read.
 * A location with no name stays its number.  Samples are counted by
 * their first number.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../lib/compat.h"
#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/num.h"
#include "../lib/scan.h"
#include "formats.h"

struct gp {
	struct intern stacks;	/* location lists as text */
	uint64_t *count;
	size_t ccap;
	struct intern names;
	uint32_t *locname;	/* per location id: name id + 1, or 0 */
	size_t lcap;
};

static int
digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
contains(const char *l, size_t n, const char *s)
{
	return memmem(l, n, s, strlen(s)) != NULL;
}

/*
 * The end of the run of digits (and blanks, with blanks set) from l[i]:
 * a sample's location ids, dozens of bytes on each of millions of lines,
 * and its value, so with SSE2 (every x86-64) sixteen bytes are tested at
 * a time.  The last part of a line shorter than sixteen is tested as the
 * sixteen bytes that end the line, less those already passed.
 */
static size_t
digits_end(const char *l, size_t i, size_t n, int blanks)
{
#ifdef __SSE2__
	const __m128i lo = _mm_set1_epi8('0' - 1), hi = _mm_set1_epi8('9' + 1),
	    sp = _mm_set1_epi8(blanks ? ' ' : '0');
	size_t at;

	if (n < 16)
		goto bytes;
	for (;;) {
		__m128i x;
		unsigned bad;

		at = n - i >= 16 ? i : n - 16;
		x = _mm_loadu_si128((const __m128i *)(const void *)(l + at));
		bad = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_and_si128(
		    _mm_cmpgt_epi8(x, lo), _mm_cmplt_epi8(x, hi)),
		    _mm_cmpeq_epi8(x, sp))) & 0xffffu;
		bad >>= i - at;
		if (bad)
			return i + (size_t)__builtin_ctz(bad);
		if (at + 16 >= n)
			return n;
		i += 16;
	}
bytes:
#endif
	while (i < n && (digit(l[i]) || (blanks && l[i] == ' ')))
		i++;
	return i;
}

/*
 * /^\s*([0-9]+)\s*[0-9]+: ([0-9 ]+)/: 1 a sample, 0 not one, -1 a count
 * or a stack's sum of counts that does not fit in 64 bits.
 */
static int
sample_line(struct gp *g, const char *l, size_t n)
{
	size_t i, d, s;
	uint64_t c;
	uint32_t id;
	int isnew;

	d = (size_t)(scan_skip(l, l + n, ' ', '\t') - l);
	for (i = d; i < n && digit(l[i]); i++)
		;
	if (i == d)
		return 0;
	if (i < n && l[i] == ':') {
		/* No blank between: the regex gives the value the last digit. */
		if (i - d < 2)
			return 0;
		if (num_parse_u64(l + d, i - 1 - d, &c) < 0)
			return -1;
	} else {
		if (num_parse_u64(l + d, i - d, &c) < 0)
			return -1;
		i = (size_t)(scan_skip(l + i, l + n, ' ', '\t') - l);
		d = i;
		i = digits_end(l, i, n, 0);
		if (i == d)
			return 0;
	}
	if (n - i < 3 || l[i] != ':' || l[i + 1] != ' ' ||
	    (!digit(l[i + 2]) && l[i + 2] != ' '))
		return 0;
	s = i + 2;
	i = digits_end(l, s, n, 1);
	id = intern_put(&g->stacks, l + s, i - s, &isnew);
	if (isnew) {
		g->count = xgrow(g->count, &g->ccap, id + 1, sizeof *g->count);
		g->count[id] = 0;
	}
	return count_add_u64(&g->count[id], c) < 0 ? -1 : 1;
}

/* /^\s*([0-9]*): 0x[0-9a-f]+ (M=[0-9]+ )?([^ ]+) .*<dollar>/ */
static void
location_line(struct gp *g, const char *l, size_t n)
{
	size_t i = 0, d;
	uint64_t id = 0;
	const char *f;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	for (d = i; i < n && digit(l[i]); i++)
		if (id < UINT32_MAX)
			id = id * 10 + (uint64_t)(l[i] - '0');
	if (n - i < 5 || memcmp(l + i, ": 0x", 4) != 0 || id >= UINT32_MAX - 1)
		return;
	for (i += 4, d = i; i < n && (digit(l[i]) || (l[i] >= 'a' && l[i] <= 'f'));
	    i++)
		;
	if (i == d || i >= n || l[i] != ' ')
		return;
	i++;
	if (n - i > 2 && l[i] == 'M' && l[i + 1] == '=') {
		size_t k = i + 2;

		while (k < n && digit(l[k]))
			k++;
		if (k > i + 2 && k < n && l[k] == ' ') {
			const char *sp = memchr(l + k + 1, ' ', n - k - 1);

			if (sp != NULL && sp > l + k + 1)
				i = k + 1;
		}
	}
	f = l + i;
	for (d = i; i < n && l[i] != ' '; i++)
		;
	if (i == d || i >= n)
		return;
	if (id >= g->lcap) {
		size_t old = g->lcap;

		g->locname = xgrow(g->locname, &g->lcap, id + 1, sizeof *g->locname);
		memset(g->locname + old, 0, (g->lcap - old) * sizeof *g->locname);
	}
	g->locname[id] = intern_put(&g->names, f, i - d, NULL) + 1;
}

/* Perl's split / /: fields between single blanks, trailing empty ones
 * dropped; each a location's name when it has one. */
static void
write_all(struct reader *r, struct gp *g, struct fstack *fs)
{
	for (uint32_t k = 0; k < intern_count(&g->stacks); k++) {
		const char *s = intern_str(&g->stacks, k);
		const char *e = s + intern_len(&g->stacks, k), *j;
		size_t n;

		while (e > s && e[-1] == ' ')
			e--;
		fs_truncate(fs, 0);
		for (;;) {
			const char *w = s;
			uint64_t id = 0;
			uint32_t nm = 0;

			while (s < e && *s != ' ')
				id = id * 10 + (uint64_t)(*s++ - '0');
			if (s > w && s - w <= 10 && id < g->lcap)
				nm = g->locname[id];
			if (nm)
				fs_push(fs, intern_str(&g->names, nm - 1),
				    intern_len(&g->names, nm - 1));
			else
				fs_push(fs, w, (size_t)(s - w));
			if (s >= e)
				break;
			s++;
		}
		j = fs_join(fs, 1, &n);
		sink_put(r->sink, j, n, g->count[k], 0);
	}
}

static int
gopprof_collapse(struct reader *r)
{
	struct gp g;
	struct fstack fs;
	const char *l;
	size_t n;
	int ret, state = 0;	/* 0 before Samples:, 1 samples, 2 locations */

	memset(&g, 0, sizeof g);
	intern_init(&g.stacks);
	intern_init(&g.names);
	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (n && l[0] == '#')
			continue;
		if (state == 0) {
			if (contains(l, n, "Samples:"))
				state = 1;
		} else if (state == 1) {
			int k = sample_line(&g, l, n);

			if (k < 0) {
				ret = rd_fail(r, "a count or a stack's sum of counts "
				    "does not fit in 64 bits");
				break;
			}
			if (k == 0 && contains(l, n, "Locations"))
				state = 2;
		} else {
			if (contains(l, n, "Mappings"))
				break;
			location_line(&g, l, n);
		}
	}
	if (ret >= 0)
		write_all(r, &g, &fs);
	intern_free(&g.stacks);
	intern_free(&g.names);
	free(g.count);
	free(g.locname);
	fs_free(&fs);
	return ret < 0 ? -1 : 0;
}

static int
gopprof_detect(const char *p, size_t n)
{
	return memmem(p, n, "\nSamples:", 9) != NULL &&
	    (memmem(p, n, "PeriodType:", 11) != NULL ||
	    memmem(p, n, "Locations", 9) != NULL);
}

const struct format gopprof_format = {
	.name = "go",
	.detect = gopprof_detect,
	.collapse = gopprof_collapse,
};
