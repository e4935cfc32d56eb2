/*
 * pprof: a profile.proto file (Go's runtime/pprof, pprof itself, the
 * continuous profilers), gzip-compressed (input.c inflates it) or plain.
 *
 *	curl -s host:6060/debug/pprof/profile?seconds=10 > cpu.pb.gz
 *	stackcollapse cpu.pb.gz | flamegraph-svg > cpu.svg
 *
 * A sample is a list of location ids, leaf first, and one value per
 * sample type; a location is a list of lines, the innermost inlined
 * function first and the function it was inlined into last; a line names
 * a function, whose name is an index into the string table.  Each sample
 * becomes one stack, root first, every inlined function a frame of its
 * own, as `go tool pprof -traces` lists them; a location with no line (an
 * unsymbolized profile) is its address in hex.  The value is the one of
 * --sample-type=NAME, by default the profile's default_sample_type, else
 * its last type (pprof's rule); samples whose value is zero make no
 * stack.  --labels puts a sample's labels ("key=value", numeric ones
 * "key=N", in the sample's order, blank-separated) in a root frame.
 *
 * The whole decoded input is read into memory and walked twice: first the
 * top-level fields are indexed (the offsets of the strings, the ids of
 * the functions and locations with where their messages are), since
 * Go writes the samples before the locations they name; then every
 * sample is decoded in turn and its value summed under its list of
 * location ids (key_add), which most samples repeat, and with --labels
 * its label frame; each distinct key becomes a stack once, at the end,
 * from the locations' frames joined once and kept (push_location).  With
 * --no-aggregate each sample is folded into the sink at once instead.
 * The samples themselves are never held.  The index costs a few bytes
 * per string, function and location, well under the bytes they take in
 * the file, the keys and the kept frames at most what the samples and
 * names take.  The stacks made of them are held by the sink, and a
 * location of many lines named by many samples makes gigabytes of them
 * from kilobytes: their text is bounded (EXPAND_MIN, EXPAND_RATIO), a
 * profile past it refused, which keeps memory to a small multiple of the
 * decoded size whatever the file claims (protobuf.h: lengths are
 * checked, never allocated).
 * Rejected: decoding into arrays of samples and locations (pprof's way),
 * eight bytes a varint of one or two.  Offsets are 32-bit: a decoded profile of 4 GiB or more is
 * refused.  Errors (a bad varint, a length past the end, an index out of
 * range, an id that names nothing) stop the file with the byte offset,
 * in the decoded bytes, where they were found.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/intern.h"
#include "../lib/protobuf.h"
#include "../lib/sort.h"
#include "formats.h"

/* profile.proto's field numbers. */
enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_LOCATION = 4, P_FUNCTION = 5,
	P_STRING = 6, P_DEFAULT_TYPE = 14,
	VT_TYPE = 1, VT_UNIT = 2,
	S_LOCATION = 1, S_VALUE = 2, S_LABEL = 3,
	L_KEY = 1, L_STR = 2, L_NUM = 3,
	LOC_ID = 1, LOC_ADDRESS = 3, LOC_LINE = 4,
	LINE_FUNCTION = 1,
	FN_ID = 1, FN_NAME = 2,
};

#define MAX_LOCS (1u << 20)	/* location ids of one sample */
#define MAX_STACK (64u << 20)	/* a stack's text, as input.h's lines */
#define HEAD_MIN 4096		/* a head that may end inside a field */
#define CACHE_MAX (64u << 20)	/* locations' frames kept, at least */
/*
 * All the stacks' text made from a profile, at most: EXPAND_MIN and
 * EXPAND_RATIO times the decoded size.  Real profiles make at most 6.3
 * times theirs (tests/data and ../shared/corpus captures, through
 * --to=pprof, whose ids are a byte or two); a location named by many
 * samples, or of many lines, makes gigabytes of a few kilobytes.
 */
#define EXPAND_MIN ((size_t)64 << 20)
#define EXPAND_RATIO 16

static struct {
	const char *sample_type;
	int labels;
} opt;

static void
set_sample_type(char *arg)
{
	opt.sample_type = arg;
}

static const struct fmt_option pprof_options[] = {
	{ "sample-type", NULL, 0, set_sample_type },
	{ "labels", &opt.labels, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

/* A string's bytes, buf[off, off + len). */
struct span {
	uint32_t off, len;
};

/* A function or location: its id and where its message is (or its name). */
struct ent {
	uint64_t id;
	uint32_t off, len;	/* location: the message; function: unused */
	uint64_t name;		/* function: its name's string index;
				   location: its frames in the cache */
};

struct pp {
	struct reader *r;
	unsigned char *buf;
	size_t n;
	struct span *str;	/* per string: where its bytes are */
	size_t nstr, strcap;
	struct ent *fn, *loc;
	size_t nfn, fncap, nloc, loccap;
	uint64_t *types;	/* string index of each sample type's name */
	uint64_t *units;	/* and of its unit */
	uint32_t *typeoff;	/* and where the type is */
	size_t ntypes, typecap, unitcap, toffcap;
	uint64_t deftype;
	uint32_t deftypeoff;	/* where default_sample_type is */
	size_t vi;		/* the value used */
	uint64_t *ids, *lines;	/* one sample's locations, one's lines */
	size_t idcap, linecap;
	int agg;		/* samples summed by key (key_add) */
	struct pb_buf key;	/* this sample's key */
	struct intern keys;
	uint64_t *kval;		/* per key: the sum of its values */
	uint32_t *koff;		/* and its first sample's offset */
	size_t kcap, kocap;
	char *stk;		/* the stack being built */
	size_t slen, scap, nfr;
	size_t made, madecap;	/* key_measure's sum of the stacks, bound */
	char *cache;		/* locations' frames, joined (push_location) */
	size_t clen, ccap;
	int cfirst;		/* a frame is in the location being built */
	char *lab;
	size_t labcap;
};

static int
fail(struct pp *pp, size_t off, const char *fmt, ...) PRINTFLIKE(3, 4);

static int
fail(struct pp *pp, size_t off, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	warn_at(pp->r->name, 0, "byte %zu: %s", off, msg);
	return -1;
}

/* The protobuf reader's error, if it has one. */
static int
pb_err(struct pp *pp, const struct pb *r)
{
	return fail(pp, r->erroff, "%s", r->err);
}

/* String i of the table, or NULL when there is none. */
static const char *
str_get(const struct pp *pp, uint64_t i, size_t *len)
{
	if (i >= pp->nstr)
		return NULL;
	*len = pp->str[i].len;
	return (const char *)pp->buf + pp->str[i].off;
}

/* Read the whole input (decoded) into pp->buf. */
static int
slurp(struct pp *pp)
{
	const char *p;
	size_t n, cap = 0;
	int at, ret;

	input_set_boundary(pp->r->in, "");
	while ((ret = input_next(pp->r->in, &p, &n, &at)) > 0) {
		if (pp->n + n >= UINT32_MAX) {
			warn_at(pp->r->name, 0, "a profile of 4 GiB or more "
			    "is not read");
			return -1;
		}
		pp->buf = xgrow(pp->buf, &cap, pp->n + n, 1);
		memcpy(pp->buf + pp->n, p, n);
		pp->n += n;
	}
	return ret;
}

static struct ent *
ent_add(struct ent **a, size_t *n, size_t *cap)
{
	*a = xgrow(*a, cap, *n + 1, sizeof **a);
	memset(*a + *n, 0, sizeof **a);
	return *a + (*n)++;
}

/* A function's id and name. */
static int
index_function(struct pp *pp, struct pb *top, const struct pb_field *f)
{
	struct ent *e = ent_add(&pp->fn, &pp->nfn, &pp->fncap);
	struct pb m;
	struct pb_field g;
	int ret;

	pb_sub(&m, top, f);
	while ((ret = pb_next(&m, &g)) > 0)
		if (g.num == FN_ID && g.wire == PB_VARINT)
			e->id = g.v;
		else if (g.num == FN_NAME && g.wire == PB_VARINT)
			e->name = g.v;
	if (ret < 0)
		return pb_err(pp, &m);
	e->off = (uint32_t)f->off;
	return 0;
}

static int
index_location(struct pp *pp, struct pb *top, const struct pb_field *f)
{
	struct ent *e = ent_add(&pp->loc, &pp->nloc, &pp->loccap);
	struct pb m;
	struct pb_field g;
	int ret;

	pb_sub(&m, top, f);
	while ((ret = pb_next(&m, &g)) > 0)
		if (g.num == LOC_ID && g.wire == PB_VARINT)
			e->id = g.v;
	if (ret < 0)
		return pb_err(pp, &m);
	e->off = (uint32_t)(f->data - pp->buf);
	e->len = (uint32_t)f->len;
	return 0;
}

static int
index_type(struct pp *pp, struct pb *top, const struct pb_field *f)
{
	struct pb m;
	struct pb_field g;
	uint64_t name = 0, unit = 0;
	int ret;

	pb_sub(&m, top, f);
	while ((ret = pb_next(&m, &g)) > 0)
		if (g.num == VT_TYPE && g.wire == PB_VARINT)
			name = g.v;
		else if (g.num == VT_UNIT && g.wire == PB_VARINT)
			unit = g.v;
	if (ret < 0)
		return pb_err(pp, &m);
	pp->types = xgrow(pp->types, &pp->typecap, pp->ntypes + 1,
	    sizeof *pp->types);
	pp->typeoff = xgrow(pp->typeoff, &pp->toffcap, pp->ntypes + 1,
	    sizeof *pp->typeoff);
	pp->units = xgrow(pp->units, &pp->unitcap, pp->ntypes + 1,
	    sizeof *pp->units);
	pp->typeoff[pp->ntypes] = (uint32_t)f->off;
	pp->units[pp->ntypes] = unit;
	pp->types[pp->ntypes++] = name;
	return 0;
}

/* The first pass: everything but the samples, which are only checked. */
static int
index_all(struct pp *pp, size_t *nsamples)
{
	struct pb top;
	struct pb_field f;
	int ret;

	pb_init(&top, pp->buf, pp->n);
	*nsamples = 0;
	while ((ret = pb_next(&top, &f)) > 0) {
		int want = f.num == P_DEFAULT_TYPE ? PB_VARINT :
		    f.num <= P_STRING ? PB_LEN : -1;

		if (want >= 0 && f.wire != want)
			return fail(pp, f.off, "field %" PRIu32 " has wire "
			    "type %d, not %d", f.num, f.wire, want);
		switch (f.num) {
		case P_SAMPLE_TYPE:
			ret = index_type(pp, &top, &f);
			break;
		case P_SAMPLE:
			(*nsamples)++;
			break;
		case P_LOCATION:
			ret = index_location(pp, &top, &f);
			break;
		case P_FUNCTION:
			ret = index_function(pp, &top, &f);
			break;
		case P_STRING:
			pp->str = xgrow(pp->str, &pp->strcap, pp->nstr + 1,
			    sizeof *pp->str);
			/*
			 * Where pb_next found the bytes: the tag and the
			 * length before them may be varints of any length.
			 */
			pp->str[pp->nstr].off = (uint32_t)(f.data - pp->buf);
			pp->str[pp->nstr++].len = (uint32_t)f.len;
			break;
		case P_DEFAULT_TYPE:
			pp->deftype = f.v;
			pp->deftypeoff = (uint32_t)f.off;
			break;
		}
		if (ret < 0)
			return -1;
	}
	return ret < 0 ? pb_err(pp, &top) : 0;
}

static int
ent_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct ent *)a)->id, y = ((const struct ent *)b)->id;

	return x < y ? -1 : x > y;
}

/* Sort by id (they usually are: 1, 2, 3 ...) and refuse repeats and 0. */
static int
ent_sort(struct pp *pp, struct ent *a, size_t n, const char *what)
{
	int sorted = 1;

	for (size_t i = 1; i < n && sorted; i++)
		sorted = a[i - 1].id < a[i].id;
	if (!sorted)
		qsort(a, n, sizeof *a, ent_cmp);
	for (size_t i = 0; i < n; i++)
		if (a[i].id == 0 || (i && a[i - 1].id == a[i].id))
			return fail(pp, a[i].off, "%s id %" PRIu64 " %s",
			    what, a[i].id, a[i].id ? "repeated" : "is zero");
	return 0;
}

static const struct ent *
ent_find(const struct ent *a, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	if (id - 1 < n && a[id - 1].id == id)
		return &a[id - 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid].id == id)
			return &a[mid];
		if (a[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The --sample-type that is not there, with the names that are. */
static int
no_type(struct pp *pp, const char *want)
{
	char q[4 * 60 + 8], *list = NULL;
	size_t len = 0, w = 0, cap = 0;
	const char *s;

	for (size_t i = 0; i < pp->ntypes; i++) {
		s = str_get(pp, pp->types[i], &len);
		s = err_quote(q, s, len, 60);
		len = strlen(s);
		list = xgrow(list, &cap, w + len + 3, 1);
		if (i)
			memcpy(list + w, ", ", 2), w += 2;
		memcpy(list + w, s, len + 1);
		w += len;
	}
	warn_at(pp->r->name, 0, "no sample type %s in this profile (it has "
	    "%s)", err_quote(q, want, strlen(want), 60), list);
	free(list);
	return -1;
}

/*
 * The first sample type named name[0..len), by name: a string table may
 * hold a name twice, under two indexes.  Its index, or -1.
 */
static long
type_named(const struct pp *pp, const char *name, size_t len)
{
	const char *s;
	size_t n = 0;

	for (size_t i = 0; i < pp->ntypes; i++) {
		s = str_get(pp, pp->types[i], &n);	/* checked: never NULL */
		if (n == len && memcmp(s, name, len) == 0)
			return (long)i;
	}
	return -1;
}

/*
 * Strings are checked once, after all are known (lengths were by
 * pb_next).  Without --sample-type, pprof's choice: the type that
 * default_sample_type names if there is one, else the last.
 */
static int
pick_type(struct pp *pp, size_t nsamples)
{
	const char *want = opt.sample_type, *s;
	size_t len;
	long i;

	if (pp->ntypes == 0)
		return nsamples ? fail(pp, 0, "samples but no sample type") : 0;
	for (size_t k = 0; k < pp->ntypes; k++)
		if (str_get(pp, pp->types[k], &len) == NULL)
			return fail(pp, pp->typeoff[k], "sample type %zu's name "
			    "is string %" PRIu64 ", past the table's %zu", k,
			    pp->types[k], pp->nstr);
	if (want != NULL) {
		if ((i = type_named(pp, want, strlen(want))) < 0)
			return no_type(pp, want);
		pp->vi = (size_t)i;
		return 0;
	}
	if ((s = str_get(pp, pp->deftype, &len)) == NULL)
		return fail(pp, pp->deftypeoff, "default sample type is string "
		    "%" PRIu64 ", past the table's %zu", pp->deftype, pp->nstr);
	i = len ? type_named(pp, s, len) : -1;
	pp->vi = i >= 0 ? (size_t)i : pp->ntypes - 1;
	return 0;
}

/*
 * The chosen type's unit, as folded(5)'s unit line says it, for the
 * sink to write: Go's CPU profiles are in nanoseconds, its heap profiles
 * in bytes or, for *objects, a count of objects.  Other units (samples,
 * a count of events, microseconds that would need scaling) say nothing.
 */
static void
pick_unit(struct pp *pp)
{
	size_t nlen, ulen;
	const char *name, *unit;

	if (pp->ntypes == 0 ||
	    (name = str_get(pp, pp->types[pp->vi], &nlen)) == NULL ||
	    (unit = str_get(pp, pp->units[pp->vi], &ulen)) == NULL)
		return;
	if (ulen == 11 && memcmp(unit, "nanoseconds", 11) == 0)
		sink_unit(pp->r->sink, "ns");
	else if (ulen == 5 && memcmp(unit, "bytes", 5) == 0)
		sink_unit(pp->r->sink, "bytes");
	else if (ulen == 5 && memcmp(unit, "count", 5) == 0 && nlen >= 7 &&
	    memcmp(name + nlen - 7, "objects", 7) == 0)
		sink_unit(pp->r->sink, "objects");
}

/* Append s[0..n), one frame or several joined, within the stack's limit. */
static int
push(struct pp *pp, const char *s, size_t n, size_t off)
{
	if (pp->slen + n + 1 > MAX_STACK)
		return fail(pp, off, "a stack longer than %u bytes", MAX_STACK);
	pp->stk = xgrow(pp->stk, &pp->scap, pp->slen + n + 1, 1);
	if (pp->nfr++)
		pp->stk[pp->slen++] = ';';
	memcpy(pp->stk + pp->slen, s, n);
	pp->slen += n;
	return 0;
}

/* Append a name to the location text being built at the cache's end. */
static int
cache_add(struct pp *pp, const char *s, size_t n, size_t start, size_t off)
{
	if (pp->clen - start + n + 1 > MAX_STACK)
		return fail(pp, off, "a location's frames longer than %u bytes",
		    MAX_STACK);
	pp->cache = xgrow(pp->cache, &pp->ccap, pp->clen + n + 1, 1);
	if (pp->clen > start || pp->cfirst)
		pp->cache[pp->clen++] = ';';
	pp->cfirst = 1;
	memcpy(pp->cache + pp->clen, s, n);
	folded_frame_fix(pp->cache + pp->clen, n);
	pp->clen += n;
	return 0;
}

/*
 * Location e's frames, the caller of inlined functions first, joined at
 * the end of the cache: [*start, pp->clen).
 */
static int
build_location(struct pp *pp, const struct ent *e, size_t *start)
{
	struct pb m, lm;
	struct pb_field g, h;
	size_t nl = 0, len;
	uint64_t addr = 0;
	const char *s;
	int ret;

	*start = pp->clen;
	pp->cfirst = 0;
	m.p = pp->buf + e->off;
	m.end = m.p + e->len;
	m.base = pp->buf;
	m.err = NULL;
	while ((ret = pb_next(&m, &g)) > 0) {
		uint64_t fid = 0;

		if (g.num == LOC_ADDRESS && g.wire == PB_VARINT)
			addr = g.v;
		if (g.num != LOC_LINE || g.wire != PB_LEN)
			continue;
		pb_sub(&lm, &m, &g);
		while ((ret = pb_next(&lm, &h)) > 0)
			if (h.num == LINE_FUNCTION && h.wire == PB_VARINT)
				fid = h.v;
		if (ret < 0)
			return pb_err(pp, &lm);
		pp->lines = xgrow(pp->lines, &pp->linecap, nl + 1,
		    sizeof *pp->lines);
		pp->lines[nl++] = fid;
		if (nl > MAX_LOCS)
			return fail(pp, g.off, "a location of more than %u "
			    "lines", MAX_LOCS);
	}
	if (ret < 0)
		return pb_err(pp, &m);
	if (nl == 0) {
		char hex[24];

		return cache_add(pp, hex, (size_t)snprintf(hex, sizeof hex,
		    "0x%" PRIx64, addr), *start, e->off);
	}
	while (nl-- > 0) {
		const struct ent *fn = ent_find(pp->fn, pp->nfn, pp->lines[nl]);

		if (fn == NULL)
			return fail(pp, e->off, "location %" PRIu64 " names "
			    "function %" PRIu64 ", which is not in the "
			    "profile", e->id, pp->lines[nl]);
		if ((s = str_get(pp, fn->name, &len)) == NULL)
			return fail(pp, fn->off, "function %" PRIu64 "'s name "
			    "is string %" PRIu64 ", past the table's %zu",
			    fn->id, fn->name, pp->nstr);
		if (cache_add(pp, s, len, *start, e->off) < 0)
			return -1;
	}
	return 0;
}

/*
 * Append location e's frames to the stack.  Built once and kept in the
 * cache (e->name holds where: offset + 1 and length), while the cache
 * stays within CACHE_MAX or the decoded size; past that, built for this
 * sample and dropped, so that a hostile profile of long names repeated
 * over many locations costs time, not memory.
 */
static int
push_location(struct pp *pp, struct ent *e)
{
	size_t start;

	if (e->name != 0)
		return push(pp, pp->cache + (uint32_t)e->name - 1,
		    (size_t)(e->name >> 32), e->off);
	if (build_location(pp, e, &start) < 0)
		return -1;
	if (push(pp, pp->cache + start, pp->clen - start, e->off) < 0)
		return -1;
	if (pp->clen < CACHE_MAX || pp->clen < pp->n)
		e->name = (uint64_t)(pp->clen - start) << 32 | (start + 1);
	else
		pp->clen = start;
	return 0;
}

/* The length of location e's frames joined, built and kept as
 * push_location keeps them. */
static int
location_len(struct pp *pp, struct ent *e, size_t *len)
{
	size_t start;

	if (e->name != 0) {
		*len = (size_t)(e->name >> 32);
		return 0;
	}
	if (build_location(pp, e, &start) < 0)
		return -1;
	*len = pp->clen - start;
	if (pp->clen < CACHE_MAX || pp->clen < pp->n)
		e->name = (uint64_t)*len << 32 | (start + 1);
	else
		pp->clen = start;
	return 0;
}

/*
 * A new key's stack counted against the bound (EXPAND_MIN, EXPAND_RATIO)
 * before any text is made: its locations' lengths, the label frame's,
 * and a separator each.  So a profile past the bound is refused as its
 * samples are read, in the time of reading them, not after the stacks
 * before have filled the memory the bound allows.
 */
static int
key_measure(struct pp *pp, size_t nids, size_t lw, size_t off)
{
	size_t t = lw ? lw + 1 : 0, len;

	for (size_t i = 0; i < nids; i++) {
		struct ent *e = (struct ent *)ent_find(pp->loc, pp->nloc, pp->ids[i]);

		if (e == NULL)
			return fail(pp, off, "a sample names location %"
			    PRIu64 ", which is not in the profile", pp->ids[i]);
		if (location_len(pp, e, &len) < 0)
			return -1;
		t += len + 1;
		if (pp->made + t > pp->madecap)
			return fail(pp, off, "the stacks expand past %zu bytes "
			    "(%zu MiB and %d times the profile): locations "
			    "named too often", pp->madecap, EXPAND_MIN >> 20,
			    EXPAND_RATIO);
	}
	pp->made += t;
	return 0;
}

/* Append "key=value" (a label) to the label frame. */
static int
add_label(struct pp *pp, struct pb *sm, const struct pb_field *f, size_t *w)
{
	struct pb m;
	struct pb_field g;
	uint64_t key = 0, str = 0, num = 0;
	const char *k, *v = "";
	size_t kn, vn = 0;
	char nb[24];
	int ret, isnum = 0;

	pb_sub(&m, sm, f);
	while ((ret = pb_next(&m, &g)) > 0)
		if (g.num == L_KEY && g.wire == PB_VARINT)
			key = g.v;
		else if (g.num == L_STR && g.wire == PB_VARINT)
			str = g.v;
		else if (g.num == L_NUM && g.wire == PB_VARINT)
			num = g.v, isnum = 1;
	if (ret < 0)
		return pb_err(pp, &m);
	if ((k = str_get(pp, key, &kn)) == NULL ||
	    (!isnum && (v = str_get(pp, str, &vn)) == NULL))
		return fail(pp, f->off, "a label names a string past the "
		    "table's %zu", pp->nstr);
	if (isnum && str == 0) {
		vn = (size_t)snprintf(nb, sizeof nb, "%" PRId64, (int64_t)num);
		v = nb;
	}
	if (*w + kn + vn + 2 > MAX_STACK)
		return fail(pp, f->off, "labels longer than %u bytes",
		    MAX_STACK);
	pp->lab = xgrow(pp->lab, &pp->labcap, *w + kn + vn + 2, 1);
	if (*w)
		pp->lab[(*w)++] = ' ';
	memcpy(pp->lab + *w, k, kn);
	*w += kn;
	pp->lab[(*w)++] = '=';
	memcpy(pp->lab + *w, v, vn);
	*w += vn;
	return 0;
}

/*
 * The stack of location ids pp->ids[0..nids) (leaf first), under the
 * label frame pp->lab[0..lw) if any, into the sink with value; off is
 * the sample's, for messages.
 */
static int
fold_stack(struct pp *pp, size_t nids, size_t lw, uint64_t value, size_t off)
{
	pp->slen = 0;
	pp->nfr = 0;
	if (lw) {
		folded_frame_fix(pp->lab, lw);
		if (push(pp, pp->lab, lw, off) < 0)
			return -1;
	}
	while (nids-- > 0) {
		struct ent *e = (struct ent *)ent_find(pp->loc, pp->nloc,
		    pp->ids[nids]);

		if (e == NULL)
			return fail(pp, off, "a sample names location %"
			    PRIu64 ", which is not in the profile",
			    pp->ids[nids]);
		if (push_location(pp, e) < 0)
			return -1;
	}
	sink_put(pp->r->sink, pp->stk, pp->slen, value, 0);
	return pp->r->sink->failed ? -1 : 0;
}

/*
 * Aggregating: a sample's location ids, as varints, are the key its
 * value is summed under (with --labels, then its label frame and that
 * frame's length in four bytes); each distinct key is made a stack once,
 * at the end (keys_fold).  Most samples repeat a stack, and their key is
 * a few bytes where the stack's text is a few hundred.
 */
static int
key_add(struct pp *pp, uint64_t value, size_t nids, size_t lw, size_t off)
{
	int isnew;
	uint32_t id = intern_put(&pp->keys, pp->key.p, pp->key.len, &isnew);

	if (isnew) {
		if (key_measure(pp, nids, lw, off) < 0)
			return -1;
		pp->kval = xgrow(pp->kval, &pp->kcap, (size_t)id + 1,
		    sizeof *pp->kval);
		pp->koff = xgrow(pp->koff, &pp->kocap, (size_t)id + 1,
		    sizeof *pp->koff);
		pp->kval[id] = 0;
		pp->koff[id] = (uint32_t)off;
	}
	if (count_add_u64(&pp->kval[id], value) < 0)
		return fail(pp, off, "a stack's values sum to 2^64 or more");
	return 0;
}

static int
keys_fold(struct pp *pp)
{
	for (uint32_t id = 0; id < intern_count(&pp->keys); id++) {
		const unsigned char *p = (const void *)intern_str(&pp->keys, id);
		const unsigned char *e = p + intern_len(&pp->keys, id);
		size_t nids = 0, k;
		uint32_t lw = 0;
		uint64_t v;

		if (opt.labels) {
			memcpy(&lw, e - 4, 4);
			e -= 4 + lw;
			pp->lab = xgrow(pp->lab, &pp->labcap, (size_t)lw + 1, 1);
			memcpy(pp->lab, e, lw);
		}
		/* Varints pb_rep_next read, or pb_put_varint wrote. */
		while (p < e && (k = pb_varint(p, e, &v)) > 0) {
			pp->ids = xgrow(pp->ids, &pp->idcap, nids + 1,
			    sizeof *pp->ids);
			pp->ids[nids++] = v;
			p += k;
		}
		if (fold_stack(pp, nids, lw, pp->kval[id], pp->koff[id]) < 0)
			return -1;
	}
	return 0;
}

/* One sample, folded into the sink. */
static int
fold_sample(struct pp *pp, struct pb *top, const struct pb_field *f)
{
	struct pb sm;
	struct pb_field g;
	struct pb_rep it;
	size_t nids = 0, nvals = 0, lw = 0;
	uint64_t v, value = 0;
	int ret, r2;

	pb_sub(&sm, top, f);
	pp->key.len = 0;
	while ((ret = pb_next(&sm, &g)) > 0) {
		if (g.num == S_LOCATION && g.wire == PB_LEN && pp->agg)
			pb_put_raw(&pp->key, g.data, g.len);
		if (g.num == S_LABEL && g.wire == PB_LEN && opt.labels) {
			if (add_label(pp, &sm, &g, &lw) < 0)
				return -1;
			continue;
		}
		if (g.num != S_LOCATION && g.num != S_VALUE)
			continue;
		if (pb_rep_init(&it, &sm, &g) < 0)
			break;
		while ((r2 = pb_rep_next(&it, &sm, &v)) > 0) {
			if (g.num == S_VALUE) {
				if (nvals++ == pp->vi)
					value = v;
				continue;
			}
			if (nids == MAX_LOCS)
				return fail(pp, g.off, "a sample of more than "
				    "%u locations", MAX_LOCS);
			if (nids == pp->idcap)
				pp->ids = xgrow(pp->ids, &pp->idcap, nids + 1,
				    sizeof *pp->ids);
			pp->ids[nids++] = v;
			if (g.wire == PB_VARINT && pp->agg)
				pb_put_varint(&pp->key, v);
		}
		if (r2 < 0)
			break;
	}
	if (sm.err != NULL)
		return pb_err(pp, &sm);
	if (nvals != pp->ntypes)
		return fail(pp, f->off, "a sample with %zu values, not %zu "
		    "(one per sample type)", nvals, pp->ntypes);
	if ((int64_t)value < 0)
		return fail(pp, f->off, "a sample's value is negative (%"
		    PRId64 ")", (int64_t)value);
	if (value == 0)
		return 0;
	if (pp->agg) {
		if (opt.labels) {
			uint32_t l32 = (uint32_t)lw;	/* < MAX_STACK */

			pb_put_raw(&pp->key, pp->lab, lw);
			pb_put_raw(&pp->key, &l32, 4);
		}
		return key_add(pp, value, nids, lw, f->off);
	}
	return fold_stack(pp, nids, lw, value, f->off);
}

static int
fold_all(struct pp *pp)
{
	struct pb top;
	struct pb_field f;
	int ret;

	pb_init(&top, pp->buf, pp->n);
	while ((ret = pb_next(&top, &f)) > 0)
		if (f.num == P_SAMPLE && fold_sample(pp, &top, &f) < 0)
			return -1;
	if (ret < 0)
		return pb_err(pp, &top);
	return pp->agg ? keys_fold(pp) : 0;
}

static int
pprof_collapse(struct reader *r)
{
	struct pp pp;
	size_t nsamples;
	int ret;

	memset(&pp, 0, sizeof pp);
	pp.r = r;
	pp.agg = !r->sink->noagg;
	intern_init(&pp.keys);
	/* Never NULL, even for a sample of no location (an empty stack). */
	pp.stk = xgrow(NULL, &pp.scap, 256, 1);
	ret = slurp(&pp);
	/* --no-aggregate writes each stack at once: no memory to bound */
	pp.madecap = pp.agg && pp.n < (SIZE_MAX - EXPAND_MIN) / EXPAND_RATIO ?
	    EXPAND_MIN + EXPAND_RATIO * pp.n : SIZE_MAX;
	if (ret == 0)
		ret = index_all(&pp, &nsamples);
	if (ret == 0)
		ret = ent_sort(&pp, pp.fn, pp.nfn, "function");
	if (ret == 0)
		ret = ent_sort(&pp, pp.loc, pp.nloc, "location");
	if (ret == 0)
		ret = pick_type(&pp, nsamples);
	if (ret == 0) {
		pick_unit(&pp);
		ret = fold_all(&pp);
	}
	free(pp.buf);
	free(pp.str);
	free(pp.fn);
	free(pp.loc);
	free(pp.types);
	free(pp.units);
	free(pp.typeoff);
	free(pp.ids);
	free(pp.lines);
	free(pp.lab);
	free(pp.stk);
	free(pp.key.p);
	free(pp.kval);
	free(pp.koff);
	intern_free(&pp.keys);
	free(pp.cache);
	return ret < 0 ? -1 : 0;
}

/*
 * Whether a message's bytes are whole fields, varints only with vonly (a
 * ValueType's).
 */
static int
whole_message(struct pb *top, const struct pb_field *f, int vonly)
{
	struct pb m;
	struct pb_field g;
	int ret;

	pb_sub(&m, top, f);
	while ((ret = pb_next(&m, &g)) > 0)
		if (vonly && g.wire != PB_VARINT)
			return 0;
	return ret == 0;
}

/*
 * A profile's head: top-level fields from the first byte on, at least one
 * of them whole, the first of profile.proto's numbers (Go's writer starts
 * with time_nanos), every one of those with its wire type (later numbers
 * are a newer profile.proto's), the messages among them whole fields
 * too.  The last may be cut by the end of a head of HEAD_MIN bytes or
 * more; a shorter one is the whole input (main.c asks for 64 KiB).  Text fails at once:
 * its letters are field numbers past 14 or wire types that profile.proto
 * has not, and blank lines (field 1, a sample type of ten bytes) are no
 * ValueType.
 */
static int
pprof_detect(const char *p, size_t n)
{
	struct pb r;
	struct pb_field f;
	int whole = 0, ret;

	pb_init(&r, p, n);
	while ((ret = pb_next(&r, &f)) > 0) {
		int want = f.num == P_DEFAULT_TYPE || (f.num >= 7 &&
		    f.num != 11 && f.num != 13) ? PB_VARINT : PB_LEN;

		if (f.num > P_DEFAULT_TYPE ? whole == 0 : f.wire != want &&
		    !(f.num == 13 && f.wire == PB_VARINT))
			return 0;
		if (f.wire == PB_LEN && f.num != P_STRING && f.num <= 11 &&
		    !whole_message(&r, &f, f.num == P_SAMPLE_TYPE ||
		    f.num == 11))
			return 0;
		whole++;
	}
	/* A field cut by the end, in a head shorter than the input. */
	if (ret < 0 && (n < HEAD_MIN || (strcmp(r.err, "length past the "
	    "end") != 0 && r.erroff + 16 < n)))
		return 0;
	return whole > 0;
}

const struct format pprof_format = {
	.name = "pprof",
	.detect = pprof_detect,
	.collapse = pprof_collapse,
	.options = pprof_options,
	.binary = 1,
	.all_or_nothing = 1,
};
