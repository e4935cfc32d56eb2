/*
 * ghcprof: GHC's profiling report, the .prof file of a program run with
 * +RTS -p (or -P for ticks and bytes) (inferno-collapse-ghcprof).
 *
 *	ghc -prof -fprof-auto prog.hs && ./prog +RTS -P -RTS    (prog.prof)
 *
 * The call tree follows the header "COST CENTRE MODULE SRC no. entries
 * %time %alloc %time %alloc ..."; a line's indentation (one space per
 * level) is its depth and its individual cost is read from the column
 * under the header's word: the first %time (times 10, so that 0.1% is 1),
 * or with --ticks or --bytes that column.  Every node becomes a stack
 * "MODULE.COST_CENTRE;..." weighted by that cost, zero included, as
 * inferno writes them.  Columns are found by position, counted in
 * characters (UTF-8 code points) on the data lines, as inferno counts.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "formats.h"

/* The column a frame's cost is read from. */
enum ghc_source { GHC_TIME, GHC_TICKS, GHC_BYTES };

static struct {
	int source;		/* enum ghc_source */
} opt;

/* --time is the default, named so a later option can be taken back. */
static const struct fmt_option ghcprof_options[] = {
	{ "time", &opt.source, GHC_TIME, NULL },
	{ "ticks", &opt.source, GHC_TICKS, NULL },
	{ "bytes", &opt.source, GHC_BYTES, NULL },
	{ NULL, NULL, 0, NULL },
};

static const char *const head[] = {
	"COST", "CENTRE", "MODULE", "SRC", "no.", "entries", "%time", "%alloc",
	"%time", "%alloc",
};
#define NHEAD (sizeof head / sizeof head[0])

static int
ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	    c == '\f';
}

static int
is_header(const char *l, size_t n)
{
	const char *e = l + n;

	for (size_t k = 0; k < NHEAD; k++) {
		const char *w;
		size_t len = strlen(head[k]);

		while (l < e && ws(*l))
			l++;
		for (w = l; l < e && !ws(*l); l++)
			;
		if ((size_t)(l - w) != len || memcmp(w, head[k], len) != 0)
			return 0;
	}
	return 1;
}

static size_t
find(const char *l, size_t n, const char *s)
{
	const char *p = memmem(l, n, s, strlen(s));

	return p ? (size_t)(p - l) : n;
}

/* The word that starts at or after character col of l, blanks skipped. */
static size_t
word_at(const char *l, size_t n, size_t col, const char **w)
{
	size_t i = 0, c = 0, s;

	while (i < n && c < col) {
		i++;
		while (i < n && ((unsigned char)l[i] & 0xc0) == 0x80)
			i++;
		c++;
	}
	while (i < n && ws(l[i]))
		i++;
	for (s = i; i < n && !ws(l[i]); i++)
		;
	*w = l + s;
	return i - s;
}

static int
node(struct reader *r, struct fstack *fs, const char *l, size_t n,
    size_t modcol, size_t srccol)
{
	const char *c, *f, *m;
	size_t cl, fl, ml, depth;
	char buf[64], *end;
	double cost;
	uint64_t w;

	for (depth = 0; depth < n && l[depth] == ' '; depth++)
		;
	if (depth < fs->n)
		fs_truncate(fs, depth);
	else if (depth != fs->n)
		return rd_fail(r, "indentation skips a level (from %zu to %zu)",
		    fs->n, depth);
	cl = word_at(l, n, srccol, &c);
	if (cl == 0 || cl >= sizeof buf)
		return rd_fail(r, "invalid cost \"%.*s\"", (int)cl, c);
	memcpy(buf, c, cl);
	buf[cl] = '\0';
	cost = strtod(buf, &end);
	if (*end != '\0' || memchr(buf, 'x', cl) || memchr(buf, 'X', cl))
		return rd_fail(r, "invalid cost \"%.*s\"", (int)cl, c);
	if (opt.source == GHC_TIME)
		cost *= 10.0;
	/* Cut to a whole number as inferno does; past 2^64 an error, not 2^64-1. */
	if (cost >= 18446744073709551616.0)
		return rd_fail(r, "cost \"%.*s\" does not fit in 64 bits",
		    (int)cl, c);
	w = !(cost > 0) ? 0 : (uint64_t)cost;
	fl = word_at(l, n, 0, &f);
	ml = word_at(l, n, modcol, &m);
	fs_push2(fs, m, ml, '.', f, fl);
	f = fs_join(fs, 0, &fl);
	sink_put(r->sink, f, fl, w, 0);
	return 0;
}

/* Where the column before word ends (its cost is the next word). */
static int
end_before(struct reader *r, const char *l, size_t n, const char *word,
    size_t *col)
{
	size_t at = find(l, n, word);

	if (at == n)
		return rd_fail(r, "the header has no %s column (profile with "
		    "+RTS -P for ticks and bytes)", word);
	while (at > 0 && ws(l[at - 1]))
		at--;
	if (at == 0)
		return rd_fail(r, "the header has no column before %s", word);
	*col = at;
	return 0;
}

static int
ghcprof_collapse(struct reader *r)
{
	static const char *const src[] = { [GHC_TIME] = "%time",
	    [GHC_TICKS] = "ticks", [GHC_BYTES] = "bytes" };
	struct fstack fs;
	const char *l;
	size_t n, modcol = 0, srccol = 0;
	int ret;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0 && !is_header(l, n))
		;
	if (ret == 0)
		warn_at(r->name, 0, "no call tree header (COST CENTRE MODULE SRC "
		    "no. entries ...): nothing to fold");
	if (ret > 0) {
		modcol = find(l, n, "MODULE");
		if (modcol == n)
			modcol = 0;
		if (opt.source == GHC_TIME)
			srccol = find(l, n, "%time");
		else if (end_before(r, l, n, src[opt.source], &srccol) < 0)
			ret = -1;
		if (ret > 0)
			ret = rd_line(r, &l, &n);
	}
	while (ret > 0 && (ret = rd_line(r, &l, &n)) > 0) {
		while (n && ws(l[n - 1]))
			n--;
		if (n == 0)
			break;
		if (node(r, &fs, l, n, modcol, srccol) < 0)
			ret = -1;
	}
	fs_free(&fs);
	return ret < 0 ? -1 : 0;
}

static int
ghcprof_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;

	while (fmt_nextline(&p, e, &l, &len))
		if (is_header(l, len))
			return 1;
	return 0;
}

const struct format ghcprof_format = {
	.name = "ghcprof",
	.detect = ghcprof_detect,
	.collapse = ghcprof_collapse,
	.options = ghcprof_options,
};
