/*
 * dtrace: DTrace aggregations of ustack()/stack()/jstack() (stackcollapse.pl,
 * inferno-collapse-dtrace) and SystemTap's print_ustack/print_stack output
 * (stackcollapse-stap.pl): both print a stack leaf first, one frame a line,
 * then its count alone on a line.
 *
 *	dtrace -x ustackframes=100 -n 'profile-97 /pid == $target/ {
 *	    @[ustack()] = count(); }' -c ./prog -o out.stacks
 *
 * DTrace frames are "module`function+0xoffset"; C++ argument lists are cut
 * after the last "::", "->" chains are inlined Java frames (marked _[i]),
 * a leading 'L' and ';' of JVM names are tidied.  With --includeoffset the
 * offsets stay, except the leaf's (stackcollapse.pl's rule, kept by
 * inferno).  DTrace output starts with a header ended by a blank line.
 * SystemTap frames are "0xADDR : function+0xoff/0xsize [module]": the
 * address and offset go.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/demangle.h"
#include "../lib/err.h"
#include "../lib/num.h"
#include "../lib/scan.h"
#include "formats.h"

static struct {
	int includeoffset;	/* keep +0x offsets (not the leaf's) */
} opt;

static const struct fmt_option dtrace_options[] = {
	{ "includeoffset", &opt.includeoffset, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

struct dt {
	struct fstack fs;	/* leaf first; joined reversed */
	char *tmp;
	size_t tmpcap;
};

/* The position of the last '+', or n. */
static size_t
last_plus(const char *s, size_t n)
{
	const char *p = memrchr(s, '+', n);

	return p ? (size_t)(p - s) : n;
}

/* C++: after the first "::", cut at the last '(' or '<'. */
static size_t
uncpp(const char *s, size_t n)
{
	const char *sc = scan_mem(s, n, "::", 2);
	size_t cut = n;

	if (sc)
		for (size_t i = (size_t)(sc - s) + 2; i < n; i++)
			if (s[i] == '(' || s[i] == '<')
				cut = i;
	return cut;
}

/*
 * module`function with a Rust hash: the function tidied (its offset kept
 * with --includeoffset).  Returns the frame, in d->tmp when changed.
 */
static const char *
rust_frame(struct dt *d, const char *f, size_t *np, int includeoffset)
{
	size_t n = *np, fl, off, tl, k;
	const char *bt = memchr(f, '`', n), *fn;

	if (bt == NULL)
		return f;
	fn = bt + 1;
	fl = n - (size_t)(fn - f);
	off = includeoffset ? last_plus(fn, fl) : fl;
	for (tl = off; tl && (fn[tl - 1] == ' ' || fn[tl - 1] == '\t'); tl--)
		;
	d->tmp = xgrow(d->tmp, &d->tmpcap, n + 1, 1);
	if ((k = demangle_rust_tidy(fn, tl, d->tmp + (fn - f))) == 0)
		return f;
	memcpy(d->tmp, f, (size_t)(fn - f));
	k += (size_t)(fn - f);
	memcpy(d->tmp + k, fn + off, fl - off);
	*np = k + fl - off;
	return d->tmp;
}

/*
 * One part of a "->" chain, tidied as a JVM name, pushed (fs_push makes
 * a ';' in it, the JVM's or a Rust "$u3b$", a ':').
 */
static void
push_part(struct dt *d, const char *f, size_t n, int strip_l, int inlined)
{
	if (strip_l)
		while (n && *f == 'L')
			f++, n--;
	if (inlined)
		fs_push2(&d->fs, f, n, '_', "[i]", 3);
	else
		fs_push(&d->fs, f, n);
}

/* One frame line (trimmed), pushed as its frames, callee-most first. */
static void
dtrace_frame(struct dt *d, const char *s, size_t n, int includeoffset)
{
	const char *e = s + n, *c;
	int inl = 0, cpp = 0;
	size_t i, cuts[64], nc = 0;

	/* Most frames hold none of these bytes: looked for eight at a time. */
	for (c = s; (c = scan_find2(c, e, '>', ':')) != NULL; c++) {
		if (c > s && *c == '>' && c[-1] == '-')
			inl = 1;
		if (c > s && *c == ':' && c[-1] == ':')
			cpp = 1;
	}
	if (includeoffset)
		inl = cpp = 1;
	else
		n = last_plus(s, n);
	if (cpp)
		n = uncpp(s, n);
	if (n == 0) {
		s = "-";
		n = 1;
	}
	s = rust_frame(d, s, &n, includeoffset);
	if (!inl) {
		push_part(d, s, n, 0, 0);
		return;
	}
	/* The chain's parts, caller first, go on the stack in reverse. */
	cuts[nc++] = 0;
	for (i = 0; i + 1 < n && nc < 63; i++)
		if (s[i] == '-' && s[i + 1] == '>')
			cuts[nc++] = i + 2;
	for (size_t k = nc; k-- > 0;) {
		size_t end = k + 1 < nc ? cuts[k + 1] - 2 : n;

		push_part(d, s + cuts[k], end - cuts[k], 1, k > 0);
	}
}

/* A count line: digits with blanks around them. */
static int
count_line(const char *l, size_t n, uint64_t *v)
{
	n = fmt_trim(&l, n);
	if (!fmt_all_digits(l, n))
		return 0;
	return num_parse_u64(l, n, v) < 0 ? -1 : 1;
}

/* Stack end: frames joined root first; the leaf's offset cut if kept. */
static void
end_stack(struct reader *r, struct dt *d, uint64_t count)
{
	size_t n, leaf;
	const char *s = fs_join(&d->fs, 1, &n);

	if (opt.includeoffset && d->fs.n) {
		leaf = fs_len(&d->fs, 0);
		n = n - leaf + last_plus(s + n - leaf, leaf);
	}
	sink_put(r->sink, s, n, count, 0);
	fs_truncate(&d->fs, 0);
}

/*
 * The last " : " in s[0..n), or NULL, as the script's greedy s/.* : //
 * finds it (in " : : " the second, which overlaps the first): the last
 * ':' with a blank on each side.
 */
static const char *
colon_sep(const char *s, size_t n)
{
	const char *c;

	for (size_t k = n; k > 2 && (c = memrchr(s + 1, ':', k - 2)) != NULL;
	    k = (size_t)(c - s))
		if (c[-1] == ' ' && c[1] == ' ')
			return c - 1;
	return NULL;
}

/* stap: "0xADDR : func+0xoff/0xsize [mod]" -> "func". */
static void
stap_frame(struct dt *d, const char *s, size_t n)
{
	const char *sep;

	n = last_plus(s, n);
	if ((sep = colon_sep(s, n)) != NULL) {
		n -= (size_t)(sep + 3 - s);
		s = sep + 3;
	}
	if (n == 0) {
		s = "-";
		n = 1;
	}
	fs_push(&d->fs, s, n);
}

static int
collapse(struct reader *r, int stap)
{
	struct dt d = { 0 };
	const char *l, *t;
	size_t n, k;
	uint64_t count;
	int ret, c, header = !stap && !r->part;

	fs_init(&d.fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (header) {
			header = fmt_trim(&l, n) != 0;
			continue;
		}
		if ((c = count_line(l, n, &count)) != 0) {
			if (c < 0) {
				ret = rd_fail(r, "count does not fit in 64 bits");
				break;
			}
			end_stack(r, &d, count);
			continue;
		}
		t = l;
		if ((k = fmt_trim(&t, n)) == 0)
			continue;
		if (stap)	/* the script trims the front only: "a : " is "-" */
			stap_frame(&d, t, n - (size_t)(t - l));
		else
			dtrace_frame(&d, t, k, opt.includeoffset);
	}
	if (ret == 0 && header)
		warn_at(r->name, 0, "input ended while skipping the header "
		    "(DTrace output starts with one, ended by a blank line)");
	if (ret == 0 && d.fs.n) {
		r->line++;
		ret = rd_fail(r, "input ends in the middle of a stack "
		    "(no count after its frames)");
	}
	fs_free(&d.fs);
	free(d.tmp);
	return ret;
}

/*
 * split: the line after a count line (stap), or after the blank line
 * that follows one (dtrace: DTrace's header, ended by a blank line, is
 * then behind, even where the count line was in it).
 */
static size_t
split_after_count(const char *p, size_t n, int blank)
{
	const char *e = p + n, *l = memchr(p, '\n', n), *nl, *t, *b;
	uint64_t v;

	for (l = l ? l + 1 : e; l < e; l = nl + 1) {
		size_t len;

		if ((nl = memchr(l, '\n', (size_t)(e - l))) == NULL)
			break;
		len = (size_t)(nl - l);
		if (len && l[len - 1] == '\r')
			len--;
		if (count_line(l, len, &v) != 1)
			continue;
		if (!blank)
			return (size_t)(nl + 1 - p);
		t = nl + 1;	/* the next line: blank? */
		b = t < e ? memchr(t, '\n', (size_t)(e - t)) : NULL;
		if (b == NULL)
			break;
		if (fmt_trim(&t, (size_t)(b - t)) == 0)
			return (size_t)(b + 1 - p);
		/* else that line is looked at next (l = nl + 1) */
	}
	return n;
}

static size_t
dtrace_split(const char *p, size_t n)
{
	return split_after_count(p, n, 1);
}

static size_t
stap_split(const char *p, size_t n)
{
	return split_after_count(p, n, 0);
}

static int
dtrace_collapse(struct reader *r)
{
	return collapse(r, 0);
}

static int
stap_collapse(struct reader *r)
{
	return collapse(r, 1);
}

/*
 * After the header's first blank line, frame lines (a '`' or an address)
 * and then a count.
 */
static int
dtrace_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int blank = 0, frames = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		len = fmt_trim(&l, len);
		if (len == 0) {
			blank = 1;
			continue;
		}
		if (!blank)
			continue;
		if (fmt_all_digits(l, len))
			return frames;
		if (memchr(l, '`', len) || (len > 2 && l[0] == '0' && l[1] == 'x'))
			frames = 1;
		else
			return 0;
	}
	return 0;
}

/* Frame lines "0x... : name" and then a count, no header. */
static int
stap_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int frames = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		len = fmt_trim(&l, len);
		if (len == 0)
			continue;
		if (fmt_all_digits(l, len))
			return frames;
		if (len > 2 && l[0] == '0' && l[1] == 'x' && colon_sep(l, len))
			frames = 1;
		else
			return 0;
	}
	return 0;
}

const struct format stap_format = {
	.name = "stap",
	.detect = stap_detect,
	.collapse = stap_collapse,
	.split = stap_split,
};

const struct format dtrace_format = {
	.name = "dtrace",
	.detect = dtrace_detect,
	.collapse = dtrace_collapse,
	.split = dtrace_split,
	.options = dtrace_options,
};
