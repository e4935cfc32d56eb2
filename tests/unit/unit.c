/*
 * Unit tests of src/lib.  Each check prints "ok NAME" or "FAIL NAME"; the
 * runner counts them.  "done" at the end shows that nothing crashed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/arena.h"
#include "lib/err.h"
#include "lib/input.h"
#include "lib/intern.h"
#include "lib/num.h"

static void
check(const char *name, int ok)
{
	printf("%s %s\n", ok ? "ok" : "FAIL", name);
}

static void
test_num(void)
{
	uint64_t v = 0;
	char buf[NUM_U64_MAX];

	check("num: parse 0", num_parse_u64("0", 1, &v) == 0 && v == 0);
	check("num: parse max", num_parse_u64("18446744073709551615", 20, &v) == 0 &&
	    v == UINT64_MAX);
	check("num: overflow", num_parse_u64("18446744073709551616", 20, &v) < 0);
	check("num: non-digit", num_parse_u64("12a", 3, &v) < 0);
	check("num: arg range", num_parse_arg("17", 1, 16, &v) < 0);
	check("num: arg empty", num_parse_arg("", 0, 16, &v) < 0);
	check("num: arg sign", num_parse_arg("-1", 0, 16, &v) < 0);
	check("num: fmt", num_fmt_u64(buf, 1234567890123ull) == 13 &&
	    memcmp(buf, "1234567890123", 13) == 0);
	check("num: fmt 0", num_fmt_u64(buf, 0) == 1 && buf[0] == '0');
	{
		/* num_fmt_fixed must round exactly as printf, ties included. */
		char a[32], b[32];
		long i, bad = 0;

		srand(7);
		for (i = 0; i < 400000; i++) {
			double x = i % 2 ? (rand() % 400000) * 0.005 - 100 :
			    (double)rand() / RAND_MAX * 5000;
			int d = 1 + (int)(i % 4 < 2);

			num_fmt_fixed(a, x, d);
			snprintf(b, sizeof b, d == 1 ? "%.1f" : "%.2f", x);
			bad += strcmp(a, b) != 0;
		}
		check("num: fixed-point matches printf", bad == 0);
		num_fmt_fixed(a, -0.04, 1);
		check("num: fixed-point keeps -0.0", strcmp(a, "-0.0") == 0);
	}
}

static void
test_arena(void)
{
	struct arena a;
	char *p, *big;
	int ok = 1, i;

	arena_init(&a);
	for (i = 0; i < 100000; i++) {
		p = arena_alloc(&a, (size_t)(i % 37) + 1);
		if ((uintptr_t)p % 8)
			ok = 0;
		memset(p, 'x', (size_t)(i % 37) + 1);
	}
	check("arena: aligned small allocations", ok);
	big = arena_alloc(&a, 3 * ARENA_BLOCK);
	memset(big, 1, 3 * ARENA_BLOCK);
	p = arena_strndup(&a, "abc\0def", 7);
	check("arena: strndup keeps NUL bytes", memcmp(p, "abc\0def", 8) == 0);
	arena_free(&a);
	check("arena: free resets", a.head == NULL && a.total == 0);
}

static void
test_intern(void)
{
	struct intern t;
	char key[32];
	uint32_t id;
	int isnew, ok = 1, i;

	intern_init(&t);
	for (i = 0; i < 200000; i++) {
		int n = snprintf(key, sizeof key, "frame%d", i);

		id = intern_put(&t, key, (size_t)n, &isnew);
		if (id != (uint32_t)i || !isnew)
			ok = 0;
	}
	check("intern: dense ids in insertion order", ok);
	for (i = 0; i < 200000; i += 7) {
		int n = snprintf(key, sizeof key, "frame%d", i);

		id = intern_put(&t, key, (size_t)n, &isnew);
		if (id != (uint32_t)i || isnew)
			ok = 0;
	}
	check("intern: finds existing keys after growth", ok);
	check("intern: count", intern_count(&t) == 200000);
	id = intern_put(&t, "a\0b", 3, &isnew);
	check("intern: NUL inside key is a different key",
	    isnew && intern_put(&t, "a\0c", 3, NULL) != id);
	check("intern: empty key", intern_len(&t, intern_put(&t, "", 0, NULL)) == 0);
	check("intern: str is NUL-terminated copy",
	    strcmp(intern_str(&t, 5), "frame5") == 0);
	intern_free(&t);
}

static void
test_quote(void)
{
	char buf[4 * 16 + 8];

	check("quote: control bytes", strcmp(err_quote(buf, "a\tb\"\x01", 5, 16),
	    "\"a\\x09b\\\"\\x01\"") == 0);
	check("quote: cut", strcmp(err_quote(buf, "abcdefgh", 8, 4),
	    "\"abcd\"...") == 0);
}

/* Read every block of path; check each ends at boundary but the last. */
static int
blocks(const char *path, const char *boundary, size_t *total, int *nblocks)
{
	struct input in;
	const char *p;
	size_t n;
	int atb, r, ok = 1;

	*total = 0;
	*nblocks = 0;
	if (input_open(&in, path, boundary) < 0)
		return 0;
	while ((r = input_next(&in, &p, &n, &atb)) > 0) {
		if (atb && (n < strlen(boundary) ||
		    memcmp(p + n - strlen(boundary), boundary, strlen(boundary))))
			ok = 0;
		*total += n;
		(*nblocks)++;
	}
	input_close(&in);
	return ok && r == 0;
}

static void
test_input(void)
{
	char path[] = "/tmp/ft-unit-XXXXXX", cmd[256];
	size_t total, i;
	int fd, nb;
	FILE *f;

	fd = mkstemp(path);
	f = fdopen(fd, "w");
	/* 20 MiB of samples: several windows when read through a pipe. */
	for (i = 0; i < 400000; i++)
		fprintf(f, "prog %zu 1.0: cpu-clock:\n\tabc f (m)\n\n", i);
	fputs("tail without newline", f);
	fclose(f);
	check("input: mapped file in blocks at boundaries",
	    blocks(path, "\n\n", &total, &nb) && nb == 2);
	snprintf(cmd, sizeof cmd, "gzip -c %s > %s.gz", path, path);
	if (system(cmd) == 0) {
		size_t gztotal;
		int gznb;

		snprintf(cmd, sizeof cmd, "%s.gz", path);
		if (input_has_zlib())
			check("input: gzip gives the same bytes",
			    blocks(cmd, "\n\n", &gztotal, &gznb) &&
			    gztotal == total && gznb > 2);
		else
			check("input: gzip refused without zlib",
			    !blocks(cmd, "\n\n", &gztotal, &gznb));
		unlink(cmd);
	}
	unlink(path);
	check("input: missing file fails", !blocks("/nonexistent/x", "\n", &total,
	    &nb));
}

int
main(int argc, char **argv)
{
	(void)argc;
	err_init(argv[0]);
	test_num();
	test_arena();
	test_intern();
	test_quote();
	test_input();
	puts("done");
	return 0;
}
