/*
 * xctrace: Instruments' Time Profiler exported as XML (inferno-collapse-
 * xctrace).
 *
 *	xctrace record --template 'Time Profiler' --launch -- ./prog
 *	xctrace export --input prog.trace --xpath \
 *	    '/trace-toc/run/data/table[@schema="time-profile"]' > prof.xml
 *
 * Each <row> of a <node> in <trace-query-result> is one sample; its
 * <backtrace> lists <frame name="..."> from the leaf.  xctrace writes a
 * backtrace or frame once with id="N" and later as ref="N", so both are
 * kept by id.  A sample counts 1, as inferno counts (not its weight).
 *
 * The reader takes blocks that end at a '>' and scans tags only (text is
 * never needed); a tag cut by a block's end is carried to the next.
 * Comments, declarations and processing instructions are skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/demangle.h"
#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/num.h"
#include "formats.h"

enum { T_NONE, T_TQR, T_NODE, T_ROW, T_BT, T_FRAME };

struct xc {
	struct reader *r;
	int st[8];		/* open tags of interest */
	int nst;
	struct intern fids, bids;	/* frame and backtrace ids */
	struct intern names;	/* frame names, tidied */
	uint32_t *fname;	/* per frame: its name */
	size_t fcap;
	uint32_t *bstart, *blen;	/* per backtrace: range in bframes */
	size_t bcap;
	uint32_t *bframes;	/* frames, leaf first */
	size_t nbf, bfcap;
	uint32_t cur_bt;	/* backtrace being read, or the row's */
	int row_has_bt;
	uint64_t *rows;		/* per backtrace: samples */
	size_t rcap;
	int done;
	uint64_t uncounted;	/* newlines after a block's last tag */
	char *tmp;
	size_t tmpcap;
	struct fstack fs;
};

struct attrs {
	const char *id, *ref, *name;
	size_t idn, refn, namen;
};

static int
tag_is(const char *s, size_t n, const char *name)
{
	return n == strlen(name) && memcmp(s, name, n) == 0;
}

static int
kind(const char *s, size_t n)
{
	return tag_is(s, n, "trace-query-result") ? T_TQR : tag_is(s, n, "node") ?
	    T_NODE : tag_is(s, n, "row") ? T_ROW : tag_is(s, n, "backtrace") ?
	    T_BT : tag_is(s, n, "frame") ? T_FRAME : T_NONE;
}

static int
num(struct xc *x, const char *s, size_t n, const char *what, uint64_t *v)
{
	if (!fmt_all_digits(s, n) || num_parse_u64(s, n, v) < 0)
		return rd_fail(x->r, "invalid %s \"%.*s\"", what, (int)n, s);
	return 0;
}

/* XML's five entities and character references, in place in x->tmp. */
static size_t
unescape(struct xc *x, const char *s, size_t n)
{
	size_t w = 0;

	x->tmp = xgrow(x->tmp, &x->tmpcap, n + 1, 1);
	for (size_t i = 0; i < n;) {
		static const struct { const char *e; char c; } ent[] = {
			{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
			{ "&quot;", '"' }, { "&apos;", '\'' },
		};
		size_t k;

		if (s[i] != '&') {
			x->tmp[w++] = s[i++];
			continue;
		}
		for (k = 0; k < 5; k++) {
			size_t el = strlen(ent[k].e);

			if (n - i >= el && memcmp(s + i, ent[k].e, el) == 0) {
				x->tmp[w++] = ent[k].c;
				i += el;
				break;
			}
		}
		if (k < 5)
			continue;
		if (n - i > 3 && s[i + 1] == '#') {
			const char *semi = memchr(s + i, ';', n - i);
			unsigned long cp;
			char *end;

			if (semi != NULL && semi - (s + i) < 12) {
				char b[16];

				memcpy(b, s + i + 2, (size_t)(semi - s - i - 2));
				b[semi - s - i - 2] = '\0';
				cp = b[0] == 'x' ? strtoul(b + 1, &end, 16) :
				    strtoul(b, &end, 10);
				if (*end == '\0' && cp > 0 && cp < 0x110000 &&
				    (cp < 0xd800 || cp > 0xdfff) && b[0] != '\0') {
					if (cp < 0x80)
						x->tmp[w++] = (char)cp;
					else if (cp < 0x800) {
						x->tmp[w++] = (char)(0xc0 | cp >> 6);
						x->tmp[w++] = (char)(0x80 | (cp & 0x3f));
					} else if (cp < 0x10000) {
						x->tmp[w++] = (char)(0xe0 | cp >> 12);
						x->tmp[w++] = (char)(0x80 | (cp >> 6 & 0x3f));
						x->tmp[w++] = (char)(0x80 | (cp & 0x3f));
					} else {
						x->tmp[w++] = (char)(0xf0 | cp >> 18);
						x->tmp[w++] = (char)(0x80 | (cp >> 12 & 0x3f));
						x->tmp[w++] = (char)(0x80 | (cp >> 6 & 0x3f));
						x->tmp[w++] = (char)(0x80 | (cp & 0x3f));
					}
					i = (size_t)(semi - s) + 1;
					continue;
				}
			}
		}
		x->tmp[w++] = s[i++];
	}
	return w;
}

/* Frame id -> its index; -1 (reported) when unknown or repeated. */
static int
frame_id(struct xc *x, const struct attrs *a, uint32_t *out)
{
	uint64_t id;
	int isnew;

	if (a->ref) {
		if (num(x, a->ref, a->refn, "frame ref", &id) < 0)
			return -1;
		if (intern_find(&x->fids, &id, sizeof id, out) < 0)
			return rd_fail(x->r, "frame ref=\"%llu\" names no frame "
			    "before it", (unsigned long long)id);
		return 0;
	}
	if (!a->id || !a->name)
		return rd_fail(x->r, "a <frame> without id and name, or ref");
	if (num(x, a->id, a->idn, "frame id", &id) < 0)
		return -1;
	*out = intern_put(&x->fids, &id, sizeof id, &isnew);
	if (!isnew)
		return rd_fail(x->r, "frame id %llu appears twice",
		    (unsigned long long)id);
	{
		size_t n = unescape(x, a->name, a->namen), k;
		char *fixed = xmalloc(n + 1);
		const char *nm = x->tmp;

		if ((k = demangle_rust_tidy(x->tmp, n, fixed)) != 0) {
			nm = fixed;
			n = k;
		}
		x->fname = xgrow(x->fname, &x->fcap, *out + 1, sizeof *x->fname);
		x->fname[*out] = intern_put(&x->names, nm, n, NULL);
		free(fixed);
	}
	return 0;
}

/* A new backtrace (id), or a ref to one; sets x->cur_bt. */
static int
backtrace(struct xc *x, const struct attrs *a)
{
	uint64_t id;
	uint32_t b;
	int isnew;

	if (a->ref) {
		if (num(x, a->ref, a->refn, "backtrace ref", &id) < 0)
			return -1;
		if (intern_find(&x->bids, &id, sizeof id, &b) < 0)
			return rd_fail(x->r, "backtrace ref=\"%llu\" names no "
			    "backtrace before it", (unsigned long long)id);
	} else {
		if (!a->id)
			return rd_fail(x->r, "a <backtrace> without id or ref");
		if (num(x, a->id, a->idn, "backtrace id", &id) < 0)
			return -1;
		b = intern_put(&x->bids, &id, sizeof id, &isnew);
		if (!isnew)
			return rd_fail(x->r, "backtrace id %llu appears twice",
			    (unsigned long long)id);
		x->bstart = xgrow(x->bstart, &x->bcap, b + 1, sizeof *x->bstart);
		x->blen = xrealloc(x->blen, x->bcap * sizeof *x->blen);
		x->bstart[b] = (uint32_t)x->nbf;
		x->blen[b] = 0;
		if (b >= x->rcap) {
			size_t old = x->rcap;

			x->rows = xgrow(x->rows, &x->rcap, b + 1, sizeof *x->rows);
			memset(x->rows + old, 0, (x->rcap - old) * sizeof *x->rows);
		}
	}
	x->cur_bt = b;
	x->row_has_bt = 1;
	return 0;
}

static void
add_frame(struct xc *x, uint32_t f)
{
	x->bframes = xgrow(x->bframes, &x->bfcap, x->nbf + 1, sizeof *x->bframes);
	x->bframes[x->nbf++] = f;
	x->blen[x->cur_bt]++;
}

/* A row ended with a backtrace: one sample. */
static void
sample(struct xc *x)
{
	uint32_t b = x->cur_bt;

	if (x->r->sink->noagg) {
		size_t n;
		const char *s;

		fs_truncate(&x->fs, 0);
		for (uint32_t i = x->blen[b]; i-- > 0;) {
			uint32_t nm = x->fname[x->bframes[x->bstart[b] + i]];

			fs_push(&x->fs, intern_str(&x->names, nm),
			    intern_len(&x->names, nm));
		}
		s = fs_join(&x->fs, 0, &n);
		sink_put(x->r->sink, s, n, 1, 0);
		return;
	}
	x->rows[b]++;
}

static void
attrs_read(const char *p, const char *e, struct attrs *a)
{
	memset(a, 0, sizeof *a);
	while (p < e) {
		const char *k, *v, *q;
		size_t kn;

		while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' ||
		    *p == '\r' || *p == '/'))
			p++;
		for (k = p; p < e && *p != '=' && *p != ' ' && *p != '>'; p++)
			;
		kn = (size_t)(p - k);
		while (p < e && *p == ' ')
			p++;
		if (p >= e || *p != '=')
			break;
		p++;
		while (p < e && *p == ' ')
			p++;
		if (p >= e || (*p != '"' && *p != '\''))
			break;
		v = p + 1;
		if ((q = memchr(v, *p, (size_t)(e - v))) == NULL)
			break;
		p = q + 1;
		if (tag_is(k, kn, "id"))
			a->id = v, a->idn = (size_t)(q - v);
		else if (tag_is(k, kn, "ref"))
			a->ref = v, a->refn = (size_t)(q - v);
		else if (tag_is(k, kn, "name"))
			a->name = v, a->namen = (size_t)(q - v);
	}
}

/* One tag s[0..n), '<' and '>' excluded. */
static int
tag(struct xc *x, const char *s, size_t n)
{
	int endtag = n && s[0] == '/', empty = n && s[n - 1] == '/';
	const char *nm = s + endtag, *ne;
	int k, top = x->nst ? x->st[x->nst - 1] : T_NONE;
	struct attrs a;

	for (ne = nm; ne < s + n && *ne != ' ' && *ne != '/' && *ne != '\t' &&
	    *ne != '\n' && *ne != '\r'; ne++)
		;
	k = kind(nm, (size_t)(ne - nm));
	if (endtag) {
		if (k == T_NONE)
			return 0;
		if (top != k)
			return rd_fail(x->r, "</%.*s> closes no open <%.*s>",
			    (int)(ne - nm), nm, (int)(ne - nm), nm);
		x->nst--;
		if (k == T_TQR)
			x->done = 1;
		else if (k == T_ROW && x->row_has_bt)
			sample(x);
		return 0;
	}
	if (k == T_NONE || !(k == top + 1 || (k == T_TQR && top == T_NONE)))
		return 0;
	attrs_read(ne, s + n, &a);
	if (k == T_BT) {
		if (backtrace(x, &a) < 0)
			return -1;
	} else if (k == T_FRAME) {
		uint32_t f;

		if (frame_id(x, &a, &f) < 0)
			return -1;
		if (a.ref && !empty)
			return rd_fail(x->r, "a <frame ref=...> with content");
		add_frame(x, f);
	} else if (k == T_ROW) {
		x->row_has_bt = 0;
	}
	if (k == T_BT && a.ref && !empty)
		return rd_fail(x->r, "a <backtrace ref=...> with content");
	if (!empty)
		x->st[x->nst++] = k;
	else if (k == T_TQR)
		x->done = 1;
	return 0;
}

/*
 * Scan p[0..n) for tags; returns how many bytes were used (the rest is an
 * unfinished tag), or -1 after an error.
 */
static long long
scan(struct xc *x, const char *p, size_t n)
{
	const char *e = p + n, *q = p, *lt, *gt;

	while (!x->done && (lt = memchr(q, '<', (size_t)(e - q))) != NULL) {
		size_t rest = (size_t)(e - lt);
		const char *close = NULL;

		for (const char *c = q; c < lt; c++)
			x->r->line += *c == '\n';
		q = lt;
		if (rest >= 4 && memcmp(lt, "<!--", 4) == 0)
			close = memmem(lt + 4, rest - 4, "-->", 3), gt = close ?
			    close + 2 : NULL;
		else if (rest >= 9 && memcmp(lt, "<![CDATA[", 9) == 0)
			close = memmem(lt + 9, rest - 9, "]]>", 3), gt = close ?
			    close + 2 : NULL;
		else if (rest >= 2 && (lt[1] == '?' || lt[1] == '!'))
			gt = memchr(lt, '>', rest);
		else {
			char quote = 0;

			for (gt = lt + 1; gt < e; gt++) {
				if (quote) {
					if (*gt == quote)
						quote = 0;
				} else if (*gt == '"' || *gt == '\'')
					quote = *gt;
				else if (*gt == '>')
					break;
			}
			if (gt == e)
				gt = NULL;
			else if (tag(x, lt + 1, (size_t)(gt - lt - 1)) < 0)
				return -1;
		}
		if (gt == NULL)
			return (long long)(q - p);
		for (const char *c = q; c < gt; c++)
			x->r->line += *c == '\n';
		q = gt + 1;
	}
	if (!x->done)	/* not in r->line, but lines all the same */
		for (const char *c = q; c < e; c++)
			x->uncounted += *c == '\n';
	return x->done ? (long long)n : (long long)(e - p);
}

static void
write_all(struct xc *x)
{
	uint32_t nb = (uint32_t)intern_count(&x->bids);

	for (uint32_t b = 0; b < nb; b++) {
		size_t n;
		const char *s;

		if (x->rows[b] == 0)
			continue;
		fs_truncate(&x->fs, 0);
		for (uint32_t i = x->blen[b]; i-- > 0;) {
			uint32_t nm = x->fname[x->bframes[x->bstart[b] + i]];

			fs_push(&x->fs, intern_str(&x->names, nm),
			    intern_len(&x->names, nm));
		}
		s = fs_join(&x->fs, 0, &n);
		sink_put(x->r->sink, s, n, x->rows[b], 0);
	}
}

static int
xctrace_collapse(struct reader *r)
{
	struct xc x;
	char *carry = NULL;
	size_t ncarry = 0, carrycap = 0, n;
	const char *p;
	int atb, ret = 0, rr = 0;

	memset(&x, 0, sizeof x);
	x.r = r;
	intern_init(&x.fids);
	intern_init(&x.bids);
	intern_init(&x.names);
	fs_init(&x.fs);
	r->line = 1;
	input_set_boundary(r->in, ">");
	while (!x.done && (rr = input_next(r->in, &p, &n, &atb)) > 0) {
		long long used;

		if (ncarry) {
			carry = xgrow(carry, &carrycap, ncarry + n, 1);
			memcpy(carry + ncarry, p, n);
			p = carry;
			n += ncarry;
		}
		if ((used = scan(&x, p, n)) < 0) {
			ret = -1;
			break;
		}
		ncarry = n - (size_t)used;
		if (ncarry && p != carry) {
			carry = xgrow(carry, &carrycap, ncarry, 1);
			memcpy(carry, p + used, ncarry);
		} else if (ncarry)
			memmove(carry, p + used, ncarry);
		/* For input.h's line too long: the unfinished tag's too. */
		r->in->lines = r->line - 1 + x.uncounted;
		for (size_t i = 0; i < ncarry; i++)
			r->in->lines += carry[i] == '\n';
	}
	if (rr < 0)
		ret = -1;
	else if (ret == 0 && !x.done)
		ret = rd_fail(r, "input ends before </trace-query-result>");
	if (ret == 0 && !r->sink->noagg)
		write_all(&x);
	intern_free(&x.fids);
	intern_free(&x.bids);
	intern_free(&x.names);
	fs_free(&x.fs);
	free(x.fname);
	free(x.bstart);
	free(x.blen);
	free(x.bframes);
	free(x.rows);
	free(x.tmp);
	free(carry);
	return ret;
}

static int
xctrace_detect(const char *p, size_t n)
{
	return memmem(p, n, "<?xml version=\"1.0\"", 19) != NULL &&
	    memmem(p, n, "<trace-query-result", 19) != NULL;
}

const struct format xctrace_format = {
	.name = "xctrace",
	.detect = xctrace_detect,
	.collapse = xctrace_collapse,
};
