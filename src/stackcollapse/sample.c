/*
 * sample: macOS sample(1) reports (inferno-collapse-sample).
 *
 *	sample PROCESS 10 -file out.txt
 *
 * The "Call graph:" section is a tree: each line "COUNT function  (in
 * module) + offset  [address]" after four spaces and two indent characters
 * (' ', '+', '|', ':', '!') per level; it ends at "Total number in stack".
 * A node's count includes its children's, so only leaves become stacks,
 * weighted by their own count, and leaves that are waits in the kernel
 * (__psynch_cvwait, kevent, mach_msg_trap, ...) are left out, as inferno
 * does.  Frames are "module`function" with ".dylib" dropped from the
 * module (--no-modules: the function alone).
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../lib/compat.h"
#include "../lib/demangle.h"
#include "../lib/err.h"
#include "../lib/num.h"
#include "formats.h"

static struct {
	int no_modules;		/* no "module`" prefix */
} opt;

static const struct fmt_option sample_options[] = {
	{ "no-modules", &opt.no_modules, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

#define W(s) { s, sizeof s - 1 }
static const struct {
	const char *s;
	size_t n;
} idle[] = {
	W("__psynch_cvwait"), W("__select"), W("__semwait_signal"),
	W("__ulock_wait"), W("__wait4"), W("__workq_kernreturn"), W("kevent"),
	W("mach_msg_trap"), W("read"), W("semaphore_wait_trap"),
};
#undef W

static int
indent_char(char c)
{
	return c == ' ' || c == '+' || c == '|' || c == ':' || c == '!';
}

/*
 * The end of the indentation from l[i]: deep call graphs indent their
 * lines by dozens of these characters, so with SSE2 (every x86-64) they
 * are tested sixteen at a time.
 */
static size_t
indent_end(const char *l, size_t i, size_t n)
{
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(' '), pl = _mm_set1_epi8('+'),
	    vb = _mm_set1_epi8('|'), co = _mm_set1_epi8(':'),
	    ex = _mm_set1_epi8('!');

	for (; n - i >= 16; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(l + i));
		__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sp),
		    _mm_cmpeq_epi8(x, pl)), _mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(x, vb), _mm_cmpeq_epi8(x, co)),
		    _mm_cmpeq_epi8(x, ex)));
		unsigned bad = ~(unsigned)_mm_movemask_epi8(m) & 0xffffu;

		if (bad)
			return i + (size_t)__builtin_ctz(bad);
	}
#endif
	while (i < n && indent_char(l[i]))
		i++;
	return i;
}

struct smp {
	struct fstack fs;
	uint64_t count;		/* of the deepest node */
	char *tmp;
	size_t tmpcap;
};

static void
write_stack(struct reader *r, struct smp *s)
{
	size_t n, fl;
	const char *st, *last;

	if (s->fs.n == 0)
		return;
	last = s->fs.buf + s->fs.off[s->fs.n - 1];
	fl = fs_len(&s->fs, s->fs.n - 1);
	for (size_t i = 0; i < sizeof idle / sizeof idle[0]; i++)
		if (fl >= idle[i].n && last[fl - 1] == idle[i].s[idle[i].n - 1] &&
		    memcmp(last + fl - idle[i].n, idle[i].s, idle[i].n) == 0)
			return;
	st = fs_join(&s->fs, 0, &n);
	sink_put(r->sink, st, n, s->count, 1);
}

/* "COUNT function  (in module) + off  [addr]", indentation removed. */
static int
node(struct reader *r, struct smp *s, const char *l, size_t n)
{
	const char *sp, *rest, *in, *mod = "", *op, *cp;
	size_t restn, fn, mn = 0, k;
	uint64_t v = 0;

	while (n && (*l == ' ' || *l == '\t'))
		l++, n--;
	if ((sp = memchr(l, ' ', n)) == NULL)
		return rd_fail(r, "cannot read this call graph line");
	if (!fmt_all_digits(l, (size_t)(sp - l)))
		return rd_fail(r, "invalid sample count \"%.*s\"", (int)(sp - l), l);
	if (num_parse_u64(l, (size_t)(sp - l), &v) < 0)
		return rd_fail(r, "sample count does not fit in 64 bits");
	s->count = v;
	rest = sp + 1;
	restn = n - (size_t)(rest - l);
	op = memchr(rest, '(', restn);
	fn = op ? (size_t)(op - rest) : restn;
	while (fn && (rest[fn - 1] == ' ' || rest[fn - 1] == '\t'))
		fn--;
	if (!opt.no_modules) {
		/*
		 * After the last "(in ", up to ')'; without one, the line.
		 * It is near the end, after the function's own parentheses,
		 * so the search goes backwards.
		 */
		const char *m = rest;

		for (in = rest + restn; (in = memrchr(rest, '(', (size_t)(in -
		    rest))) != NULL; )
			if (restn - (size_t)(in - rest) >= 4 &&
			    memcmp(in, "(in ", 4) == 0) {
				m = in + 4;
				break;
			}
		if ((cp = memchr(m, ')', restn - (size_t)(m - rest))) != NULL) {
			mod = m;
			mn = (size_t)(cp - m);
			if (mn >= 6 && memcmp(mod + mn - 6, ".dylib", 6) == 0)
				mn -= 6;
		}
	}
	s->tmp = xgrow(s->tmp, &s->tmpcap, fn + 1, 1);
	if ((k = demangle_rust_tidy(rest, fn, s->tmp)) != 0) {
		rest = s->tmp;
		fn = k;
	}
	if (mn)
		fs_push2(&s->fs, mod, mn, '`', rest, fn);
	else
		fs_push(&s->fs, rest, fn);
	return 0;
}

static int
graph_line(struct reader *r, struct smp *s, const char *l, size_t n)
{
	size_t ind = indent_end(l, 4, n), depth, prev = s->fs.n;

	if (ind == n)
		return rd_fail(r, "call graph line with only indentation");
	if ((ind - 4) % 2)
		return rd_fail(r, "odd number of indentation characters");
	depth = (ind - 4) / 2 + 1;
	if (depth <= prev) {
		write_stack(r, s);
		fs_truncate(&s->fs, depth - 1);
	} else if (depth > prev + 1) {
		return rd_fail(r, "indentation skips a level (from %zu to %zu)",
		    prev, depth);
	}
	return node(r, s, l + ind, n - ind);
}

static int
sample_collapse(struct reader *r)
{
	struct smp s = { 0 };
	const char *l;
	size_t n;
	int ret;

	fs_init(&s.fs);
	while ((ret = rd_line(r, &l, &n)) > 0 && !FMT_STARTS(l, n, "Call graph:"))
		;
	if (ret == 0) {
		warn_at(r->name, 0, "no \"Call graph:\" line: nothing to fold");
		goto out;
	}
	while (ret > 0 && (ret = rd_line(r, &l, &n)) > 0) {
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		if (n == 0)
			continue;
		if (FMT_STARTS(l, n, "    "))
			ret = graph_line(r, &s, l, n) < 0 ? -1 : 1;
		else if (FMT_STARTS(l, n, "Total number in stack")) {
			write_stack(r, &s);
			break;
		} else
			ret = rd_fail(r, "call graph line does not start with "
			    "four spaces");
	}
	if (ret == 0) {
		r->line++;
		ret = rd_fail(r, "input ended inside the call graph (no "
		    "\"Total number in stack\" line)");
	}
out:
	fs_free(&s.fs);
	free(s.tmp);
	return ret < 0 ? -1 : 0;
}

static int
sample_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int start = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		if (FMT_STARTS(l, len, "Call graph:"))
			start = 1;
		else if (start && FMT_STARTS(l, len, "Total number in stack"))
			return 1;
		else if (start && FMT_STARTS(l, len, "    ") && len > 4 &&
		    indent_char(l[4]))
			return 1;
	}
	return 0;
}

const struct format sample_format = {
	.name = "sample",
	.detect = sample_detect,
	.collapse = sample_collapse,
	.options = sample_options,
};
