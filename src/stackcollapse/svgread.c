/*
 * svgread: flame graph SVGs read back into stacks (stackcollapse
 * --format=svg, or recognized by their <svg> element), plain or .svgz
 * (gzip, through input(3) when built with zlib).
 *
 *	stackcollapse old.svg | flamegraph-svg --diff - new.folded
 *
 * Three kinds, told apart by what they carry:
 *  - flamegraph-svg's own: its script's data block (scriptdata.h), read
 *    exactly: per row, each frame's count and gap, names sorted and
 *    prefix-coded, the annotation (_[k], _[w], _[i], _[j]) a name lost
 *    told by its colour code; a differential graph's self deltas, or a
 *    --diff graph's whole tree with both sides' selves.
 *  - inferno-flamegraph's: each <rect> has fg:x and fg:w, the frame's
 *    start and width in samples: exact too.
 *  - flamegraph.pl's: the <title> gives the name and the count exactly,
 *    the <rect>'s x to a tenth of a pixel.  A frame's parent is the frame
 *    of the row below whose end its callees end at; where rounding lets
 *    tiny neighbours meet more than one, the counts (a parent holds no
 *    more than its count) and the sorted order of siblings decide, by a
 *    search per row (place() below).  Frames placed where another choice
 *    was open are counted on stderr; weight is never made up or dropped:
 *    every frame keeps its count, so the total is the root's.
 * flamegraph-svg's timeline (of laid-out spans) holds spans, not stacks:
 * it is named as such, and read by tlread.c (--to=spans) through
 * svg_block_read (svgread.h), the same scan.
 * The root ("all") is no frame; a self it keeps (frames too narrow to
 * draw) comes back as the empty stack, so that the total is the root's.
 * Rows are told by y, whether the graph grows up or down.  Titles are
 * "NAME (COUNT UNIT, PCT%)" with a "; +DELTA%" in a differential graph,
 * whose before column is then the after less the delta, rounded from a
 * percentage (exact from flamegraph-svg's data).
 *
 * The file is read whole: a flame graph is drawn in memory anyway.  The
 * XML is scanned, not parsed into a tree: elements, comments, CDATA and
 * processing instructions, nesting checked; the five XML entities and
 * character references are decoded, a DOCTYPE's entity declarations are
 * refused (no entity expansion: no bomb).  Rejected: libxml2 (libc only).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/json.h"
#include "../lib/sort.h"
#include "bars.h"
#include "formats.h"
#include "svgread.h"

/* A frame drawn: title, rect, row. */
struct sframe {
	char *title;		/* decoded */
	size_t tlen;
	double x, y, w;
	uint64_t fgx, fgw;
	int has_fg, has_y;
	uint64_t line;
};

struct svg {
	struct reader *r;
	const char *p, *e;	/* the file */
	uint64_t line;
	struct sframe *fr;
	size_t nfr, frcap;
	const char *data;	/* flamegraph-svg's data block */
	size_t datan;
	uint64_t dataline;
	int timeline;		/* the block is a timeline's (svgread.h) */
	char *buf;		/* decoded text */
	size_t blen, bcap;
};

static int
fail(struct svg *s, uint64_t line, const char *what)
{
	s->r->line = line;
	return rd_fail(s->r, "%s", what);
}

/* Append decoded XML text p[0..n) (entities, character references). */
static int
decode(struct svg *s, const char *p, size_t n, uint64_t line)
{
	static const char *const ent[] = { "lt<", "gt>", "amp&", "quot\"",
	    "apos'" };

	for (size_t i = 0; i < n; i++) {
		const char *semi;
		size_t k, el;

		s->buf = xgrow(s->buf, &s->bcap, s->blen + 5, 1);
		if (p[i] != '&') {
			s->buf[s->blen++] = p[i];
			continue;
		}
		if ((semi = memchr(p + i, ';', n - i < 12 ? n - i : 12)) == NULL)
			return fail(s, line, "a '&' that starts no entity");
		el = (size_t)(semi - p - i - 1);
		if (el > 1 && p[i + 1] == '#') {
			unsigned long v = 0;
			int hex = p[i + 2] == 'x';
			char u[5];

			for (k = i + 2 + (size_t)hex; k < (size_t)(semi - p); k++) {
				int d = p[k] >= '0' && p[k] <= '9' ? p[k] - '0' :
				    hex && strchr("abcdefABCDEF", p[k]) ?
				    (p[k] | 32) - 'a' + 10 : -1;

				if (d < 0 || v > 0x10ffff)
					return fail(s, line, "a bad character "
					    "reference");
				v = v * (hex ? 16 : 10) + (unsigned long)d;
			}
			if (v == 0 || v > 0x10ffff || (v >= 0xd800 && v < 0xe000))
				return fail(s, line, "a bad character reference");
			k = v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4;
			if (k == 1)
				u[0] = (char)v;
			else {
				for (size_t b = k; b-- > 1; v >>= 6)
					u[b] = (char)(0x80 | (v & 63));
				u[0] = (char)((0xf0 << (4 - k)) | v);
			}
			memcpy(s->buf + s->blen, u, k);
			s->blen += k;
		} else {
			for (k = 0; k < 5; k++)
				if (strlen(ent[k]) - 1 == el &&
				    memcmp(ent[k], p + i + 1, el) == 0)
					break;
			if (k == 5)
				return fail(s, line, "an entity that XML does "
				    "not define (entities are not expanded)");
			s->buf[s->blen++] = ent[k][el];
		}
		i = (size_t)(semi - p);
	}
	return 0;
}

static uint64_t
lines_in(const char *p, const char *e)
{
	uint64_t n = 0;

	while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* The value of attribute name in tag text t[0..n), raw; NULL if none. */
static const char *
attr(const char *t, size_t n, const char *name, size_t *len)
{
	size_t nl = strlen(name);

	for (const char *p = t, *e = t + n; p < e; ) {
		const char *q = memmem(p, (size_t)(e - p), name, nl), *v, *end;

		if (q == NULL)
			return NULL;
		p = q + nl;
		if ((q > t && !strchr(" \t\r\n", q[-1])) || p >= e || *p != '=')
			continue;
		if (p + 1 >= e || (p[1] != '"' && p[1] != '\''))
			return NULL;
		v = p + 2;
		if ((end = memchr(v, p[1], (size_t)(e - v))) == NULL)
			return NULL;
		*len = (size_t)(end - v);
		return v;
	}
	return NULL;
}

static int
attr_num(const char *t, size_t n, const char *name, double *v)
{
	char b[64], *end;
	size_t len;
	const char *a = attr(t, n, name, &len);

	if (a == NULL || len == 0 || len >= sizeof b)
		return -1;
	memcpy(b, a, len);
	b[len] = '\0';
	*v = strtod(b, &end);
	return *end == '\0' || *end == '%' ? 0 : -1;
}

static int
attr_u64(const char *t, size_t n, const char *name, uint64_t *v)
{
	size_t len;
	const char *a = attr(t, n, name, &len);

	return a && json_u64(a, len, v) == 0 ? 0 : -1;
}

/*
 * Scan the XML: frames (a <title> then a <rect> in one element) and
 * flamegraph-svg's data block.  Nesting is checked by name.
 */
#define MAXDEPTH 1000
static int
scan(struct svg *s)
{
	const char *p = s->p, *e = s->e, *open[MAXDEPTH];
	size_t olen[MAXDEPTH];
	uint64_t oline[MAXDEPTH];
	int depth = 0, titled = -1, root = 0;
	char *title = NULL;
	size_t tlen = 0;

	s->line = 1;
	while (p < e) {
		const char *lt = memchr(p, '<', (size_t)(e - p)), *gt, *name;
		size_t nn, tl;
		int close, empty;

		if (lt == NULL)
			break;
		s->line += lines_in(p, lt);
		if (e - lt >= 4 && memcmp(lt, "<!--", 4) == 0) {
			if ((gt = memmem(lt + 4, (size_t)(e - lt - 4), "-->", 3)) == NULL)
				return free(title), fail(s, s->line, "an unclosed "
				    "comment");
			s->line += lines_in(lt, gt);
			p = gt + 3;
			continue;
		}
		if (e - lt >= 9 && memcmp(lt, "<![CDATA[", 9) == 0) {
			if ((gt = memmem(lt, (size_t)(e - lt), "]]>", 3)) == NULL)
				return free(title), fail(s, s->line, "an unclosed "
				    "CDATA section");
			s->line += lines_in(lt, gt);
			p = gt + 3;
			continue;
		}
		if (e - lt >= 2 && (lt[1] == '?' || lt[1] == '!')) {
			if ((gt = memchr(lt, '>', (size_t)(e - lt))) == NULL)
				return free(title), fail(s, s->line, "an unclosed "
				    "declaration");
			if (memmem(lt, (size_t)(gt - lt), "<!ENTITY", 8) ||
			    memchr(lt, '[', (size_t)(gt - lt)))
				return free(title), fail(s, s->line, "a DOCTYPE "
				    "with declarations (entities are not "
				    "expanded: an entity bomb?)");
			s->line += lines_in(lt, gt);
			p = gt + 1;
			continue;
		}
		/* a tag: '>' inside a quoted attribute is not its end */
		for (gt = lt + 1; gt < e && *gt != '>'; gt++)
			if (*gt == '"' || *gt == '\'') {
				const char *q = memchr(gt + 1, *gt, (size_t)(e - gt - 1));

				if (q == NULL)
					break;
				gt = q;
			}
		if (gt >= e)
			return free(title), fail(s, s->line, "an unclosed tag");
		close = lt[1] == '/';
		name = lt + 1 + close;
		for (nn = 0; name + nn < gt && !strchr(" \t\r\n/>", name[nn]); nn++)
			;
		empty = gt[-1] == '/';
		tl = (size_t)(gt - name);
		if (nn == 0)
			return free(title), fail(s, s->line, "a tag without a name");
		if (close) {
			if (depth == 0 || olen[depth - 1] != nn ||
			    memcmp(open[depth - 1], name, nn) != 0)
				return free(title), fail(s, s->line, "a closing "
				    "tag that closes no open element");
			if (--depth <= titled)
				titled = -1;
		} else if (!empty && depth == MAXDEPTH) {
			return free(title), fail(s, s->line, "elements nested "
			    "too deep");
		}
		if (!close && !root) {
			if (nn != 3 || memcmp(name, "svg", 3) != 0)
				return free(title), fail(s, s->line, "not an SVG: "
				    "the root element is not <svg>");
			root = 1;
		}
		if (!close && nn == 5 && memcmp(name, "title", 5) == 0 && !empty) {
			const char *end = memmem(gt, (size_t)(e - gt), "</title>", 8);
			uint64_t l = s->line;

			if (end == NULL)
				return free(title), fail(s, s->line, "an unclosed "
				    "<title>");
			s->blen = 0;
			if (decode(s, gt + 1, (size_t)(end - gt - 1), l) < 0)
				return free(title), -1;
			title = xrealloc(title, s->blen + 1);
			memcpy(title, s->buf, tlen = s->blen);
			titled = depth;
			s->line += lines_in(gt, end);
			p = end + 8;
			continue;
		}
		if (!close && nn == 4 && memcmp(name, "rect", 4) == 0 &&
		    titled >= 0 && titled == depth) {
			struct sframe *f;

			s->fr = xgrow(s->fr, &s->frcap, s->nfr + 1, sizeof *s->fr);
			f = &s->fr[s->nfr++];
			memset(f, 0, sizeof *f);
			f->title = title;
			f->tlen = tlen;
			title = NULL;
			titled = -1;
			f->line = s->line;
			if (attr_num(name, tl, "x", &f->x) < 0 ||
			    attr_num(name, tl, "width", &f->w) < 0)
				return fail(s, s->line, "a frame's <rect> without "
				    "x or width");
			f->has_y = attr_num(name, tl, "y", &f->y) == 0;
			f->has_fg = attr_u64(name, tl, "fg:x", &f->fgx) == 0 &&
			    attr_u64(name, tl, "fg:w", &f->fgw) == 0;
		}
		if (!close && nn == 6 && memcmp(name, "script", 6) == 0 && !empty) {
			size_t len;
			const char *id = attr(name, tl, "id", &len);
			const char *end = memmem(gt, (size_t)(e - gt), "</script>", 9);

			if (end == NULL)
				return free(title), fail(s, s->line, "an unclosed "
				    "<script>");
			if (id && len > 5 && memcmp(id + len - 5, "-data", 5) == 0 &&
			    !s->data) {
				/* svg_id's prefix: "tl" is the timeline's. */
				s->timeline = len > 2 && memcmp(id, "tl", 2) == 0;
				if (attr(name, tl, "type", &len)) {
					s->data = gt + 1;
					s->datan = (size_t)(end - gt - 1);
					s->dataline = s->line;
				}
			}
			s->line += lines_in(gt, end);
			p = end + 9;
			continue;
		}
		if (!close && !empty) {
			open[depth] = name;
			olen[depth] = nn;
			oline[depth++] = s->line;
		}
		s->line += lines_in(lt, gt);
		p = gt + 1;
	}
	free(title);
	if (depth > 0) {
		char q[64];

		snprintf(q, sizeof q, "an unclosed <%.*s>", (int)(olen[depth - 1] < 20 ?
		    olen[depth - 1] : 20), open[depth - 1]);
		return fail(s, oline[depth - 1], q);
	}
	if (!root)
		return fail(s, s->line, "not an SVG: no <svg> element");
	return 0;
}

/*
 * A title "NAME (COUNT UNIT, PCT%)" or "...; DELTA%)": the name's length,
 * the count, and the delta in percent (has_delta).  -1 when it is not.
 */
static int
title_parse(const char *t, size_t n, size_t *namelen, struct count *c,
    double *delta, int *has_delta)
{
	char num[COUNT_TEXT_MAX + 32];
	size_t k = 0, i, open, j;

	if (n < 6 || t[n - 1] != ')')
		return -1;
	/* the last " (" whose inside reads as a count: names may have " (" */
	for (open = n - 1; open-- > 0; )
		if (t[open] == '(' && open > 0 && t[open - 1] == ' ' &&
		    t[open + 1] >= '0' && t[open + 1] <= '9')
			break;
	if (open == (size_t)-1 || open == 0)
		return -1;
	for (i = open + 1; i < n && (t[i] == ',' || t[i] == '.' ||
	    (t[i] >= '0' && t[i] <= '9')); i++)
		if (t[i] != ',' && k < sizeof num - 1)
			num[k++] = t[i];
	if (i >= n || t[i] != ' ' || count_parse(num, k, c) < 0)
		return -1;
	*has_delta = 0;
	for (j = i; j < n && t[j] != ';'; j++)
		;
	if (j < n) {
		char *end;

		k = 0;
		for (j++; j < n && t[j] == ' '; j++)
			;
		while (j < n && t[j] != '%' && k < sizeof num - 1)
			num[k++] = t[j++];
		num[k] = '\0';
		*delta = strtod(num, &end);
		if (*end != '\0' || k == 0)
			return -1;
		*has_delta = 1;
	}
	*namelen = open - 1;
	return 0;
}

/* The name's annotation lost in flamegraph-svg's data, by its code. */
static const char annot[] = "kwij";

/* A VLQ (scriptdata.c's sd_vlq) at *p, moved past it; -1 if bad. */
static int
vlq(const char **p, const char *e, uint64_t *v)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned shift = 0;

	*v = 0;
	while (*p < e) {
		const char *d = memchr(b64, **p, 64);
		uint64_t dg;

		if (d == NULL || **p == '\0' || shift > 60)
			return -1;
		dg = (uint64_t)(d - b64);
		(*p)++;
		*v |= (dg & 31) << shift;
		if (dg < 32)
			return 0;
		shift += 5;
	}
	return -1;
}

/* flamegraph-svg's data: what is kept of it until all keys are read. */
struct sdata {
	char *names, *n, *name, *ncolor, *nm, *k;
	size_t namesn, nn, namen, ncolorn, nmn, kn;
	struct count *narr, *gap, *dv[4];	/* arrays: n, gap; b a sb sa */
	size_t nnarr, ngap, ndv[4];
	char *dvs[4];		/* the same as VLQ strings */
	size_t dvsn[4];
	double *delta;
	size_t ndelta;
	uint64_t *rowlen;
	size_t nrows;
	struct count unit;
	int has_diff;
};

/* The string j is at, into *s and *n: a key given twice keeps the last. */
static void
take_str(struct json *j, char **s, size_t *n)
{
	free(*s);
	*s = xmalloc(j->n + 1);
	memcpy(*s, j->s, j->n);
	*n = j->n;
}

/* A count as JSON writes it: "12", "0.5" or "1.2e+20". */
static int
json_count(struct json *j, struct count *c)
{
	uint64_t v;

	if (count_parse(j->s, j->n, c) >= 0)
		return 0;
	if (json_u64(j->s, j->n, &v) < 0)
		return -1;
	*c = (struct count){ v, 0 };
	return 0;
}

static int
num_array(struct json *j, struct count **a, size_t *n)
{
	enum json_tok t;
	size_t cap = 0;

	while ((t = json_next(j)) == JSON_NUM) {
		*a = xgrow(*a, &cap, *n + 1, sizeof **a);
		if (json_count(j, &(*a)[(*n)++]) < 0)
			return -1;
	}
	return t == JSON_ARR_END ? 0 : -1;
}

static int
data_diff(struct json *j, struct sdata *d)
{
	static const char *const key[4] = { "b", "a", "sb", "sa" };
	enum json_tok t;

	d->has_diff = 1;
	while ((t = json_next(j)) == JSON_KEY) {
		char k[8];
		int c;

		snprintf(k, sizeof k, "%.*s", (int)j->n, j->s);
		t = json_next(j);
		for (c = 0; c < 4 && strcmp(k, key[c]) != 0; c++)
			;
		if (strcmp(k, "nm") == 0 && t == JSON_STR)
			take_str(j, &d->nm, &d->nmn);
		else if (strcmp(k, "k") == 0 && t == JSON_STR)
			take_str(j, &d->k, &d->kn);
		else if (c < 4 && t == JSON_STR)
			take_str(j, &d->dvs[c], &d->dvsn[c]);
		else if (c < 4 && t == JSON_ARR) {
			if (num_array(j, &d->dv[c], &d->ndv[c]) < 0)
				return -1;
		} else if (json_skip(j, t) < 0)
			return -1;
	}
	return t == JSON_OBJ_END ? 0 : -1;
}

static int
data_read(struct json *j, struct sdata *d)
{
	enum json_tok t;
	size_t cap = 0, dcap = 0;

	if (json_next(j) != JSON_OBJ)
		return -1;
	d->unit = (struct count){ 1, 0 };
	while ((t = json_next(j)) == JSON_KEY) {
		char k[16];

		snprintf(k, sizeof k, "%.*s", (int)j->n, j->s);
		t = json_next(j);
		if (strcmp(k, "names") == 0 && t == JSON_STR)
			take_str(j, &d->names, &d->namesn);
		else if (strcmp(k, "n") == 0 && t == JSON_STR)
			take_str(j, &d->n, &d->nn);
		else if (strcmp(k, "name") == 0 && t == JSON_STR)
			take_str(j, &d->name, &d->namen);
		else if (strcmp(k, "ncolor") == 0 && t == JSON_STR)
			take_str(j, &d->ncolor, &d->ncolorn);
		else if (strcmp(k, "unit") == 0 && t == JSON_NUM) {
			if (json_count(j, &d->unit) < 0)
				return -1;
		} else if (strcmp(k, "n") == 0 && t == JSON_ARR) {
			if (num_array(j, &d->narr, &d->nnarr) < 0)
				return -1;
		} else if (strcmp(k, "gap") == 0 && t == JSON_ARR) {
			if (num_array(j, &d->gap, &d->ngap) < 0)
				return -1;
		} else if (strcmp(k, "rowlen") == 0 && t == JSON_ARR) {
			while ((t = json_next(j)) == JSON_NUM) {
				d->rowlen = xgrow(d->rowlen, &cap, d->nrows + 1,
				    sizeof *d->rowlen);
				if (json_u64(j->s, j->n, &d->rowlen[d->nrows++]) < 0)
					return -1;
			}
			if (t != JSON_ARR_END)
				return -1;
		} else if (strcmp(k, "delta") == 0 && t == JSON_ARR) {
			while ((t = json_next(j)) == JSON_NUM || t == JSON_NULL) {
				char b[64];

				d->delta = xgrow(d->delta, &dcap, d->ndelta + 1,
				    sizeof *d->delta);
				snprintf(b, sizeof b, "%.*s", (int)j->n, j->s);
				d->delta[d->ndelta++] = t == JSON_NULL ? 0 :
				    strtod(b, NULL);
			}
			if (t != JSON_ARR_END)
				return -1;
		} else if (strcmp(k, "diff") == 0 && t == JSON_OBJ) {
			if (data_diff(j, d) < 0)
				return -1;
		} else if (json_skip(j, t) < 0)
			return -1;
	}
	return t == JSON_OBJ_END && json_next(j) == JSON_END ? 0 : -1;
}

static void
data_free(struct sdata *d)
{
	free(d->names);
	free(d->n);
	free(d->name);
	free(d->ncolor);
	free(d->nm);
	free(d->k);
	free(d->narr);
	free(d->gap);
	free(d->delta);
	free(d->rowlen);
	for (int c = 0; c < 4; c++) {
		free(d->dv[c]);
		free(d->dvs[c]);
	}
}

/* The names of the data, sorted, into ids in b->names; *nn of them. */
static uint32_t *
data_names(struct svg *s, struct sdata *d, struct bars *b, size_t *nn)
{
	const char *p = d->names, *e = p ? p + d->namesn : NULL, *c = d->ncolor;
	const char *ce = c ? c + d->ncolorn : NULL;
	uint32_t *ids = NULL;
	size_t cap = 0, n = 0, prevlen = 0;
	uint64_t skip = 0, how = 0;
	int more = c != NULL && c < ce;

	if (more && (vlq(&c, ce, &skip) < 0 || vlq(&c, ce, &how) < 0))
		return fail(s, s->dataline, "flamegraph-svg's data: bad "
		    "ncolor"), NULL;
	s->blen = 0;
	while (p && p <= e) {
		const char *semi = memchr(p, ';', (size_t)(e - p));
		const char *end = semi ? semi : e;
		uint64_t pre;

		if (vlq(&p, end, &pre) < 0)
			return free(ids), fail(s, s->dataline, "flamegraph-svg's "
			    "data: a bad name"), NULL;
		if (pre > prevlen)
			return free(ids), fail(s, s->dataline, "flamegraph-svg's "
			    "data: a name's prefix longer than the name before"),
			    NULL;
		s->blen = pre;
		s->buf = xgrow(s->buf, &s->bcap, pre + (size_t)(end - p) + 5, 1);
		memcpy(s->buf + pre, p, (size_t)(end - p));
		prevlen = s->blen = pre + (size_t)(end - p);
		ids = xgrow(ids, &cap, n + 1, sizeof *ids);
		if (more && skip == 0 && how < 4) {
			char a[4] = { '_', '[', annot[how], ']' };

			memcpy(s->buf + s->blen, a, 4);
			ids[n] = intern_put(&b->names, s->buf, s->blen + 4, NULL);
		} else
			ids[n] = intern_put(&b->names, s->buf, s->blen, NULL);
		if (more && skip-- == 0) {
			more = c < ce;
			if (more && (vlq(&c, ce, &skip) < 0 ||
			    vlq(&c, ce, &how) < 0))
				return free(ids), fail(s, s->dataline,
				    "flamegraph-svg's data: bad ncolor"), NULL;
		}
		n++;
		if (!semi)
			break;
		p = semi + 1;
	}
	*nn = n;
	return ids;
}

/* A count from a VLQ string or an array, times unit; -1 if missing. */
static int
dval(const char **p, const char *e, const struct count *arr, size_t narr,
    size_t i, const struct count *unit, struct count *v)
{
	uint64_t x;

	if (arr) {
		if (i >= narr)
			return -1;
		*v = arr[i];
		return 0;
	}
	if (*p == NULL || vlq(p, e, &x) < 0)
		return -1;
	*v = (struct count){ 0, 0 };
	/* unit is whole when the counts are VLQs */
	if (x && unit->whole > UINT64_MAX / x)
		return -1;
	v->whole = x * unit->whole;
	return 0;
}

/* A --diff graph's tree: breadth first, each node's callees after it. */
static int
data_tree(struct svg *s, struct sdata *d, const uint32_t *ids, size_t nn,
    struct bars *b, struct count **self)
{
	const char *nm = d->nm, *k = d->k, *sv[2] = { d->dvs[2], d->dvs[3] };
	size_t nfr = 0, next = 1;
	uint64_t v;
	static const struct count one = { 1, 0 };

	while (nm && nm < d->nm + d->nmn) {
		struct bar *x;
		uint64_t kids;

		if (vlq(&nm, d->nm + d->nmn, &v) < 0 || v >= nn ||
		    vlq(&k, k ? d->k + d->kn : NULL, &kids) < 0)
			return fail(s, s->dataline, "flamegraph-svg's --diff "
			    "data: a bad node");
		if (kids > UINT32_MAX)
			return fail(s, s->dataline, "flamegraph-svg's --diff "
			    "data: more callees than nodes");
		x = bars_add(b, "", 0, 0, s->dataline);
		x->name = ids[v];
		x->row = (uint32_t)kids;	/* callees, until linked */
		nfr++;
	}
	/* link: node i's callees are the next row[i] nodes not yet taken */
	for (size_t i = 0; i < nfr; i++) {
		uint32_t kids = b->b[i].row;

		if (next + kids > nfr || next + kids < next)
			return fail(s, s->dataline, "flamegraph-svg's --diff "
			    "data: more callees than nodes");
		for (uint32_t c = 0; c < kids; c++)
			b->b[next++].parent = (uint32_t)i;
	}
	if (nfr == 0 || next != nfr)
		return fail(s, s->dataline, "flamegraph-svg's --diff data: "
		    "nodes that no node calls");
	for (int c = 0; c < 2; c++) {
		const char *p = sv[c];

		self[c] = xmalloc(nfr * sizeof *self[c]);
		for (size_t i = 0; i < nfr; i++)
			if (dval(&p, p ? d->dvs[2 + c] + d->dvsn[2 + c] : NULL,
			    d->dv[2 + c], d->ndv[2 + c], i, &one, &self[c][i]) < 0)
				return fail(s, s->dataline, "flamegraph-svg's "
				    "--diff data: a bad self count");
	}
	return 0;
}

/*
 * The rows of flamegraph-svg's data as bars: in each row, frames in
 * order, each starting a gap after the one before it ends.
 */
static int
data_rows(struct svg *s, struct sdata *d, const uint32_t *ids, size_t nn,
    struct bars *b)
{
	const char *np = d->n, *ne = d->n ? d->n + d->nn : NULL;
	const char *mp = d->name, *me = d->name ? d->name + d->namen : NULL;
	size_t i = 0;

	for (uint32_t row = 0; row < d->nrows; row++) {
		struct count end = { 0, 0 };

		for (uint64_t f = 0; f < d->rowlen[row]; f++, i++) {
			struct count v, g = { 0, 0 };
			struct bar *x;
			uint64_t nmv;

			if (d->narr) {
				if (dval(&np, ne, d->narr, d->nnarr, i, &d->unit,
				    &v) < 0)
					return fail(s, s->dataline, "flamegraph-svg's "
					    "data: fewer counts than frames");
				if (i < d->ngap)
					g = d->gap[i];
			} else {
				uint64_t x2;

				if (np == NULL || vlq(&np, ne, &x2) < 0)
					return fail(s, s->dataline, "flamegraph-svg's "
					    "data: fewer counts than frames");
				if ((x2 & 1) && (vlq(&np, ne, &g.whole) < 0 ||
				    (g.whole && d->unit.whole > UINT64_MAX / g.whole)))
					return fail(s, s->dataline, "flamegraph-svg's "
					    "data: a bad gap");
				g.whole *= d->unit.whole;
				if ((x2 >> 1) && d->unit.whole > UINT64_MAX / (x2 >> 1))
					return fail(s, s->dataline, "flamegraph-svg's "
					    "data: a count past 2^64");
				v = (struct count){ (x2 >> 1) * d->unit.whole, 0 };
			}
			if (mp == NULL || vlq(&mp, me, &nmv) < 0 || nmv >= nn)
				return fail(s, s->dataline, "flamegraph-svg's data: "
				    "a frame's name outside the names");
			x = bars_add(b, "", 0, row, s->dataline);
			x->name = ids[nmv];
			if (count_add(&end, &g) < 0)
				return fail(s, s->dataline, "flamegraph-svg's data: "
				    "a position past 2^64");
			x->start = end;
			x->w = x->tot[0] = v;
			if (count_add(&end, &v) < 0)
				return fail(s, s->dataline, "flamegraph-svg's data: "
				    "a position past 2^64");
		}
	}
	return 0;
}

/*
 * A differential graph: the before column's selves are the after's
 * less each frame's delta (its stacks' after - before).
 */
static int
before_selves(struct svg *s, const struct bars *b, const double *delta,
    size_t ndelta, const struct count *after, struct count *before)
{
	int rounded = 0;

	for (size_t i = 0; i < b->n; i++) {
		double dl = i < ndelta ? delta[i] : 0;
		struct count dc = { 0, 0 };

		before[i] = after[i];
		if (dl != floor(dl))
			rounded = 1;
		if (fabs(dl) >= 0x1p63)
			return fail(s, b->b[i].line, "a delta past 2^63");
		dc.whole = (uint64_t)llround(fabs(dl));
		if (dl < 0 && count_add(&before[i], &dc) < 0)
			return fail(s, b->b[i].line, "a count past 2^64");
		if (dl > 0 && count_sub(&before[i], &dc) < 0) {
			if (!rounded)
				return fail(s, b->b[i].line, "a delta larger than "
				    "the frame's self count");
			before[i] = (struct count){ 0, 0 };
		}
	}
	return 0;
}

static int
from_data(struct svg *s, struct bars *b, struct count **self)
{
	struct sdata d;
	struct json j;
	uint32_t *ids = NULL;
	size_t nn = 0;
	int ret = 0;

	memset(&d, 0, sizeof d);
	json_init_mem(&j, s->data, s->datan, s->dataline);
	if (data_read(&j, &d) < 0) {
		s->r->line = j.err ? j.errline : j.line;
		ret = rd_fail(s->r, "flamegraph-svg's data: %s",
		    j.err ? j.err : "not the data of a flame graph");
	} else if (d.nrows == 0 && !d.has_diff)
		ret = fail(s, s->dataline, "flamegraph-svg's data without rows");
	if (ret == 0 && (ids = data_names(s, &d, b, &nn)) == NULL)
		ret = -1;
	if (ret == 0 && d.has_diff)
		ret = data_tree(s, &d, ids, nn, b, self);
	else if (ret == 0) {
		ret = data_rows(s, &d, ids, nn, b);
		if (ret == 0)
			ret = bars_nest(b, s->r);
		if (ret == 0) {
			self[1] = xmalloc((b->n + 1) * sizeof *self[1]);
			ret = bars_self(b, s->r, 0, self[1]);
		}
		if (ret == 0 && d.delta) {
			self[0] = xmalloc((b->n + 1) * sizeof *self[0]);
			ret = before_selves(s, b, d.delta, d.ndelta, self[1],
			    self[0]);
		} else if (ret == 0) {
			self[0] = self[1];
			self[1] = NULL;
		}
	}
	free(ids);
	json_free(&j);
	data_free(&d);
	return ret;
}

/*
 * flamegraph.pl's rounded positions.  Its frames come from stacks sorted
 * as text, so a frame's self is on its left and its callees tile the rest
 * of it, ending exactly where it ends, in the order of their names.  A
 * row is placed from the right, parent by parent of the row below (whose
 * exact spans are known): the parent's next callee is a frame whose
 * estimated end meets the parent's cursor, fits in what is left of it and
 * sorts before the callee placed last; or the parent is done, its self
 * what is left, when no frame still to place must end past its start.
 * Rounding lets tiny neighbours meet more than one cursor, so this is a
 * search: a choice that leaves a frame nowhere to go is undone and the
 * next one tried, names in descending order first, then "done".  Frames
 * placed where another choice was open are counted in *guessed.  A row
 * whose search runs past its budget (hostile input) is placed greedily,
 * each frame on the parent with room whose cursor is nearest; a frame
 * that no parent has room for is an error: the counts do not add up.
 */
struct prow {
	struct bars *b;
	const double *x;	/* estimated starts, in count units */
	double tol;
	size_t *par, np;	/* the row below, by start */
	size_t *ch, nch;	/* the row, by estimated end */
	double *ee;		/* ch's estimated ends */
	char *placed;		/* by position in ch */
	size_t *opt;		/* options of one step, positions in ch */
	double *dist;		/* and how far each is from where it would go */
};

/* One decision of the search, with the state it was taken in. */
struct pstep {
	size_t pi;		/* the parent being filled, in par */
	struct count cur;	/* where its next callee ends */
	uint32_t prev;		/* the callee placed last, BAR_NONE for none */
	size_t hi;		/* ch[hi..] are all placed */
	size_t k, nopt;		/* option taken, options there were */
	size_t took;		/* its frame, in ch; SIZE_MAX: the parent done */
};

static int
place_by_end(const void *pa, const void *pb, const void *ctx)
{
	const struct prow *pr = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double ea = pr->x[a] + (double)count_ld(&pr->b->b[a].tot[0]);
	double eb = pr->x[b] + (double)count_ld(&pr->b->b[b].tot[0]);

	return ea < eb ? -1 : ea > eb;
}

static int
place_by_start(const void *pa, const void *pb, const void *ctx)
{
	const struct bar *bs = ctx;

	return count_cmp(&bs[*(const size_t *)pa].start,
	    &bs[*(const size_t *)pb].start);
}

/*
 * May a callee named a lie left of its sibling b?  flamegraph.pl sorts
 * "NAME;..." and "NAME COUNT" lines, and its titles drop a "_[k]"-style
 * annotation, so where one name is the other's prefix and the longer
 * goes on with a byte from ' ' to '_', either order can be.
 */
static int
name_left_of(const struct intern *t, uint32_t a, uint32_t b)
{
	const unsigned char *sa = (const unsigned char *)intern_str(t, a);
	const unsigned char *sb = (const unsigned char *)intern_str(t, b);
	size_t la = intern_len(t, a), lb = intern_len(t, b), i;

	for (i = 0; i < la && i < lb; i++)
		if (sa[i] != sb[i])
			return sa[i] < sb[i];
	if (la == lb)
		return 1;
	i = la < lb ? sb[la] : sa[lb];
	if (i >= ' ' && i <= '_')
		return 1;
	return (la < lb) == (i > '_');
}

/*
 * The options at st, best first: callees by how near their estimated
 * end is to the cursor, then by descending name (equal estimates: the
 * rightmost of siblings sorts last); then "done" (SIZE_MAX), when no
 * frame still to place must end right of the parent's start.
 */
static size_t
place_options(struct prow *pr, const struct pstep *st)
{
	const struct bar *p = &pr->b->b[pr->par[st->pi]];
	double cur = (double)count_ld(&st->cur);
	struct count room = st->cur;
	size_t n = 0, lo = 0, hi = st->hi;

	(void)count_sub(&room, &p->start);
	/* the first with an estimated end past cur - tol */
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (pr->ee[m] < cur - pr->tol)
			lo = m + 1;
		else
			hi = m;
	}
	for (size_t j = lo; j < st->hi && pr->ee[j] <= cur + pr->tol; j++) {
		const struct bar *c = &pr->b->b[pr->ch[j]];
		double d = fabs(pr->ee[j] - cur);
		size_t k;

		if (pr->placed[j] || count_cmp(&c->tot[0], &room) > 0 ||
		    (st->prev != BAR_NONE &&
		    !name_left_of(&pr->b->names, c->name, st->prev)))
			continue;
		for (k = n; k > 0 && (pr->dist[k - 1] > d ||
		    (pr->dist[k - 1] == d && intern_cmp(&pr->b->names,
		    pr->b->b[pr->ch[pr->opt[k - 1]]].name, c->name) < 0)); k--) {
			pr->opt[k] = pr->opt[k - 1];
			pr->dist[k] = pr->dist[k - 1];
		}
		pr->opt[k] = j;
		pr->dist[k] = d;
		n++;
	}
	if (st->hi == 0 || pr->ee[st->hi - 1] - pr->tol <=
	    (double)count_ld(&p->start))
		pr->opt[n++] = SIZE_MAX;
	return n;
}

/* Search one row; 1 when placed, 0 when the budget ran out or no way is. */
static int
place_search(struct prow *pr, struct pstep *stk, uint64_t budget,
    size_t *guessed, uint64_t *gweight)
{
	struct bars *b = pr->b;
	size_t depth = 0;
	struct pstep st;

	if (pr->np == 0)
		return pr->nch == 0;
	st = (struct pstep){ pr->np - 1, b->b[pr->par[pr->np - 1]].start,
	    BAR_NONE, pr->nch, 0, 0, 0 };
	(void)count_add(&st.cur, &b->b[pr->par[pr->np - 1]].tot[0]);
	for (;;) {
		while (st.hi > 0 && pr->placed[st.hi - 1])
			st.hi--;
		if (st.pi == SIZE_MAX && st.hi == 0)
			break;
		/* a frame left that must end right of the cursor: dead end */
		st.nopt = st.pi == SIZE_MAX || (st.hi > 0 && pr->ee[st.hi - 1] -
		    pr->tol > (double)count_ld(&st.cur)) ? 0 :
		    place_options(pr, &st);
		st.k = 0;
		while (st.k == st.nopt) {
			if (depth == 0 || budget-- == 0)
				return 0;
			st = stk[--depth];
			if (st.took != SIZE_MAX)
				pr->placed[st.took] = 0;
			if (++st.k < st.nopt)
				place_options(pr, &st);
		}
		st.took = pr->opt[st.k];
		stk[depth++] = st;
		if (st.took == SIZE_MAX) {
			if (st.pi-- > 0) {
				st.cur = b->b[pr->par[st.pi]].start;
				(void)count_add(&st.cur, &b->b[pr->par[st.pi]].tot[0]);
			} else
				st.pi = SIZE_MAX;
			st.prev = BAR_NONE;
		} else {
			pr->placed[st.took] = 1;
			(void)count_sub(&st.cur, &b->b[pr->ch[st.took]].tot[0]);
			st.prev = b->b[pr->ch[st.took]].name;
		}
	}
	/* the way found: parents and exact starts along it */
	for (size_t i = 0; i < depth; i++) {
		struct bar *c;

		if (stk[i].took == SIZE_MAX)
			continue;
		c = &b->b[pr->ch[stk[i].took]];
		c->parent = (uint32_t)pr->par[stk[i].pi];
		c->start = stk[i].cur;
		(void)count_sub(&c->start, &c->tot[0]);
		if (stk[i].nopt > 1) {
			++*guessed;
			*gweight += c->tot[0].whole;
		}
	}
	return 1;
}

/* The greedy fallback: each frame, from the right, on the nearest cursor. */
static int
place_greedy(struct svg *s, struct prow *pr, struct count *cur,
    size_t *guessed, uint64_t *gweight)
{
	struct bars *b = pr->b;

	for (size_t i = 0; i < pr->np; i++) {
		cur[i] = b->b[pr->par[i]].start;
		(void)count_add(&cur[i], &b->b[pr->par[i]].tot[0]);
	}
	for (size_t j = pr->nch; j-- > 0; ) {
		struct bar *c = &b->b[pr->ch[j]];
		size_t pick = SIZE_MAX;
		double best = 0;

		for (size_t i = 0; i < pr->np; i++) {
			struct count room = cur[i];
			double d = fabs((double)count_ld(&cur[i]) - pr->ee[j]);

			if (count_sub(&room, &b->b[pr->par[i]].start) < 0 ||
			    count_cmp(&room, &c->tot[0]) < 0)
				continue;
			if (pick == SIZE_MAX || d < best) {
				pick = i;
				best = d;
			}
		}
		if (pick == SIZE_MAX)
			return fail(s, c->line, "a frame that no frame below "
			    "has room for: the counts do not add up");
		(void)count_sub(&cur[pick], &c->tot[0]);
		c->parent = (uint32_t)pr->par[pick];
		c->start = cur[pick];
		++*guessed;
		*gweight += c->tot[0].whole;
	}
	return 0;
}

static int
place(struct svg *s, struct bars *b, const double *x, double tol,
    size_t *guessed, uint64_t *gweight)
{
	struct prow pr = { b, x, tol, NULL, 0, NULL, 0, NULL, NULL, NULL, NULL };
	struct pstep *stk = xmalloc((2 * b->n + 2) * sizeof *stk);
	struct count *cur = xmalloc((b->n + 1) * sizeof *cur);
	uint32_t maxrow = 0;
	int ret = 0;

	pr.par = xmalloc((b->n + 1) * sizeof *pr.par);
	pr.ch = xmalloc((b->n + 1) * sizeof *pr.ch);
	pr.ee = xmalloc((b->n + 1) * sizeof *pr.ee);
	pr.placed = xmalloc(b->n + 1);
	pr.opt = xmalloc((b->n + 2) * sizeof *pr.opt);
	pr.dist = xmalloc((b->n + 2) * sizeof *pr.dist);
	for (size_t i = 0; i < b->n; i++)
		if (b->b[i].row > maxrow)
			maxrow = b->b[i].row;
	for (uint32_t d = 1; d <= maxrow && ret == 0; d++) {
		pr.np = pr.nch = 0;
		for (size_t i = 0; i < b->n; i++)
			if (b->b[i].row == d - 1)
				pr.par[pr.np++] = i;
			else if (b->b[i].row == d)
				pr.ch[pr.nch++] = i;
		sort_ctx(pr.par, pr.np, sizeof *pr.par, place_by_start, b->b);
		sort_ctx(pr.ch, pr.nch, sizeof *pr.ch, place_by_end, &pr);
		for (size_t j = 0; j < pr.nch; j++)
			pr.ee[j] = x[pr.ch[j]] + (double)count_ld(&b->b[pr.ch[j]].tot[0]);
		memset(pr.placed, 0, pr.nch);
		if (!place_search(&pr, stk, 1000 * (uint64_t)pr.nch + 100000,
		    guessed, gweight))
			ret = place_greedy(s, &pr, cur, guessed, gweight);
	}
	free(pr.par);
	free(pr.ch);
	free(pr.ee);
	free(pr.placed);
	free(pr.opt);
	free(pr.dist);
	free(stk);
	free(cur);
	return ret;
}

/* The frames of flamegraph.pl's or inferno's SVG as bars. */
static int
from_frames(struct svg *s, struct bars *b, struct count **self)
{
	size_t root = s->nfr, i, guessed = 0;
	double step = 0, *x = NULL, *delta = xmalloc((s->nfr + 1) * sizeof *delta);
	uint64_t gweight = 0;
	int exact = 1, has_delta = 0, ret = 0;

	for (i = 0; i < s->nfr; i++) {
		struct sframe *f = &s->fr[i];
		struct count c;
		size_t nl;
		int hd;

		if (title_parse(f->title, f->tlen, &nl, &c, &delta[i], &hd) < 0) {
			free(delta);
			return fail(s, f->line, "a frame's title without a count "
			    "(\"NAME (COUNT samples, PCT%)\")");
		}
		if (!f->has_y) {
			free(delta);
			return fail(s, f->line, "a frame's <rect> without y");
		}
		has_delta |= hd;
		exact &= f->has_fg;
		bars_add(b, f->title, nl, 0, f->line)->tot[0] = c;
		if (nl == 3 && memcmp(f->title, "all", 3) == 0 &&
		    (root == s->nfr || count_cmp(&c, &b->b[root].tot[0]) > 0))
			root = i;
	}
	if (root == s->nfr) {
		free(delta);
		return fail(s, s->line, s->nfr ? "no root frame (\"all\")" :
		    "an SVG without flame graph frames");
	}
	for (i = 0; i < s->nfr; i++) {
		double dy = fabs(s->fr[i].y - s->fr[root].y);

		if (dy > 0.5 && (step == 0 || dy < step))
			step = dy;
	}
	for (i = 0; i < s->nfr && ret == 0; i++) {
		double dy = fabs(s->fr[i].y - s->fr[root].y);
		double r = step > 0 ? floor(dy / step + 0.5) : 0;

		if (fabs(r * step - dy) > 0.01 * step + 0.01 || r > 1e6)
			ret = fail(s, s->fr[i].line, "a frame between rows");
		b->b[i].row = (uint32_t)r;
		if (exact) {
			b->b[i].start = (struct count){ s->fr[i].fgx, 0 };
			b->b[i].w = b->b[i].tot[0] = (struct count){ s->fr[i].fgw, 0 };
		}
	}
	if (ret == 0 && exact)
		ret = bars_nest(b, s->r);
	else if (ret == 0) {
		double c = (double)count_ld(&b->b[root].tot[0]);
		double w = s->fr[root].w > 0 ? s->fr[root].w : 1;

		x = xmalloc((s->nfr + 1) * sizeof *x);
		for (i = 0; i < s->nfr; i++)
			x[i] = (s->fr[i].x - s->fr[root].x) * c / w;
		ret = place(s, b, x, 0.06 * c / w + 1e-9 * c, &guessed, &gweight);
		free(x);
		if (ret == 0 && guessed) {
			char t[COUNT_TEXT_MAX];

			warn_at(s->r->name, 0, "%zu frame%s (%llu of %.*s) could "
			    "lie on more than one frame below: placed by counts "
			    "and the order of names, maybe wrongly (draw with a "
			    "wider --width to read back exactly)", guessed,
			    guessed == 1 ? "" : "s", (unsigned long long)gweight,
			    (int)count_fmt(t, &b->b[root].tot[0]), t);
		}
	}
	if (ret == 0) {
		self[has_delta] = xmalloc((b->n + 1) * sizeof **self);
		ret = bars_self(b, s->r, 0, self[has_delta]);
	}
	if (ret == 0 && has_delta) {
		double total = (double)count_ld(&b->b[root].tot[0]);

		for (i = 0; i < s->nfr; i++)
			delta[i] = delta[i] * total / 100;
		self[0] = xmalloc((b->n + 1) * sizeof **self);
		ret = before_selves(s, b, delta, s->nfr, self[1], self[0]);
	}
	free(delta);
	return ret;
}

/* Read r's input whole into *all (the caller frees it) and scan it. */
static int
load(struct svg *s, struct reader *r, char **all)
{
	size_t n = 0, cap = 0, bn;
	const char *p;
	int atb, ret;

	memset(s, 0, sizeof *s);
	s->r = r;
	*all = NULL;
	while ((ret = input_next(r->in, &p, &bn, &atb)) > 0) {
		*all = xgrow(*all, &cap, n + bn + 1, 1);
		memcpy(*all + n, p, bn);
		n += bn;
	}
	if (ret < 0)
		return -1;
	s->p = *all ? *all : "";
	s->e = s->p + n;
	return scan(s);
}

static void
svg_free(struct svg *s)
{
	for (size_t i = 0; i < s->nfr; i++)
		free(s->fr[i].title);
	free(s->fr);
	free(s->buf);
}

int
svg_block_read(struct reader *r, struct svg_block *b)
{
	struct svg s;
	int ret = load(&s, r, &b->file);

	b->data = s.data;
	b->n = s.datan;
	b->line = s.dataline;
	b->off = s.data ? (uint64_t)(s.data - s.p) : 0;
	b->timeline = s.timeline;
	svg_free(&s);
	return ret;
}

static int
svg_collapse(struct reader *r)
{
	struct svg s;
	struct bars b;
	struct count *self[2] = { NULL, NULL };
	char *all;
	int ret;

	bars_init(&b);
	ret = load(&s, r, &all);
	if (ret == 0 && s.timeline)
		ret = fail(&s, s.dataline, "a timeline SVG: its spans are read "
		    "back with --to=spans");
	else if (ret == 0 && s.data)
		ret = from_data(&s, &b, self);
	else if (ret == 0)
		ret = from_frames(&s, &b, self);
	if (ret == 0)
		bars_emit(&b, r, self[0], self[1]);
	if (self[1] != self[0])
		free(self[1]);
	free(self[0]);
	bars_free(&b);
	svg_free(&s);
	free(all);
	return ret;
}

/* An XML document whose first element is <svg>. */
static int
svg_detect(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && strchr(" \t\r\n", p[i]))
		i++;
	if (i + 5 > n || p[i] != '<')
		return 0;
	return (p[i + 1] == '?' || p[i + 1] == '!' || memcmp(p + i, "<svg", 4) == 0) &&
	    memmem(p + i, n - i, "<svg", 4) != NULL;
}

const struct format svg_format = {
	.name = "svg",
	.detect = svg_detect,
	.collapse = svg_collapse,
	.all_or_nothing = 1,
};
