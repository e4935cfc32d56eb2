/*
 * Unit tests of src/lib.  Each check prints "ok NAME" or "FAIL NAME"; the
 * runner counts them.  "done" at the end shows that nothing crashed.
 */
#include <sys/mman.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/arena.h"
#include "lib/busguard.h"
#include "lib/compat.h"
#include "lib/count.h"
#include "lib/demangle.h"
#include "lib/err.h"
#include "lib/folded.h"
#include "lib/idindex.h"
#include "lib/input.h"
#include "lib/intern.h"
#include "lib/json.h"
#include "lib/jsonesc.h"
#include "lib/num.h"
#include "lib/out.h"
#include "lib/protobuf.h"
#include "lib/scan.h"
#include "lib/sort.h"
#include "lib/spans.h"
#include "lib/strsort.h"
#include "lib/xmlesc.h"

static void
check(const char *name, int ok)
{
	printf("%s %s\n", ok ? "ok" : "FAIL", name);
}

/* compat's fallbacks against a byte-by-byte model, where they serve. */
static void
test_compat(void)
{
	const char *h = "abcabcabd\0abd";
	size_t n = 13, i, j, bad = 0;

	check("compat: memmem first", ft_memmem(h, n, "abc", 3) == h);
	check("compat: memmem later", ft_memmem(h, n, "abd", 3) == h + 6);
	check("compat: memmem past NUL", ft_memmem(h + 7, n - 7, "abd", 3) == h + 10);
	check("compat: memmem at end", ft_memmem(h, n, "bd", 2) == h + 7);
	check("compat: memmem none", ft_memmem(h, n, "abe", 3) == NULL);
	check("compat: memmem longer", ft_memmem(h, 2, "abc", 3) == NULL);
	check("compat: memmem empty", ft_memmem(h, n, "", 0) == h);
	check("compat: memrchr", ft_memrchr(h, 'a', n) == h + 10);
	check("compat: memrchr NUL", ft_memrchr(h, 0, n) == h + 9);
	check("compat: memrchr none", ft_memrchr(h, 'z', n) == NULL);
	check("compat: memrchr empty", ft_memrchr(h, 'a', 0) == NULL);
	for (i = 0; i <= n; i++)
		for (j = 1; j <= 3 && i + j <= n; j++) {
			const char *want = NULL, *p;

			for (p = h; p + j <= h + n; p++)
				if (memcmp(p, h + i, j) == 0) {
					want = p;
					break;
				}
			bad += ft_memmem(h, n, h + i, j) != want;
		}
	check("compat: memmem every needle of the haystack", bad == 0);
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

/* count_parse then count_fmt: the text written back, or "ERR n". */
static const char *
count_round(const char *s, char buf[COUNT_TEXT_MAX])
{
	struct count c;
	int r = count_parse(s, strlen(s), &c);

	if (r != 0) {
		snprintf(buf, COUNT_TEXT_MAX, "ERR %d", r);
		return buf;
	}
	buf[count_fmt(buf, &c)] = '\0';
	return buf;
}

static void
test_count(void)
{
	char b[COUNT_TEXT_MAX];
	struct count a, c;

	check("count: max", strcmp(count_round("18446744073709551615", b),
	    "18446744073709551615") == 0);
	check("count: 2^64", strcmp(count_round("18446744073709551616", b),
	    "ERR -2") == 0);
	check("count: 401 digits", strcmp(count_round("1000000000000000000000"
	    "0000000000000000000000000000000000000000000000000000000000000000", b),
	    "ERR -2") == 0);
	check("count: widest", strcmp(count_round("18446744073709551615."
	    "999999999999999999", b), "18446744073709551615.999999999999999999") == 0);
	check("count: trailing zeros", strcmp(count_round("007.2500000000000000000000",
	    b), "7.25") == 0);
	check("count: 19th decimal cut", strcmp(count_round("0.1234567890123456789",
	    b), "ERR 1") == 0);
	check("count: no digits after the point", strcmp(count_round("5.", b),
	    "5") == 0);
	check("count: not a count", strcmp(count_round(".5", b), "ERR -1") == 0 &&
	    strcmp(count_round("1e5", b), "ERR -1") == 0 &&
	    strcmp(count_round("", b), "ERR -1") == 0 &&
	    strcmp(count_round("1.2.3", b), "ERR -1") == 0);
	count_parse("0.1", 3, &a);
	count_parse("0.2", 3, &c);
	check("count: 0.1 + 0.2", count_add(&a, &c) == 0 &&
	    (b[count_fmt(b, &a)] = '\0', strcmp(b, "0.3") == 0));
	count_parse("18446744073709551614.5", 22, &a);
	count_parse("0.5", 3, &c);
	check("count: carry to the max", count_add(&a, &c) == 0 &&
	    a.whole == UINT64_MAX && a.frac == 0);
	check("count: past the max", count_add(&a, &c) == 0 &&
	    count_add(&a, &c) < 0 && a.whole == UINT64_MAX &&
	    a.frac == COUNT_ONE / 2);
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

/* Parse text (through a pipe, so in small reads) and list its tokens. */
static int
tokens(const char *text, char *out, size_t cap)
{
	char path[] = "/tmp/ft-json-XXXXXX";
	int fd = mkstemp(path), ret = 0;
	struct input in;
	struct json j;
	enum json_tok t;
	size_t at = 0;

	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = -1;
	close(fd);
	if (ret < 0 || input_open(&in, path, "\n") < 0) {
		unlink(path);
		return -1;
	}
	json_init(&j, &in);
	out[0] = '\0';
	do {
		static const char *const name[] = { "END", "{", "}", "[", "]", "K",
		    "S", "N", "T", "F", "null", "ERR" };

		t = json_next(&j);
		at += (size_t)snprintf(out + at, cap - at, "%s%s%s ", name[t],
		    t == JSON_KEY || t == JSON_STR || t == JSON_NUM ? ":" : "",
		    t == JSON_KEY || t == JSON_STR || t == JSON_NUM ? j.s : "");
	} while (t != JSON_END && t != JSON_ERR && at < cap - 64);
	if (t == JSON_ERR)
		snprintf(out + at, cap - at, "(%s at %llu)", j.err,
		    (unsigned long long)j.erroff);
	json_free(&j);
	input_close(&in);
	unlink(path);
	return 0;
}

static void
test_json(void)
{
	char b[512];
	int64_t v;
	uint64_t u;

	tokens("{\"a\": [1, -2.5e3, \"x\\u00e9\\ud83d\\ude00\\n\"], \"b\": {}, "
	    "\"c\": [true, false, null]}", b, sizeof b);
	check("json: tokens", strcmp(b, "{ K:a [ N:1 N:-2.5e3 S:x\xc3\xa9\xf0\x9f\x98"
	    "\x80\n ] K:b { } K:c [ T F null ] } END ") == 0);
	tokens("[1, 2", b, sizeof b);
	check("json: truncated", strstr(b, "(unexpected end of input at 5)") != NULL);
	tokens("[1 2]", b, sizeof b);
	check("json: missing comma", strstr(b, "(expected ',' or ']' at 3)") != NULL);
	tokens("{\"a\" 1}", b, sizeof b);
	check("json: missing colon", strstr(b, "(expected ':' after a key") != NULL);
	tokens("[1]]", b, sizeof b);
	check("json: text after", strstr(b, "(text after the JSON value") != NULL);
	tokens("{\"a\": [}", b, sizeof b);
	check("json: mismatched", strstr(b, "ERR") != NULL);
	tokens("\"\\ud800x\"", b, sizeof b);
	check("json: lone surrogate", strcmp(b, "S:\xef\xbf\xbdx END ") == 0);
	check("json: scaled us to ns", json_scaled("1234.5675", 9, 3, &v) == 0 &&
	    v == 1234568);
	check("json: scaled exponent", json_scaled("1.0065e3", 8, 3, &v) == 0 &&
	    v == 1006500);
	check("json: scaled negative", json_scaled("-0.0005", 7, 3, &v) == 0 &&
	    v == -1);
	check("json: scaled tiny", json_scaled("1e-30", 5, 3, &v) == 0 && v == 0);
	check("json: scaled overflow", json_scaled("9223372036854775.808", 20, 3,
	    &v) < 0);
	check("json: scaled int64 max", json_scaled("9223372036854775807", 19, 0,
	    &v) == 0 && v == INT64_MAX);
	check("json: u64 max", json_u64("18446744073709551615", 20, &u) == 0 &&
	    u == UINT64_MAX);
	check("json: u64 beyond 2^53 exact", json_u64("9007199254740993", 16, &u) == 0 &&
	    u == 9007199254740993ULL);
	check("json: u64 rejects fraction", json_u64("1.5", 3, &u) < 0);
	check("json: u64 rejects negative", json_u64("-1", 2, &u) < 0);
	check("json: u64 overflow", json_u64("18446744073709551616", 20, &u) < 0);
}

/*
 * Issue 22 (hardening), h2's block: the intern probe length, input that
 * shrinks while mapped, the line cap.
 */

/* The longest and the total distance of an entry from its home slot. */
static void
probe_lengths(const struct intern *t, size_t *max, size_t *total)
{
	size_t j, d;

	*max = *total = 0;
	for (j = 0; j <= t->mask; j++) {
		if (t->slots[j] == 0)
			continue;
		d = (j - (t->ents[t->slots[j] - 1].hash & t->mask)) & t->mask;
		*total += d;
		if (d > *max)
			*max = d;
	}
}

/*
 * Short keys with a common prefix (fn_0 .. fn_4999) must spread over the
 * slots: when the hash of a 1- to 7-byte key came from its first bytes
 * they shared a few home slots and probing went quadratic.
 */
static void
test_intern_probes(void)
{
	static const char *const prefix[] = { "fn_", "", "f_", "function_",
	    "a_long_common_prefix_" };
	struct intern t;
	char key[64], name[96];
	size_t i, k, max, total;

	for (k = 0; k < sizeof prefix / sizeof *prefix; k++) {
		intern_init(&t);
		for (i = 0; i < 50000; i++) {
			int n = snprintf(key, sizeof key, "%s%d", prefix[k],
			    (int)i);

			intern_put(&t, key, (size_t)n, NULL);
		}
		probe_lengths(&t, &max, &total);
		snprintf(name, sizeof name, "intern: \"%sN\" keys probe few slots "
		    "(max %zu, mean %.2f)", prefix[k], max,
		    (double)total / (double)intern_count(&t));
		check(name, max < 64 && total < 2 * intern_count(&t));
		intern_free(&t);
	}
}

/* Write n copies of "main;work 1\n" to fd from its start. */
static int
fill_lines(int fd, int n)
{
	static const char line[] = "main;work 1\n";

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (write(fd, line, sizeof line - 1) != (ssize_t)(sizeof line - 1))
			return -1;
	return 0;
}

/*
 * A mapped file that shrinks while it is read (a log rotated): the bytes
 * past its new end read as zeros instead of raising SIGBUS, and the next
 * input_next is an error that says so, whether the shrink came while the
 * caller held a block or before input_next scanned the window.
 */
static void
test_input_shrink(void)
{
	char path[] = "/tmp/ft-unit-XXXXXX", errpath[] = "/tmp/ft-unit-XXXXXX";
	char msg[512];
	struct input in;
	const char *p;
	size_t n;
	int fd = mkstemp(path), efd = mkstemp(errpath), saved = dup(2);
	int atb, r1, r2 = 0, r3 = 0, mapped;
	volatile char last = 'x';
	ssize_t got;

	fflush(stderr);
	dup2(efd, 2);
	/* 48 KiB: twelve pages, one block. */
	mapped = fill_lines(fd, 4096) == 0 && input_open(&in, path, "\n") == 0 &&
	    in.map != NULL;
	if (mapped) {
		r1 = input_next(&in, &p, &n, &atb);
		if (r1 == 1 && ftruncate(fd, 4096) == 0)
			last = p[n - 1];
		r2 = input_next(&in, &p, &n, &atb);
		input_close(&in);
		if (fill_lines(fd, 4096) == 0 &&
		    input_open(&in, path, "\n") == 0) {
			if (ftruncate(fd, 100) == 0)
				r3 = input_next(&in, &p, &n, &atb);
			input_close(&in);
		}
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	got = pread(efd, msg, sizeof msg - 1, 0);
	msg[got > 0 ? got : 0] = '\0';
	check("input: a small file is mapped", mapped);
	check("input: a page lost to a shrink reads as zeros", last == 0);
	check("input: the shrink is reported at the next block", r2 == -1);
	check("input: a shrink before the scan is reported", r3 == -1);
	check("input: the shrink message names the file", strstr(msg,
	    ": the file shrank while it was read\n") != NULL &&
	    strstr(msg, path) != NULL);
	close(fd);
	close(efd);
	unlink(path);
	unlink(errpath);
}

/*
 * busguard beyond its first block of slots (trace-record's report keeps
 * some mappings per library): a hundred mappings of one file, which then
 * shrinks; a lost page of the last reads as zeros and only that mapping
 * is hit.
 */
static void
test_busguard_many(void)
{
	char path[] = "/tmp/ft-unit-XXXXXX";
	int fd = mkstemp(path), h[100], all = 1;
	char *m[100];
	volatile char last = 'x';
	size_t len = 8192;

	for (int i = 0; i < 100; i++) {
		m[i] = NULL;
		h[i] = -1;
	}
	if (fd >= 0 && fill_lines(fd, 2048) == 0)
		for (int i = 0; i < 100; i++) {
			void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);

			if (p == MAP_FAILED || (h[i] = busguard_add(p, len)) < 0) {
				all = 0;
				break;
			}
			m[i] = p;
		}
	if (all && ftruncate(fd, 100) == 0)
		last = m[99][len - 1];
	check("busguard: a hundred mappings guarded", all);
	check("busguard: a lost page of the hundredth reads as zeros", last == 0);
	check("busguard: that mapping is hit, not the first",
	    busguard_hit(h[99]) && !busguard_hit(h[0]));
	for (int i = 0; i < 100 && m[i]; i++) {
		busguard_remove(h[i]);
		munmap(m[i], len);
	}
	close(fd);
	unlink(path);
}

/* Numbers of any length: skipped whole, converted exactly. */
static void
test_json_long(void)
{
	size_t n = 10000002, big = 20000;
	char *t = malloc(n + 16), *b = malloc(big), *e = malloc(big);
	int64_t v;

	/* A 5,000-digit number where a reader skips it. */
	memcpy(t, "{\"a\": 1", 7);
	memset(t + 7, '0', 5000);
	strcpy(t + 5007, ", \"b\": 2}");
	tokens(t, b, big);
	memcpy(e, "{ K:a N:1", 9);
	memset(e + 9, '0', 5000);
	strcpy(e + 5009, " K:b N:2 } END ");
	check("json: 5,000-digit number", strcmp(b, e) == 0);
	/* 10^7 zeros, and an exponent of 8 digits to take them back. */
	t[0] = '1';
	memset(t + 1, '0', n - 2);
	strcpy(t + n - 1, "e-10000000");
	check("json: scaled long number exactly", json_scaled(t, strlen(t), 3,
	    &v) == 0 && v == 1000);
	free(t);
	free(b);
	free(e);
}

/*
 * A surrogate pair cut by the end of a mapped window (INPUT_MAPWIN) at
 * each of its bytes decodes as one code point, as it does uncut.  The
 * file is sparse: its first window is NULs inside a string (raw control
 * bytes are taken), so it costs no disk.
 */
static void
test_json_split(void)
{
	static const char pair[] = "\\ud83d\\ude00\"]";
	int ok = 1;

	for (size_t cut = 1; cut < 12; cut++) {
		char path[] = "/tmp/ft-json-XXXXXX";
		int fd = mkstemp(path);
		off_t at = (off_t)INPUT_MAPWIN - (off_t)cut;
		struct input in;
		struct json j;

		if (fd < 0 || write(fd, "[\"", 2) != 2 ||
		    pwrite(fd, pair, sizeof pair - 1, at) != (ssize_t)sizeof pair - 1 ||
		    close(fd) < 0 || input_open(&in, path, "\n") < 0) {
			ok = 0;
			unlink(path);
			continue;
		}
		json_init(&j, &in);
		if (json_next(&j) != JSON_ARR || json_next(&j) != JSON_STR ||
		    j.n != (size_t)at - 2 + 4 ||
		    memcmp(j.s + j.n - 4, "\xf0\x9f\x98\x80", 4) != 0 ||
		    json_next(&j) != JSON_ARR_END || json_next(&j) != JSON_END)
			ok = 0;
		json_free(&j);
		input_close(&in);
		unlink(path);
	}
	check("json: surrogate pair cut between blocks", ok);
}

static void
test_spanrange(void)
{
	check("spanrange: 0 to 2^62", span_range_check(0, 1ull << 62) == SPAN_IN_RANGE);
	check("spanrange: -2^62 to 0", span_range_check(SPAN_TIME_MIN,
	    1ull << 62) == SPAN_IN_RANGE);
	check("spanrange: -2^62 to 2^62", span_range_check(SPAN_TIME_MIN,
	    1ull << 63) == SPAN_TOO_LONG);
	check("spanrange: end 2^62 + 1", span_range_check(1, 1ull << 62) ==
	    SPAN_END_OUT);
	check("spanrange: 0 for 2^64-1 ns", span_range_check(0, UINT64_MAX) ==
	    SPAN_END_OUT);
	check("spanrange: start -2^62 - 1", span_range_check(SPAN_TIME_MIN - 1, 0) ==
	    SPAN_START_OUT);
	check("spanrange: start -2^63", span_range_check(INT64_MIN, 0) ==
	    SPAN_START_OUT);
	check("spanrange: start 2^63 - 1", span_range_check(INT64_MAX, 0) ==
	    SPAN_START_OUT);
}

/* ---- folded.c: parsing a line, frames, aggregation, writing ---- */

/* folded_parse on s; "STACK|C|C1|has2|cut" or "-1" / "-2". */
static const char *
parsed(const char *s, char *buf)
{
	struct folded f;
	char c[COUNT_TEXT_MAX + 1], c1[COUNT_TEXT_MAX + 1];
	int r = folded_parse(s, strlen(s), 1, &f);

	if (r < 0) {
		snprintf(buf, 200, "%d", r);
		return buf;
	}
	c[count_fmt(c, &f.c)] = '\0';
	c1[0] = '\0';
	if (f.has2)
		c1[count_fmt(c1, &f.c1)] = '\0';
	snprintf(buf, 200, "%.*s|%s|%s|%d|%d", (int)f.stacklen, f.stack, c, c1,
	    f.has2, f.cut);
	return buf;
}

static void
test_folded_parse(void)
{
	char b[200];
	struct folded f;

	check("folded_parse: stack and count", strcmp(parsed("a;b 12", b),
	    "a;b|12||0|0") == 0);
	check("folded_parse: blanks stay in the last frame but one",
	    strcmp(parsed("a;b  x  3", b), "a;b  x |3||0|0") == 0);
	check("folded_parse: tab before the count", strcmp(parsed("a\t3", b),
	    "a|3||0|0") == 0);
	check("folded_parse: CR ignored", strcmp(parsed("a 3\r", b),
	    "a|3||0|0") == 0);
	check("folded_parse: fraction", strcmp(parsed("a 1.50", b),
	    "a|1.5||0|0") == 0);
	check("folded_parse: '5.' is 5", strcmp(parsed("a 5.", b), "a|5||0|0") == 0);
	check("folded_parse: two counts", strcmp(parsed("a;b 1 2", b),
	    "a;b|2|1|1|0") == 0);
	check("folded_parse: before count '1.'", strcmp(parsed("a;b 1. 2", b),
	    "a;b|2|1|1|0") == 0);
	check("folded_parse: empty stack", strcmp(parsed(" 7", b), "|7||0|0") == 0);
	check("folded_parse: no blank", strcmp(parsed("a7", b), "-1") == 0);
	check("folded_parse: no count", strcmp(parsed("a b", b), "-1") == 0);
	check("folded_parse: only a count", strcmp(parsed("7", b), "-1") == 0);
	check("folded_parse: '.5' is no count", strcmp(parsed("a .5", b), "-1") == 0);
	check("folded_parse: 2^64 - 1", strcmp(parsed("a 18446744073709551615", b),
	    "a|18446744073709551615||0|0") == 0);
	check("folded_parse: 2^64", strcmp(parsed("a 18446744073709551616", b),
	    "-2") == 0);
	check("folded_parse: before count 2^64", strcmp(parsed(
	    "a 18446744073709551616 1", b), "-2") == 0);
	check("folded_parse: 19 decimals cut", strcmp(parsed(
	    "a 0.1000000000000000001", b), "a|0.1||0|1") == 0);
	check("folded_parse: layout value of a fraction is Perl's double",
	    folded_parse("a 0.1", 5, 1, &f) == 0 && f.count == (long double)0.1);
	check("folded_parse: one count looked for, a name ending in a number",
	    folded_parse("a;handler 12 5", 14, 0, &f) == 0 && !f.has2 &&
	    f.stacklen == 12 && f.c.whole == 5);
}

static void
test_folded_frame(void)
{
	char s[64];
	const char *in = "a;b\nc\rd;;0123456789;abcdefgh\n";
	const char *want = "a:b c d::0123456789:abcdefgh ";
	int bad = 0;

	strcpy(s, in);
	folded_frame_fix(s, strlen(s));
	check("folded_frame_fix: ';' to ':', line breaks to ' '",
	    strcmp(s, want) == 0);
	/* every length and offset, against the byte rule (word and tail paths) */
	for (size_t off = 0; off < 8; off++)
		for (size_t n = 0; off + n <= strlen(in); n++) {
			strcpy(s, in);
			folded_frame_fix(s + off, n);
			for (size_t i = 0; i < strlen(in); i++)
				bad += s[i] != (i >= off && i < off + n ? want[i] : in[i]);
		}
	check("folded_frame_fix: every span, nothing outside it", bad == 0);
	memcpy(s, "\x3b\x3a\x3c\x0a\x0b\x0d\x0c\xbb", 8);	/* near misses */
	folded_frame_fix(s, 8);
	check("folded_frame_fix: only the three bytes", memcmp(s,
	    "\x3a\x3a\x3c\x20\x0b\x20\x0c\xbb", 8) == 0);
	{
		/* a name that ends as a count: its blank made '_' */
		static const char *const tails[][2] = {
			{ "handler 12", "handler_12" }, { "x\t1.5", "x_1.5" },
			{ "x 5.", "x_5." },
			{ "a name of sixteen or more 7", "a name of sixteen or more_7" },
			{ "x\n12", "x_12" }, { " 3", "_3" }, { "x .5", "x .5" },
			{ "x12", "x12" }, { "12", "12" }, { "x;12", "x:12" },
			{ "x 1.2.3", "x 1.2.3" }, { "x 12 ", "x 12 " },
		};

		bad = 0;
		for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
			strcpy(s, tails[i][0]);
			folded_frame_fix(s, strlen(s));
			bad += strcmp(s, tails[i][1]) != 0;
		}
		check("folded_frame_fix: a blank before a number at the end "
		    "to '_'", bad == 0);
	}
}

/* What f wrote on standard output through out.h, in buf (NUL-ended). */
static size_t
captured(void (*f)(void *), void *arg, char *buf, size_t cap)
{
	char path[] = "/tmp/ft-unit-outXXXXXX";
	int fd = mkstemp(path), saved;
	ssize_t n;

	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	f(arg);
	out_flush();
	dup2(saved, 1);
	close(saved);
	n = pread(fd, buf, cap - 1, 0);
	close(fd);
	unlink(path);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

static void
write_sum(void *a)
{
	folded_sum_write(a);
}

static void
write_lines(void *unused)
{
	struct count c = { 3, 0 }, c1 = { 1, 250000000000000000ull };

	(void)unused;
	folded_write("a;b", 3, &c, NULL);
	folded_write("x", 1, &c, &c1);
}

static void
test_folded_sum(void)
{
	struct folded_sum a;
	struct count one = { 1, 0 }, half = { 0, COUNT_ONE / 2 };
	struct count big = { UINT64_MAX, 0 };
	char buf[512];
	size_t n, len;
	uint32_t *ids;
	const char *order[] = { "", "a", "a0", "a;b", "b" };
	int ok = 1;

	folded_sum_init(&a);
	check("folded_sum: empty writes nothing", captured(write_sum, &a, buf,
	    sizeof buf) == 0);
	ids = folded_sum_sorted(&a);
	free(ids);
	/* "a0" sorts before "a;b" ('0' < ';'), a prefix first */
	folded_sum_add(&a, "b", 1, 0, &one);
	folded_sum_add(&a, "a0", 2, 0, &one);
	folded_sum_add(&a, "a;b", 3, 0, &half);
	folded_sum_add(&a, "a", 1, 0, &one);
	folded_sum_add(&a, "a;b", 3, 0, &half);
	folded_sum_add(&a, "a", 1, 1, &one);
	folded_sum_add(&a, "", 0, 0, &one);
	check("folded_sum: distinct stacks", folded_sum_n(&a) == 5);
	ids = folded_sum_sorted(&a);
	for (size_t i = 0; i < 5; i++) {
		const char *s = folded_sum_stack(&a, ids[i], &len);

		ok &= len == strlen(order[i]) && memcmp(s, order[i], len) == 0;
	}
	check("folded_sum: sorted bytewise, prefix first", ok);
	check("folded_sum: halves sum exactly", folded_sum_count(&a, 0,
	    ids[3])->whole == 1 && folded_sum_count(&a, 0, ids[3])->frac == 0);
	check("folded_sum: second column apart", folded_sum_count(&a, 1,
	    ids[1])->whole == 1 && folded_sum_count(&a, 1, ids[3])->whole == 0);
	free(ids);
	n = captured(write_sum, &a, buf, sizeof buf);
	check("folded_sum_write: sorted folded lines", n > 0 &&
	    strcmp(buf, " 1\na 1\na0 1\na;b 1\nb 1\n") == 0);
	check("folded_sum_add: 2^64 refused", folded_sum_add(&a, "b", 1, 0,
	    &big) == -1);
	ids = folded_sum_sorted(&a);
	check("folded_sum_add: refused sum left unchanged",
	    folded_sum_count(&a, 0, ids[4])->whole == 1);
	free(ids);
	folded_sum_set(&a, "b", 1, 0, &big);
	check("folded_sum_set: replaces", folded_sum_add(&a, "b", 1, 0, &one) == -1);
	/* many stacks: the counts grow with the table */
	for (unsigned i = 0; i < 5000; i++) {
		char k[16];

		snprintf(k, sizeof k, "s%u", i % 2500);
		folded_sum_add(&a, k, strlen(k), 0, &one);
	}
	ids = folded_sum_sorted(&a);
	ok = folded_sum_n(&a) == 2505;
	for (size_t i = 0; i + 1 < folded_sum_n(&a); i++) {
		size_t l1, l2;
		const char *s1 = folded_sum_stack(&a, ids[i], &l1);
		const char *s2 = folded_sum_stack(&a, ids[i + 1], &l2);
		int c = memcmp(s1, s2, l1 < l2 ? l1 : l2);

		ok &= c < 0 || (c == 0 && l1 < l2);
		if (s1[0] == 's')
			ok &= folded_sum_count(&a, 0, ids[i])->whole == 2;
	}
	check("folded_sum: 2505 stacks grown, sorted and summed", ok);
	free(ids);
	folded_sum_free(&a);
	captured(write_lines, NULL, buf, sizeof buf);
	check("folded_write: one and two counts", strcmp(buf,
	    "a;b 3\nx 3 1.25\n") == 0);
}
/* ---- end of folded.c ---- */

/* A small fixed generator, so that a failure repeats. */
static uint64_t
rnd(uint64_t *st)
{
	*st = *st * 6364136223846793005ull + 1442695040888963407ull;
	return *st >> 33;
}

/* Three element sizes: ids (4), pairs (8), and an odd one (12). */
struct rec12 { uint32_t key, pos, pad; };

static int
cmp_by_ctx(const void *a, const void *b, const void *ctx)
{
	const uint32_t *keys = ctx;
	uint32_t x = keys[*(const uint32_t *)a], y = keys[*(const uint32_t *)b];

	return (x > y) - (x < y);
}

static int
cmp_pair(const void *a, const void *b, const void *ctx)
{
	uint32_t x = ((const uint32_t *)a)[0], y = ((const uint32_t *)b)[0];

	(void)ctx;
	return (x > y) - (x < y);
}

static int
cmp_rec12(const void *a, const void *b, const void *ctx)
{
	const struct rec12 *x = a, *y = b;

	(void)ctx;
	return (x->key > y->key) - (x->key < y->key);
}

/*
 * sort_ctx against a model: each element remembers its position, and the
 * result must be ordered by key and, among equal keys, by position
 * (stable).  Few distinct keys make many ties; n crosses every small size
 * and a few large ones.
 */
static void
test_sort(void)
{
	static const size_t big[] = { 1000, 4097, 65536 };
	uint64_t st = 42;
	int ok4 = 1, ok8 = 1, ok12 = 1;

	for (size_t round = 0; round < 300; round++) {
		size_t n = round < 297 ? round % 99 : big[round - 297];
		uint32_t range = round % 3 == 0 ? 4 : round % 3 == 1 ? 1000 : 0xffffffffu;
		uint32_t *keys = xmalloc((n + 1) * sizeof *keys);
		uint32_t *ids = xmalloc((n + 1) * sizeof *ids);
		uint32_t *pairs = xmalloc((2 * n + 1) * sizeof *pairs);
		struct rec12 *recs = xmalloc((n + 1) * sizeof *recs);

		for (size_t i = 0; i < n; i++) {
			keys[i] = (uint32_t)(rnd(&st) % range);
			ids[i] = (uint32_t)i;
			pairs[2 * i] = keys[i];
			pairs[2 * i + 1] = (uint32_t)i;
			recs[i] = (struct rec12){ keys[i], (uint32_t)i, 0 };
		}
		sort_ctx(ids, n, sizeof *ids, cmp_by_ctx, keys);
		sort_ctx(pairs, n, 2 * sizeof *pairs, cmp_pair, NULL);
		sort_ctx(recs, n, sizeof *recs, cmp_rec12, NULL);
		for (size_t i = 1; i < n; i++) {
			uint32_t a = ids[i - 1], b = ids[i];

			ok4 &= keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
			ok8 &= pairs[2 * i - 2] < pairs[2 * i] ||
			    (pairs[2 * i - 2] == pairs[2 * i] &&
			    pairs[2 * i - 1] < pairs[2 * i + 1]);
			ok12 &= recs[i - 1].key < recs[i].key ||
			    (recs[i - 1].key == recs[i].key &&
			    recs[i - 1].pos < recs[i].pos);
		}
		/* Still a permutation: each position once. */
		for (size_t i = 0; i < n; i++)
			keys[i] = 0;
		for (size_t i = 0; i < n; i++)
			keys[ids[i]]++;
		for (size_t i = 0; i < n; i++)
			ok4 &= keys[i] == 1;
		free(keys);
		free(ids);
		free(pairs);
		free(recs);
	}
	check("sort: ids through a context, stable", ok4);
	check("sort: 8-byte elements, stable", ok8);
	check("sort: 12-byte elements, stable", ok12);
}

/* memcmp's order, a prefix first: strsort's model */
static int
model_strcmp(const struct strsort_item *a, const struct strsort_item *b)
{
	int r = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);

	return r ? r : (a->n > b->n) - (a->n < b->n);
}

/* v[0..n) sorted by the model, and still the items s[id], len[id]. */
static int
strsort_ok(const struct strsort_item *v, size_t n, char **s,
    const uint32_t *len)
{
	unsigned char *seen = xcalloc(n + 1, 1);
	int ok = 1;

	for (size_t i = 0; i < n; i++) {
		ok &= v[i].id < n && !seen[v[i].id] && v[i].s == s[v[i].id] &&
		    v[i].n == len[v[i].id];
		if (v[i].id < n)
			seen[v[i].id] = 1;
		if (i > 0)
			ok &= model_strcmp(&v[i - 1], &v[i]) <= 0;
	}
	free(seen);
	return ok;
}

/*
 * strsort against the model: strings of a few bytes that order on both
 * sides of one another (NUL, ' ', ';', 0xff), with shared prefixes of up
 * to 30 bytes, so that keys tie and go on past 8 and 16 bytes, strings
 * that end inside a key, and equal strings.  Then 60 strings in an order
 * (found by a search) whose partitions shrink slowly enough to use up
 * the budget: the merge sort takes over.
 */
static void
test_strsort(void)
{
	static const char alpha[] = { 0, ' ', ';', 'a', (char)0xff };
	static const unsigned char slow[60] = { 20, 39, 36, 51, 40, 34, 33,
	    19, 11, 50, 14, 48, 7, 49, 12, 56, 30, 3, 35, 9, 23, 58, 25, 57,
	    54, 45, 41, 17, 6, 53, 28, 21, 29, 1, 15, 16, 13, 38, 0, 46, 18,
	    59, 44, 52, 2, 55, 4, 43, 31, 32, 10, 5, 8, 24, 22, 37, 27, 42,
	    26, 47 };
	uint64_t st = 7;
	int ok = 1;

	for (size_t round = 0; round < 400; round++) {
		size_t n = round < 396 ? round % 132 : 5000 * (round - 395);
		size_t pre = round % 31, k;
		struct strsort_item *v = xmalloc((n + 1) * sizeof *v);
		char **s = xmalloc((n + 1) * sizeof *s);
		uint32_t *len = xmalloc((n + 1) * sizeof *len);

		for (size_t i = 0; i < n; i++) {
			len[i] = (uint32_t)(rnd(&st) % (pre + 12));
			s[i] = xmalloc(len[i] + 1);
			for (k = 0; k < len[i]; k++)
				s[i][k] = k < pre ? 'p' :
				    alpha[rnd(&st) % (round % 2 ? 2 : 5)];
			v[i].s = s[i];
			v[i].n = len[i];
			v[i].id = (uint32_t)i;
		}
		strsort(v, n);
		ok &= strsort_ok(v, n, s, len);
		for (size_t i = 0; i < n; i++)
			free(s[i]);
		free(v);
		free(s);
		free(len);
	}
	check("strsort: memcmp's order, a prefix first", ok);
	{
		struct strsort_item v[60];
		char b[60][9], *s[60];
		uint32_t len[60];

		for (size_t i = 0; i < 60; i++) {
			snprintf(b[i], sizeof b[i], "%08u", slow[i]);
			s[i] = b[i];
			len[i] = 8;
			v[i] = (struct strsort_item){ b[i], 8, (uint32_t)i, 0 };
		}
		strsort(v, 60);
		check("strsort: a slow order, merge sorted",
		    strsort_ok(v, 60, s, len));
	}
}

/*
 * scan.h's word-at-a-time searches against byte-by-byte models.  The
 * buffers come from a few bytes near the one searched for (c ^ 1, c ^ 0x80,
 * c +- 1, 0, 0xff: the ones a borrow or a lost high bit would confuse with
 * it), at every alignment, with matches placed at every position around
 * the 8-byte steps and random ones after them.
 */
static const char *
model_find(const char *p, const char *e, int (*hit)(unsigned char, const char *),
    const char *arg)
{
	for (; p < e; p++)
		if (hit((unsigned char)*p, arg))
			return p;
	return NULL;
}

static int
hit_byte(unsigned char b, const char *arg)
{
	return b == (unsigned char)arg[0];
}

static int
hit_pair(unsigned char b, const char *arg)
{
	return b == (unsigned char)arg[0] || b == (unsigned char)arg[1];
}

static int
miss_pair(unsigned char b, const char *arg)
{
	return !hit_pair(b, arg);
}

static const char *
model_mem(const char *p, size_t n, const char *nd, size_t k)
{
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(p + i, nd, k) == 0)
			return p + i;
	return NULL;
}

static void
test_scan(void)
{
	static const unsigned char cs[] = { ' ', '\t', ';', 0, 0x80, 0xff, 0x7f, 0x01 };
	/* Aligned storage: p = buf + align puts the 8-byte steps where wanted. */
	static uint64_t store[16];
	char *buf = (char *)store;
	uint64_t st = 7;
	int ok_byte = 1, ok_mem = 1, ok_find2 = 1, ok_skip = 1;

	for (size_t ci = 0; ci < sizeof cs; ci++) {
		unsigned char c = cs[ci], d = cs[(ci + 1) % sizeof cs];
		unsigned char near[] = { (unsigned char)(c ^ 1), (unsigned char)(c ^ 0x80),
		    (unsigned char)(c + 1), (unsigned char)(c - 1), 0, 0xff, 'a' };
		char pair[2] = { (char)c, (char)d };

		/* Every length, alignment and match position up to three words. */
		for (size_t len = 0; len <= 24; len++)
			for (size_t align = 0; align < 8; align++)
				for (size_t at = 0; at <= len; at++) {
					char *p = buf + align, *e = p + len;
					const char *want = at < len ? p + at : NULL, *m;
					size_t k = len - at > 3 ? 3 : len - at;

					for (size_t i = 0; i < len; i++) {
						unsigned char b = near[rnd(&st) % sizeof near];

						p[i] = (char)(b == c || b == d ? 'a' : b);
					}
					if (want)
						p[at] = (char)c;
					ok_byte &= scan_byte(p, e, (char)c) == want;
					ok_find2 &= scan_find2(p, e, (char)c, (char)d) == want;
					ok_mem &= scan_mem(p, len, p + at, k) ==
					    model_mem(p, len, p + at, k);
					for (size_t i = 0; i < len; i++)
						p[i] = pair[rnd(&st) % 2];
					if (want)
						p[at] = 'a';
					m = model_find(p, e, miss_pair, pair);
					ok_skip &= scan_skip(p, e, (char)c, (char)d) == p + at &&
					    (m ? m : e) == p + at;
				}
		for (size_t round = 0; round < 4000; round++) {
			size_t align = round % 8, len = rnd(&st) % 41;
			char *p = buf + align, *e;
			char nd[5];
			size_t k;

			for (size_t i = 0; i < len; i++) {
				unsigned char b = near[rnd(&st) % sizeof near];

				p[i] = (char)(b == c || b == d ? 'a' : b);
			}
			/* One match at each position in turn, more at random. */
			if (round % 3 != 2 && len > 0)
				p[round / 8 % len] = (char)c;
			if (round % 5 == 0)
				for (size_t i = 0; i < len; i++)
					if (rnd(&st) % 4 == 0)
						p[i] = (char)(rnd(&st) % 2 ? c : d);
			e = p + len;
			ok_byte &= scan_byte(p, e, (char)c) ==
			    model_find(p, e, hit_byte, pair);
			ok_find2 &= scan_find2(p, e, (char)c, (char)d) ==
			    model_find(p, e, hit_pair, pair);
			/* Runs of the pair, broken at each position in turn. */
			if (round % 2) {
				for (size_t i = 0; i < len; i++)
					p[i] = pair[rnd(&st) % 2];
				if (len > 0 && round % 4 == 1)
					p[round / 8 % len] = (char)near[round % sizeof near];
			}
			{
				const char *m = model_find(p, e, miss_pair, pair);

				ok_skip &= scan_skip(p, e, (char)c, (char)d) == (m ? m : e);
			}
			/* A needle from the same bytes, often cut out of p itself. */
			k = rnd(&st) % 5;
			if (len >= k && round % 2)
				memcpy(nd, p + rnd(&st) % (len - k + 1), k);
			else
				for (size_t i = 0; i < k; i++)
					nd[i] = (char)(i ? near[rnd(&st) % sizeof near] : c);
			ok_mem &= scan_mem(p, len, nd, k) == model_mem(p, len, nd, k);
		}
	}
	check("scan: scan_byte as a byte loop", ok_byte);
	check("scan: scan_find2 as a byte loop", ok_find2);
	check("scan: scan_skip as a byte loop", ok_skip);
	check("scan: scan_mem as a byte loop", ok_mem);
}

/*
 * xmlesc against a model written from the standards, not from the code:
 * UTF-8's well-formed byte sequences (Unicode's table 3-7) and XML 1.0's
 * Char production.
 */
static size_t
model_utf8(const unsigned char *s, size_t n, unsigned *cp)
{
	static const struct { unsigned char lo, hi, lo2, hi2; size_t len; } t[] = {
		{ 0xc2, 0xdf, 0x80, 0xbf, 2 }, { 0xe0, 0xe0, 0xa0, 0xbf, 3 },
		{ 0xe1, 0xec, 0x80, 0xbf, 3 }, { 0xed, 0xed, 0x80, 0x9f, 3 },
		{ 0xee, 0xef, 0x80, 0xbf, 3 }, { 0xf0, 0xf0, 0x90, 0xbf, 4 },
		{ 0xf1, 0xf3, 0x80, 0xbf, 4 }, { 0xf4, 0xf4, 0x80, 0x8f, 4 },
	};

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (s[0] < t[i].lo || s[0] > t[i].hi)
			continue;
		if (n < t[i].len || s[1] < t[i].lo2 || s[1] > t[i].hi2)
			return 0;
		for (size_t j = 2; j < t[i].len; j++)
			if (s[j] < 0x80 || s[j] > 0xbf)
				return 0;
		*cp = s[0] & (0xff >> (t[i].len + 1));
		for (size_t j = 1; j < t[i].len; j++)
			*cp = *cp << 6 | (s[j] & 0x3f);
		return t[i].len;
	}
	return 0;
}

static int
model_xml_char(unsigned cp)
{
	return cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
	    (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/* The model's escaping of s[0..n) into o (6 * n bytes); returns the length. */
static size_t
model_xml(const char *s, size_t n, char *o)
{
	size_t i = 0, m = 0, k;
	unsigned cp;

	while (i < n) {
		const char *rep = NULL;

		k = model_utf8((const unsigned char *)s + i, n - i, &cp);
		if (k == 0 || !model_xml_char(cp))
			rep = "\xef\xbf\xbd";
		else if (cp == '&')
			rep = "&amp;";
		else if (cp == '<')
			rep = "&lt;";
		else if (cp == '>')
			rep = "&gt;";
		else if (cp == '"')
			rep = "&quot;";
		else if (cp == '\'')
			rep = "&#39;";
		if (rep) {
			memcpy(o + m, rep, strlen(rep));
			m += strlen(rep);
		} else {
			memcpy(o + m, s + i, k);
			m += k;
		}
		i += k ? k : 1;
	}
	return m;
}

/* xml_out's output for s[0..n), through a temporary file as stdout. */
static size_t
xml_out_to(const char *s, size_t n, char *o, size_t cap)
{
	char path[] = "/tmp/ft-unit-XXXXXX";
	int fd = mkstemp(path), saved;
	ssize_t got;

	if (fd < 0)
		return (size_t)-1;
	unlink(path);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	xml_out(s, n);
	out_flush();
	dup2(saved, 1);
	close(saved);
	got = pread(fd, o, cap, 0);
	close(fd);
	return got < 0 ? (size_t)-1 : (size_t)got;
}

static void
test_xmlesc(void)
{
	/* Pieces the random names are made of: each kind of byte and character. */
	static const char *const piece[] = {
		"a", "Z", " ", "&", "<", ">", "\"", "'", "]]>", "\t", "\n", "\r",
		"\x01", "\x1f", "\x7f", "\x1b[0m", "\xc3\xa9", "\xe2\x82\xac",
		"\xf0\x9f\x94\xa5", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbd", "\xef\xbf\xbe",
		"\xef\xbf\xbf", "\xed\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xee\x80\x80",
		"\xc0\x80", "\xc1\xbf", "\xe0\x80\xaf", "\xf0\x8f\xbf\xbf",
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\x80", "\xbf", "\xc2",
		"\xe2\x82", "\xf0\x9f\x94", "\xfe", "\xff",
	};
	static const struct { const char *in, *out; } fixed[] = {
		{ "a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&#39;f" },
		{ "]]>", "]]&gt;" },
		{ "\t\n\r", "\t\n\r" },
		{ "\x1b[1m", "\xef\xbf\xbd[1m" },
		{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },
		/* A surrogate's three bytes are three bad bytes; U+FFFE is one character. */
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xef\xbf\xbe", "\xef\xbf\xbd" },
		{ "\xc0\x80", "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd" },
	};
	char in[64], want[6 * 64 + 8], got[6 * 64 + 8];
	uint64_t st = 11;
	int ok_fixed = 1, ok_out = 1, ok_char = 1, ok_count = 1, ok_prefix = 1;

	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		size_t g = xml_out_to(fixed[i].in, strlen(fixed[i].in), got, sizeof got);

		ok_fixed &= g == strlen(fixed[i].out) && memcmp(got, fixed[i].out, g) == 0;
	}
	/* The NUL byte too, which no C string carries. */
	{
		size_t g = xml_out_to("a\0b", 3, got, sizeof got);

		ok_fixed &= g == 5 && memcmp(got, "a\xef\xbf\xbd" "b", 5) == 0;
	}
	for (size_t round = 0; round < 3000; round++) {
		size_t n = 0, w, g, chars = 0;

		while (n < 48) {
			const char *pc = piece[rnd(&st) % (sizeof piece / sizeof piece[0])];

			memcpy(in + n, pc, strlen(pc));
			n += strlen(pc);
		}
		n -= rnd(&st) % 8;	/* and cut anywhere */
		w = model_xml(in, n, want);
		g = xml_out_to(in, n, got, sizeof got);
		ok_out &= g == w && memcmp(got, want, w) == 0;
		for (size_t i = 0; i < n; chars++) {
			unsigned cp = 0, mcp = 0;
			size_t k = utf8_char(in + i, n - i, &cp);
			size_t mk = model_utf8((const unsigned char *)in + i, n - i, &mcp);

			ok_char &= k == mk && (k == 0 || cp == mcp);
			ok_char &= k == 0 || xml_allowed(cp) == model_xml_char(cp);
			i += mk ? mk : 1;
			/* The first chars + 1 characters end where the model's do. */
			ok_prefix &= utf8_prefix(in, n, chars + 1) == i;
		}
		ok_count &= utf8_count(in, n) == chars;
		ok_prefix &= utf8_prefix(in, n, chars + 5) == n && utf8_prefix(in, n, 0) == 0;
	}
	check("xmlesc: xml_out fixed cases", ok_fixed);
	check("xmlesc: xml_out as the model on random names", ok_out);
	check("xmlesc: utf8_char and xml_allowed as the model", ok_char);
	check("xmlesc: utf8_count", ok_count);
	check("xmlesc: utf8_prefix never splits a character", ok_prefix);
}

/*
 * Issue 23 (groundwork), h9's block: the spans(5) codec (src/lib/spans.c):
 * escaping both ways, the reader's items and each of its errors under
 * both policies, and the writer read back.
 */

/* Write text to a new file; its path into path (room for 32 bytes). */
static int
spans_file(char *path, const char *text, size_t n)
{
	int fd;

	strcpy(path, "/tmp/ft-spans-XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Read text with the reader and list what came, one item a word:
 * "S:id,parent,start,dur,track,row,name[,open]" for a span (name
 * escaped back, so the list stays one line), "M:meta", then "END" or
 * "ERR"; the messages it wrote to stderr go to err.
 */
static void
spans_items(const char *text, unsigned flags, char *out, size_t cap,
    char *err, size_t ecap)
{
	char path[32], epath[] = "/tmp/ft-spans-err-XXXXXX", nm[512];
	struct spans_reader r;
	struct spans_rec rec;
	struct input in;
	size_t at = 0;
	int k, efd, saved;
	ssize_t got;

	out[0] = err[0] = '\0';
	if (spans_file(path, text, strlen(text)) < 0 ||
	    (efd = mkstemp(epath)) < 0)
		return;
	fflush(stderr);
	saved = dup(2);
	dup2(efd, 2);
	if (input_open(&in, path, "\n") == 0) {
		spans_reader_init(&r, &in, flags);
		while ((k = spans_next(&r, &rec)) > 0 && at < cap - 600) {
			if (k == SPANS_META) {
				at += (size_t)snprintf(out + at, cap - at, "M:%.*s ",
				    (int)r.nmeta, r.meta);
				continue;
			}
			if (rec.name == NULL) {
				/* memcmp and memcpy take no NULL, even for 0 bytes */
				at += (size_t)snprintf(out + at, cap - at, "NULL-NAME ");
				continue;
			}
			nm[spans_escape(nm, rec.name, rec.nname < 200 ?
			    rec.nname : 200)] = '\0';
			at += (size_t)snprintf(out + at, cap - at,
			    "S:%llu,%llu,%lld,%llu,%.*s,%llu,%s%s ",
			    (unsigned long long)rec.id, (unsigned long long)rec.parent,
			    (long long)rec.start, (unsigned long long)rec.dur,
			    (int)rec.ntrack, rec.track, (unsigned long long)rec.row,
			    nm, rec.open ? ",open" : "");
			if (rec.id == 99 && spans_reject(&r, SPANS_ID, "no 99s") < 0) {
				k = -1;
				break;
			}
		}
		snprintf(out + at, cap - at, "%s", k < 0 ? "ERR" : "END");
		spans_reader_free(&r);
		input_close(&in);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(efd, 0, SEEK_SET);
	got = read(efd, err, ecap - 1);
	err[got > 0 ? got : 0] = '\0';
	close(efd);
	unlink(epath);
	unlink(path);
}

static void
test_spans_escape(void)
{
	char all[256 + 8], esc[2 * sizeof all], back[sizeof all], b[64];
	size_t n, k, i, bad = 0;

	for (i = 0; i < 256; i++)
		all[i] = (char)i;
	/* Escapes written literally must come back literally. */
	memcpy(all + 256, "\\t\\n\\\\", 6);
	n = 262;
	k = spans_escape(esc, all, n);
	check("spans: escaped has no tab or newline",
	    memchr(esc, '\t', k) == NULL && memchr(esc, '\n', k) == NULL);
	check("spans: escape grows by one per tab, newline, backslash",
	    k == n + 3 + 4);
	check("spans: every byte round-trips",
	    spans_unescape(back, esc, k) == n && memcmp(back, all, n) == 0);
	for (i = 0; i < 4096; i++) {
		/* Hostile strings made of the bytes that matter. */
		static const char set[] = "\\tn\t\n\0x";
		char s[12];
		size_t len = (size_t)rand() % sizeof s;

		for (size_t j = 0; j < len; j++)
			s[j] = set[(size_t)rand() % (sizeof set - 1)];
		k = spans_escape(esc, s, len);
		bad += spans_unescape(back, esc, k) != len || memcmp(back, s, len) != 0;
	}
	check("spans: hostile strings round-trip", bad == 0);
	k = spans_escape(b, "a\tb\nc\\d", 7);
	check("spans: escape", k == 10 && memcmp(b, "a\\tb\\nc\\\\d", 10) == 0);
	/* Backslashes that escape nothing stand for themselves. */
	k = spans_unescape(b, "\\x\\", 3);
	check("spans: unescape keeps other backslashes", k == 3 &&
	    memcmp(b, "\\x\\", 3) == 0);
	k = spans_unescape(b, "a\\\\t", 4);
	check("spans: unescape \\\\ then t", k == 3 && memcmp(b, "a\\t", 3) == 0);
}

/* One reader case: items and, when want_err, a message holding it. */
static void
spans_case(const char *name, const char *text, unsigned flags,
    const char *want, const char *want_err)
{
	char out[4096], err[2048];

	spans_items(text, flags, out, sizeof out, err, sizeof err);
	check(name, strcmp(out, want) == 0 &&
	    (want_err ? strstr(err, want_err) != NULL : err[0] == '\0'));
	if (strcmp(out, want) != 0 || (want_err ? !strstr(err, want_err) : err[0]))
		printf("  got %s\n  err %s\n", out, err);
}

static void
test_spans_reader(void)
{
	const unsigned skip = SPANS_SKIP_BAD, lo = SPANS_LAID_OUT | SPANS_SKIP_BAD;

	spans_case("spans: read spans v1",
	    "# spans v1\n# command: a b\n# no colon\n\n"
	    "1\t0\t-5\t10\ttid:1\tmain\\tx\\\\y\n2\t1\t0\t0\t\t\n", 0,
	    "M:command: a b S:1,0,-5,10,tid:1,0,main\\tx\\\\y "
	    "S:2,1,0,0,-,0, END", NULL);
	spans_case("spans: empty NAME first", "1\t0\t0\t1\tt\t\n", 0,
	    "S:1,0,0,1,t,0, END", NULL);
	spans_case("spans: read laid out, ROW and concatenated headers",
	    "# spanlayout v1\n1\t0\t0\t5\tt\t3\ta\tb\n# spans v1\n2\t0\t0\t5\tt\tc\td\n",
	    0, "S:1,0,0,5,t,3,a\\tb S:2,0,0,5,t,0,c\\td END", NULL);
	spans_case("spans: open marks",
	    "# open: 2\n# x: y\n1\t0\t0\t1\tt\ta\n# open: 2\n2\t0\t0\t1\tt\tb\n"
	    "# open: 7\n3\t0\t0\t1\tt\tc\n# open\n4\t0\t0\t1\tt\td\n# open: 9\n",
	    0, "M:open: 2 M:x: y S:1,0,0,1,t,0,a S:2,0,0,1,t,0,b,open M:open: 7 "
	    "S:3,0,0,1,t,0,c S:4,0,0,1,t,0,d,open M:open: 9 END", NULL);
	spans_case("spans: too few fields", "1\t0\t0\n", 0, "ERR",
	    ":1: expected 6 tab-separated fields, found 3");
	spans_case("spans: ID 0", "0\t0\t0\t1\tt\ta\n", 0, "ERR",
	    ":1: bad ID (want 1 to 2^64-1): \"0\"");
	spans_case("spans: ID past 2^64", "18446744073709551616\t0\t0\t1\tt\ta\n",
	    0, "ERR", "bad ID (want 1 to 2^64-1): \"18446744073709551616\"");
	spans_case("spans: empty PARENT", "1\t\t0\t1\tt\ta\n", 0, "ERR",
	    "bad PARENT: \"\"");
	spans_case("spans: bad START_NS", "1\t0\t+1\t1\tt\ta\n", 0, "ERR",
	    "bad START_NS: \"+1\"");
	spans_case("spans: negative DURATION_NS", "1\t0\t0\t-5\tt\ta\n", 0, "ERR",
	    "bad DURATION_NS (want an unsigned integer): \"-5\"");
	spans_case("spans: start out of range",
	    "1\t0\t-4611686018427387905\t0\tt\ta\n", 0, "ERR",
	    "start outside -2^62 to 2^62 ns: \"-4611686018427387905\"");
	spans_case("spans: end out of range",
	    "1\t0\t1\t4611686018427387904\tt\ta\n", 0, "ERR",
	    "span ends past 2^62 ns: \"4611686018427387904\"");
	spans_case("spans: bad ROW", "# spanlayout v1\n1\t0\t0\t1\tt\tx\ta\n", 0,
	    "ERR", ":2: bad ROW: \"x\"");
	spans_case("spans: unsupported version", "# spans v2\n1\t0\t0\t1\tt\ta\n",
	    skip, "ERR", ":1: unsupported format version");
	spans_case("spans: caller's reject stops", "99\t0\t0\t1\tt\ta\n", 0,
	    "S:99,0,0,1,t,0,a ERR", ":1: no 99s: \"99\"");
	spans_case("spans: skip policy names, counts and goes on",
	    "1\t0\t0\n# open\n2\t0\tx\t1\tt\ta\n3\t0\t0\t1\tt\tb\n"
	    "99\t0\t0\t1\tt\tc\n4\t0\t0\t1\tt\td\n", skip,
	    "S:3,0,0,1,t,0,b S:99,0,0,1,t,0,c S:4,0,0,1,t,0,d END",
	    ":5: skipped span: no 99s: \"99\"");
	{
		char out[4096], err[2048];

		spans_items("1\t0\t0\n2\n3\n4\n5\n6\n7\t0\t0\t1\tt\ta\n", skip,
		    out, sizeof out, err, sizeof err);
		check("spans: skip policy names the first five, then counts",
		    strcmp(out, "S:7,0,0,1,t,0,a END") == 0 &&
		    strstr(err, ":5: skipped span:") && !strstr(err, ":6: skipped") &&
		    strstr(err, ": skipped 6 span lines"));
	}
	spans_case("spans: laid out only: first line", "# spans v1\n", lo, "ERR",
	    ":1: not laid-out spans: the first line is not \"# spanlayout v1\"");
	spans_case("spans: laid out only: later spans v1",
	    "# spanlayout v1\n# spans v1\n", lo, "ERR", ":2: not laid-out spans");
	spans_case("spans: laid out only: empty", "", lo, "ERR",
	    ": empty input: no \"# spanlayout v1\" line");
	spans_case("spans: laid out only: negative START_NS",
	    "# spanlayout v1\n1\t0\t-1\t1\tt\t0\ta\n2\t0\t1\t1\tt\t0\tb\n", lo,
	    "S:2,0,1,1,t,0,b END", ":2: skipped span: bad START_NS (want ns");
	spans_case("spans: laid out only: CR after the first line",
	    "# spanlayout v1\r\n1\t0\t0\t1\tt\t0\ta\n", lo, "S:1,0,0,1,t,0,a END",
	    NULL);
}

/* spans_put's lines, read back by the reader, give what was written. */
static void
put_two_spans(void *unused)
{
	struct spans_rec a = { 7, 3, -42, 9, "tid:1", 5, 0, "x\ty\nz\\", 6, 1 },
	    b = { 8, 7, 1, 2, "t", 1, 4, "", 0, 1 };

	(void)unused;
	out_str("# spans v1\n");
	spans_put(&a, 0);
	out_str(SPANS_LAID_OUT_MAGIC "\n");
	spans_put(&b, 1);
}

static void
test_spans_writer(void)
{
	char buf[1024], out[4096], err[2048];

	captured(put_two_spans, NULL, buf, sizeof buf);
	check("spans: writer's lines", strcmp(buf, "# spans v1\n# open: 7\n"
	    "7\t3\t-42\t9\ttid:1\tx\\ty\\nz\\\\\n# spanlayout v1\n# open\n"
	    "8\t7\t1\t2\tt\t4\t\n") == 0);
	spans_items(buf, 0, out, sizeof out, err, sizeof err);
	check("spans: writer's lines read back", strcmp(out,
	    "S:7,3,-42,9,tid:1,0,x\\ty\\nz\\\\,open S:8,7,1,2,t,4,,open END") == 0);
}


/* demangle: a name either comes out as libiberty prints it or stays mangled. */
static int
dm_flags(const char *sym, int flags, const char *want)
{
	char *r = demangle(sym, strlen(sym), flags);
	int ok = want ? r && strcmp(r, want) == 0 : r == NULL;

	if (!ok)
		printf("# %s: got %s\n", sym, r ? r : "(mangled)");
	free(r);
	return ok;
}

static int
dm_is(const char *sym, const char *want)
{
	return dm_flags(sym, DEMANGLE_PARAMS, want);
}

static void
test_demangle(void)
{
	char big[DEMANGLE_MAX + 64], buf[64], *r;
	size_t i, n;

	check("demangle: nested, const method", dm_is("_ZNK1A1B3getEv", "A::B::get() const"));
	check("demangle: std:: abbreviations, short as perf", dm_is("_ZNSs4_Rep10_M_destroyERKSaIcE",
	    "std::string::_Rep::_M_destroy(std::allocator<char> const&)"));
	check("demangle: abbreviation before a constructor, long", dm_is("_ZNSsC1Ev",
	    "std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string()"));
	check("demangle: template, return type, T_", dm_is("_Z3maxIiET_S0_S0_", "int max<int>(int, int)"));
	check("demangle: pack expansion", dm_is("_Z1fIJicEEvDpT_", "void f<int, char>(int, char)"));
	check("demangle: function pointer", dm_is("_Z1fPFviE", "f(void (*)(int))"));
	check("demangle: member function pointer", dm_is("_Z1fM1AKFviE", "f(void (A::*)(int) const)"));
	check("demangle: lambda in a local name", dm_is("_ZZ4mainENKUlvE_clEv",
	    "main::{lambda()#1}::operator()() const"));
	check("demangle: vtable", dm_is("_ZTVSt9exception", "vtable for std::exception"));
	check("demangle: guard variable", dm_is("_ZGVZ4mainE1x", "guard variable for main::x"));
	check("demangle: clones", dm_is("_Z1fv.constprop.0.isra.0",
	    "f() [clone .constprop.0] [clone .isra.0]"));
	check("demangle: abi tag", dm_is("_Z5abi_tB5cxx11v", "abi_t[abi:cxx11]()"));
	check("demangle: anonymous namespace", dm_is("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo()"));
	check("demangle: Rust legacy, hash dropped", dm_is(
	    "_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h0123456789abcdefE",
	    "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"));
	check("demangle: Rust v0, no disambiguators", dm_is("_RNvCs15kBYyAo9fc_7mycrate7example",
	    "mycrate::example"));
	check("demangle: Rust v0 generics and closures", dm_is("_RNCINvCs1_3foo3barjE0",
	    "foo::bar::<usize>::{closure#0}"));
	check("demangle: plain C names stay", dm_is("main", NULL) && dm_is("_start", NULL));
	check("demangle: cut short stays mangled", dm_is("_ZNK1A1B3get", NULL) &&
	    dm_is("_Z3maxIiET_S0_", "int max<int>(int)") && dm_is("_Z", NULL) && dm_is("_R", NULL));
	check("demangle: unknown substitution stays mangled", dm_is("_Z1fS5_", NULL));
	check("demangle: expression arguments stay mangled", dm_is("_Z1fIiEDTcl1gfp_EET_", NULL));
	/* a name whose demangling passes the cap stays mangled, not cut */
	n = (size_t)snprintf(big, sizeof big, "_Z1f100");
	memset(big + n, 'a', 100);
	n += 100;
	for (i = 0; i < 300; i++, n += 2)
		memcpy(big + n, "S_", 2);
	check("demangle: over DEMANGLE_MAX stays mangled", demangle(big, n, DEMANGLE_PARAMS) == NULL);
	r = demangle(big, n - 2 * 150, DEMANGLE_PARAMS);
	check("demangle: under DEMANGLE_MAX whole", r && strlen(r) == 3 + 151 * 100 + 150 * 2);
	free(r);
	memset(big, 'P', sizeof big);
	memcpy(big, "_Z1f", 4);
	big[sizeof big - 1] = 'i';
	check("demangle: deep nesting stays mangled", demangle(big, 4000, DEMANGLE_PARAMS) == NULL);
	check("demangle: perf's form, the name alone", dm_flags("_ZNK2ns3BoxIdE4spinEi", 0,
	    "ns::Box<double>::spin") && dm_flags("_Z3maxIiET_S0_S0_", 0, "max<int>") &&
	    dm_flags("_Z1fv.cold", 0, "f") && dm_flags("_ZTV1A", 0, "vtable for A") &&
	    dm_flags("_ZZ1fvE1x", 0, "f()::x") && dm_flags("_ZNSsC1Ev", 0,
	    "std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string"));
	check("demangle: tidy Rust", demangle_rust_tidy("_$LT$a..B$u20$as$u20$C$GT$::f::h0123456789abcdef",
	    48, buf) == 14 && memcmp(buf, "<a::B as C>::f", 14) == 0);
	check("demangle: tidy wants a hash", demangle_rust_tidy("a::f::h0123", 11, buf) == 0);
}

/* protobuf: varints at their limits, fields, packed and unpacked repeats. */
static void
test_protobuf(void)
{
	static const uint64_t vals[] = { 0, 1, 127, 128, 300, UINT32_MAX,
	    (uint64_t)1 << 63, UINT64_MAX };
	static const unsigned char over[] = { 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x02 };
	static const unsigned char eleven[] = { 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
	struct pb_buf b = { NULL, 0, 0 }, packed = { NULL, 0, 0 };
	struct pb r, sub;
	struct pb_field f;
	struct pb_rep it;
	uint64_t v, got[8];
	size_t n = 0, k;
	int ok = 1;

	for (size_t i = 0; i < 8; i++) {
		b.len = 0;
		pb_put_varint(&b, vals[i]);
		k = pb_varint(b.p, b.p + b.len, &v);
		ok &= k == b.len && v == vals[i];
		ok &= pb_varint(b.p, b.p + b.len - 1, &v) == 0;	/* cut */
	}
	check("protobuf: varints round trip, a cut one is bad", ok);
	check("protobuf: a varint past 64 bits is bad",
	    pb_varint(over, over + sizeof over, &v) == 0);
	check("protobuf: an 11-byte varint is bad",
	    pb_varint(eleven, eleven + sizeof eleven, &v) == 0);

	/* packed as pprof's writers pack: the varints as one bytes field */
	for (size_t i = 0; i < 8; i++)
		pb_put_varint(&packed, vals[i]);
	b.len = 0;
	pb_put_uint(&b, 1, 5);
	pb_put_uint(&b, 2, 0);			/* omitted */
	pb_put_bytes(&b, 3, packed.p, packed.len);
	pb_put_bytes(&b, 4, "ab", 2);
	pb_put_uint(&b, 3, 9);			/* the same field unpacked */
	pb_init(&r, b.p, b.len);
	ok = pb_next(&r, &f) == 1 && f.num == 1 && f.wire == PB_VARINT &&
	    f.v == 5 && f.off == 0;
	while (ok && pb_next(&r, &f) == 1 && f.num == 3) {
		pb_rep_init(&it, &r, &f);
		while (pb_rep_next(&it, &r, &v) == 1 && n < 8)
			got[n++] = v;
	}
	ok &= n == 8 && memcmp(got, vals, sizeof vals) == 0;
	ok &= f.num == 4 && f.wire == PB_LEN && f.len == 2 &&
	    memcmp(f.data, "ab", 2) == 0;
	pb_sub(&sub, &r, &f);
	ok &= sub.p == f.data && sub.base == b.p;
	ok &= pb_next(&r, &f) == 1 && f.num == 3 && pb_rep_init(&it, &r, &f) == 0
	    && pb_rep_next(&it, &r, &v) == 1 && v == 9 &&
	    pb_rep_next(&it, &r, &v) == 0;
	ok &= pb_next(&r, &f) == 0;
	check("protobuf: fields written and read back", ok);

	/* A length past the end: the error, its offset, and no more fields. */
	b.len = 0;
	pb_put_uint(&b, 1, 1);
	pb_put_varint(&b, 2 << 3 | PB_LEN);
	pb_put_varint(&b, 1000000000);
	pb_init(&r, b.p, b.len);
	ok = pb_next(&r, &f) == 1 && pb_next(&r, &f) == -1 && r.erroff == 2 &&
	    strcmp(r.err, "length past the end") == 0 && pb_next(&r, &f) == -1;
	check("protobuf: a length past the end, at its offset", ok);
	pb_init(&r, "\x0f", 1);
	check("protobuf: wire type 7 is refused", pb_next(&r, &f) == -1 &&
	    r.erroff == 0);
	pb_init(&r, "\x00\x01", 2);
	check("protobuf: field number 0 is refused", pb_next(&r, &f) == -1);
	pb_init(&r, "\x09\x01\x02", 3);
	check("protobuf: a 64-bit field cut short", pb_next(&r, &f) == -1);
	free(b.p);
	free(packed.p);
}

/* jsonesc: each kind of byte, and json_out's slices against json_esc. */
static void
test_jsonesc(void)
{
	static const struct { const char *in; size_t n; const char *out; } fixed[] = {
		{ "a b", 3, "\"a b\"" },
		{ "\"\\/", 3, "\"\\\"\\\\/\"" },
		{ "\t\n\r\b\f", 5, "\"\\t\\n\\r\\b\\f\"" },
		{ "a\0b", 3, "\"a\\u0000b\"" },
		{ "\x1b[1m\x7f\x01", 6, "\"\\u001b[1m\\u007f\\u0001\"" },
		{ "</script><script>alert(1)", 25, "\"</script><script>alert(1)\"" },
		{ "caf\xc3\xa9 \xf0\x9f\x94\xa5", 10, "\"caf\xc3\xa9 \xf0\x9f\x94\xa5\"" },
		/* invalid: one U+FFFD per byte, as xmlesc */
		{ "\xff\x80", 2, "\"\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "x\xe2\x82", 3, "\"x\\ufffd\\ufffd\"" },
		{ "", 0, "\"\"" },
	};
	char got[128], path[] = "/tmp/ft-jsonesc-XXXXXX";
	char *big, *want, *read_back;
	size_t n = 20000, w, r = 0;
	ssize_t k;
	int ok = 1, fd, saved;

	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		size_t g = json_esc(got, fixed[i].in, fixed[i].n);

		ok &= g == strlen(fixed[i].out) && memcmp(got, fixed[i].out, g) == 0;
	}
	check("jsonesc: fixed cases", ok);
	/* Three-byte characters across json_out's 4096-byte slices, and bad bytes. */
	big = xmalloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = "\xe2\x82\xac" "a\xff"[i % 5];
	want = xmalloc(6 * n + 2);
	read_back = xmalloc(6 * n + 3);
	w = json_esc(want, big, n);
	fd = mkstemp(path);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	json_out(big, n);
	out_flush();
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	while ((k = read(fd, read_back + r, 6 * n + 3 - r)) > 0)
		r += (size_t)k;
	close(fd);
	unlink(path);
	check("jsonesc: json_out's slices keep characters whole",
	    r == w && memcmp(read_back, want, w) == 0);
	free(big);
	free(want);
	free(read_back);
}


/* spans_put of a: whole, then with its track and name cut to 1 and 3 bytes. */
static void
put_long_and_short(void *arg)
{
	struct spans_rec *a = arg;

	spans_put(a, 1);
	a->ntrack = 1;
	a->nname = 3;
	spans_put(a, 0);
}

/*
 * num_fmt_u64 written in place, and spans_put's line in one buffer: every
 * digit count against printf, and a long track and name (past the
 * buffer, written by parts) byte for byte.
 */
static void
test_fmt_whole_line(void)
{
	char buf[4096], want[4096], got[32];
	char track[300], name[400];
	struct spans_rec a = { UINT64_MAX, 10, -1, 99, track, sizeof track, 12,
	    name, sizeof name, 0 };
	int bad = 0, at;
	uint64_t v = 1;

	for (int i = 0; i < 20; i++, v *= 10)
		for (uint64_t d = v > 1 ? v - 1 : 0; d <= v + 1; d++) {
			got[num_fmt_u64(got, d)] = '\0';
			snprintf(want, sizeof want, "%llu", (unsigned long long)d);
			bad += strcmp(got, want) != 0;
		}
	got[num_fmt_u64(got, UINT64_MAX)] = '\0';
	check("num: fmt, every length", bad == 0 &&
	    strcmp(got, "18446744073709551615") == 0);
	check("num: parse refuses what is not a digit",
	    num_parse_u64("12a", 3, &v) < 0 && num_parse_u64("-1", 2, &v) < 0 &&
	    num_parse_u64(" 1", 2, &v) < 0 && num_parse_u64("1\t", 2, &v) < 0 &&
	    num_parse_u64("+1", 2, &v) < 0 && num_parse_u64("1/", 2, &v) < 0 &&
	    num_parse_u64("1:", 2, &v) < 0 && num_parse_u64("09", 2, &v) == 0 &&
	    v == 9);
	memset(track, 'T', sizeof track);
	memset(name, '\t', sizeof name);
	captured(put_long_and_short, &a, buf, sizeof buf);
	at = snprintf(want, sizeof want, "18446744073709551615\t10\t-1\t99\t%.300s\t12\t",
	    track);
	for (int i = 0; i < 400; i++)
		at += snprintf(want + at, sizeof want - (size_t)at, "\\t");
	snprintf(want + at, sizeof want - (size_t)at,
	    "\n18446744073709551615\t10\t-1\t99\tT\t\\t\\t\\t\n");
	check("spans: a long track and name by parts, a short line whole",
	    strcmp(buf, want) == 0);
}

/* num_parse_u64's two paths: 19 digits and under, no test per digit. */
static void
test_num_digits(void)
{
	uint64_t v;

	check("num: 19 digits", num_parse_u64("9999999999999999999", 19, &v) == 0
	    && v == 9999999999999999999ull);
	check("num: 19 digits, non-digit", num_parse_u64("999999999999999999x",
	    19, &v) < 0);
	check("num: 20 digits", num_parse_u64("10000000000000000000", 20, &v) == 0
	    && v == 10000000000000000000ull);
	check("num: leading zeros", num_parse_u64("000000000000000000000042", 24,
	    &v) == 0 && v == 42);
}

/* The next of a xorshift64 sequence: numbers for the tests that sweep many. */
static uint64_t
xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * num_fmt_fixed in integers: printf's rounding on every scale the
 * integers cover (whole numbers, halves, the smallest fractions,
 * subnormals) and exact ties, from raw bit patterns too.
 */
static void
test_fmt_fixed_scales(void)
{
	uint64_t x = 88172645463325252ull;
	char a[32], b[64];
	long i, bad = 0;

	for (i = 0; i < 300000; i++) {
		uint64_t r, bits;
		int d;
		double v;

		r = xorshift(&x);
		d = 1 + (int)(r & 1);
		switch (i % 4) {
		case 0:
			bits = r * 0x9e3779b97f4a7c15ull;
			memcpy(&v, &bits, sizeof v);
			break;
		case 1:
			v = ldexp((double)(r >> 11), (int)(r % 120) - 110);
			break;
		case 2:	/* ties of the last decimal */
			v = (double)((int64_t)(r >> 8) % 2000001 - 1000000) /
			    (d == 1 ? 20 : 200);
			break;
		default:	/* exact binary fractions */
			v = ldexp((double)(r >> 40), -(int)(r % 12));
			break;
		}
		if (r & 2)
			v = -v;
		if (!(fabs(v) < 1e15))
			continue;
		num_fmt_fixed(a, v, d);
		snprintf(b, sizeof b, d == 1 ? "%.1f" : "%.2f", v);
		/* -0.0 itself writes 0.0, as it always did */
		bad += strcmp(a, b) != 0 && !(v == 0 && signbit(v));
	}
	check("num: fixed-point matches printf on every scale", bad == 0);
	num_fmt_fixed(a, 0.25, 1);
	num_fmt_fixed(b, 0.35, 1);
	check("num: fixed-point ties to even", strcmp(a, "0.2") == 0 &&
	    strcmp(b, "0.3") == 0);
	num_fmt_fixed(a, 5e-324, 2);
	check("num: fixed-point of a subnormal", strcmp(a, "0.00") == 0);
}

/*
 * num_fixed_scaled: the digits num_fmt_fixed writes, without the point
 * and sign, wherever its fast path applies, and -1 where it does not.
 */
static void
test_fixed_scaled(void)
{
	uint64_t x = 2463534242ull, n;
	char a[32];
	long i, bad = 0;

	for (i = 0; i < 100000; i++) {
		uint64_t r, digits = 0;
		int d;
		double v;

		r = xorshift(&x);
		d = 1 + (int)(r & 1);
		v = ldexp((double)(r >> 11), (int)(r % 80) - 60);
		if (r & 2)
			v = -v;
		num_fmt_fixed(a, v, d);
		for (const char *p = a; *p; p++)
			if (*p >= '0' && *p <= '9')
				digits = digits * 10 + (uint64_t)(*p - '0');
		if (fabs(v) < 1e15)
			bad += num_fixed_scaled(v, d, &n) != 0 || n != digits;
		else
			bad += num_fixed_scaled(v, d, &n) != -1;
	}
	check("num: fixed_scaled gives num_fmt_fixed's digits", bad == 0 &&
	    num_fixed_scaled(0.25, 1, &n) == 0 && n == 2 &&
	    num_fixed_scaled(NAN, 1, &n) == -1);
}

/*
 * idindex: ids seen twice are found whether they went to the bits or to
 * the set (an id past the bits, then reached by them as they grow), and
 * positions are found by a slot per id and by hash.
 */
static void
test_idindex(void)
{
	struct idseen s;
	struct idindex x;
	uint64_t ids[3000];
	size_t i, bad = 0;

	idseen_init(&s);
	/* 1<<40 goes to the set; 1..2000 and then 1<<40 again. */
	bad += idseen_add(&s, (uint64_t)1 << 40) != 1;
	for (i = 1; i <= 2000; i++)
		bad += idseen_add(&s, i) != 1;
	bad += idseen_add(&s, (uint64_t)1 << 40) != 0;
	/* 40M: past the bits now, in the set; so many ids later the bits reach it. */
	bad += idseen_add(&s, 40000000) != 1;
	for (i = 2001; i <= 700000; i++)
		bad += idseen_add(&s, i) != 1;
	bad += idseen_add(&s, 40000001) != 1;
	check("idseen: bits grew past an id of the set", s.nbits > 40000001);
	bad += idseen_add(&s, 40000000) != 0 || idseen_add(&s, 40000001) != 0;
	for (i = 1; i <= 700000; i += 997)
		bad += idseen_add(&s, i) != 0;
	check("idseen: each id new once, then seen", bad == 0);
	idseen_free(&s);

	for (i = 0; i < 3000; i++)
		ids[i] = 3000 - i + 100;	/* dense, descending, from 101 */
	idindex_build(&x, ids, 3000);
	bad = x.hashed;
	for (i = 0; i < 3000; i++)
		bad += idindex_find(&x, ids, ids[i]) != i;
	bad += idindex_find(&x, ids, 100) != IDINDEX_NONE ||
	    idindex_find(&x, ids, 3101) != IDINDEX_NONE ||
	    idindex_find(&x, ids, 0) != IDINDEX_NONE;
	check("idindex: dense ids, a slot each", bad == 0);
	idindex_free(&x);
	for (i = 0; i < 3000; i++)
		ids[i] = (uint64_t)i * 0x9e3779b97f4a7c15ULL | 1;
	idindex_build(&x, ids, 3000);
	bad = !x.hashed;
	for (i = 0; i < 3000; i++)
		bad += idindex_find(&x, ids, ids[i]) != i;
	bad += idindex_find(&x, ids, 2) != IDINDEX_NONE;
	check("idindex: sparse ids, by hash", bad == 0);
	idindex_free(&x);
	idindex_build(&x, ids, 0);
	check("idindex: none", idindex_find(&x, ids, 1) == IDINDEX_NONE);
	idindex_free(&x);
}

int
main(int argc, char **argv)
{
	(void)argc;
	err_init(argv[0]);
	test_num();
	test_compat();
	test_count();
	test_arena();
	test_intern();
	test_quote();
	test_input();
	test_json();
	test_intern_probes();
	test_idindex();
	test_input_shrink();
	test_busguard_many();
	test_json_long();
	test_json_split();
	test_spanrange();
	test_folded_parse();
	test_folded_frame();
	test_folded_sum();
	test_sort();
	test_strsort();
	test_scan();
	test_xmlesc();
	test_spans_escape();
	test_spans_reader();
	test_spans_writer();
	test_demangle();
	test_protobuf();
	test_jsonesc();
	test_fmt_whole_line();
	test_num_digits();
	test_fmt_fixed_scales();
	test_fixed_scaled();
	puts("done");
	return 0;
}
