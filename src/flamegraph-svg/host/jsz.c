/*
 * jsz: the flame graph's script (flame_js.h), deflated and encoded (b91.h)
 * once at build time for pack.h, so that a run packs only its graph's
 * data.  Built and run on the build host (HOSTCC, with the host's zlib):
 * it writes text, which is the same whatever processor the program is
 * built for.
 *
 *   jsz > flame_jsz.h
 *
 * What it writes is a raw deflate stream's tail, as two texts (pack.h),
 * to follow the data's blocks (ended on a byte by a sync flush, as pack.c
 * ends them): a NUL
 * (the loader's separator) and the script's body, the parts svg.c takes
 * (jsparts.h).  The head, the parts every graph takes before the optional
 * ones, ends in a sync flush too; then, for each of the 2^n sets of the n
 * optional parts (bit i: part FLAME_JS_OPT_FIRST + i is in), the rest of
 * the body, deflated with the head as its dictionary: the window the
 * reader has there.  So the script costs 20 bytes more than deflated
 * whole (its head's flush), where a stream a set (each set's whole
 * script) would have made the program 330 kB larger, this 90.
 *
 * Deflated at level 9: it is done once.  The head does not refer to the
 * data, which differs each run, at some cost: the data's names and the
 * script share few strings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "flame_js.h"
#include "../b91.h"
#include "../jsparts.h"

enum { NOPT = FLAME_JS_OPT_LAST - FLAME_JS_OPT_FIRST + 1 };

static void
fail(const char *what)
{
	fprintf(stderr, "jsz: %s\n", what);
	exit(1);
}

/* s[0..n) deflated raw (window 15), after dict[0..dn) if dn, as flush ends it. */
static unsigned char *
deflate_part(const char *dict, size_t dn, const char *s, size_t n, int flush,
    size_t *zn)
{
	z_stream z;
	uLong cap;
	unsigned char *out;

	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		fail("deflateInit2 failed");
	if (dn && deflateSetDictionary(&z, (const Bytef *)dict, (uInt)dn) != Z_OK)
		fail("deflateSetDictionary failed");
	cap = deflateBound(&z, (uLong)n) + 16;
	if (!(out = malloc(cap)))
		fail("out of memory");
	z.next_in = (Bytef *)(uintptr_t)s;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, flush) != (flush == Z_FINISH ? Z_STREAM_END : Z_OK) ||
	    z.avail_in != 0)
		fail("deflate failed");
	*zn = z.total_out;
	deflateEnd(&z);
	return out;
}

/* Append s to the buffer b[0..*n). */
static char *
append(char *b, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (!(b = realloc(b, *n + k + 1)))
		fail("out of memory");
	memcpy(b + *n, s, k);
	*n += k;
	return b;
}

/*
 * z[0..n) encoded, as the lines of a C string literal: '"', '\\' and '?'
 * (no trigraph) escaped.  Returns the text's length.
 */
static size_t
put_text(const unsigned char *z, size_t n)
{
	char *s = malloc(B91_MAX(n) + 1);
	size_t k, i;

	if (!s)
		fail("out of memory");
	k = b91_encode(z, n, s);
	for (i = 0; i < k; i++) {
		if (i % 64 == 0)
			printf("%s\n\t\"", i ? "\"" : "");
		if (s[i] == '"' || s[i] == '\\' || s[i] == '?')
			putchar('\\');
		putchar(s[i]);
	}
	printf("\"");
	free(s);
	return k;
}

int
main(void)
{
	char *head = NULL, *tail;
	size_t hn = 1, tn, zn, at[(1u << NOPT) + 1] = { 0 };
	unsigned char *z;
	unsigned set, p;

	/* "" is no part: the NUL itself */
	if (!(head = malloc(1)))
		fail("out of memory");
	head[0] = '\0';
	for (p = 0; p < FLAME_JS_OPT_FIRST; p++)
		head = append(head, &hn, flame_js_part[p]);
	z = deflate_part(NULL, 0, head, hn, Z_SYNC_FLUSH, &zn);
	printf("/* made by jsz (host/jsz.c) from flame_js.h: see there */\n");
	printf("static const char flame_jsz_head[] =");
	put_text(z, zn);
	printf(";\n");
	free(z);
	printf("static const char flame_jsz_tails[] =");
	for (set = 0; set < 1u << NOPT; set++) {
		tail = NULL;
		tn = 0;
		for (p = FLAME_JS_OPT_FIRST; p < flame_js_nparts; p++)
			if (p > FLAME_JS_OPT_LAST ||
			    (set >> (p - FLAME_JS_OPT_FIRST) & 1))
				tail = append(tail, &tn, flame_js_part[p]);
		z = deflate_part(head, hn, tail, tn, Z_FINISH, &zn);
		at[set + 1] = at[set] + put_text(z, zn);
		free(z);
		free(tail);
	}
	printf(";\n");
	/* where each set's tail starts, and the end */
	printf("static const unsigned flame_jsz_at[] = {");
	for (set = 0; set <= 1u << NOPT; set++)
		printf("%s%zu,", set % 10 ? " " : "\n\t", at[set]);
	printf("\n};\n");
	free(head);
	if (fflush(stdout) || ferror(stdout))
		fail("write error");
	return 0;
}
