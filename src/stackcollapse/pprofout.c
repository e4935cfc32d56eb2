/*
 * pprofout: see pprofout.h.  The counts are checked first, so that an
 * error writes nothing; then the samples are written as they are made
 * (gzip when zlib is there: pprof reads both, and servers take either),
 * and the names, functions and locations after them, which
 * profile.proto allows: a sample's message is the only copy of it, where
 * building the whole profile first copied every sample once more.
 * Two passes over the sorted stacks (struct walk): the first interns
 * the frame names and counts the samples each is in, the second writes
 * the samples with the names ranked by that count, most first (ties in
 * the order the stacks first show them); rank i is function i + 1, its
 * location i + 1 (one line) and string i + 3, after "" and the sample
 * type's two.  No location has an address: what is written is summed by
 * name, where one name stands for many addresses, and an address is
 * left only in the name of a frame with no symbol (perf's --addrs,
 * "[libc.so.6 <7f1c2aa1>]"; a pprof location without lines, "0x401000"),
 * without the mapping (file, build id) that a pprof server would need to
 * symbolize it; reading it back out of a name would be a guess, as a
 * name can look like an address.  A stack's frames
 * are its ';'-separated fields, all of them, empty ones included, so
 * that the profile read back (stackcollapse --format=pprof) gives the
 * same text; a sample lists them leaf first, as profile.proto wants.
 * Sorted stacks share prefixes with their neighbours, so the frames of
 * the common prefix keep the ids the stack before looked up, and their
 * varints (struct frames): deep stacks cost a lookup and an encoding per
 * frame that differs, not per frame.  Nothing varies between runs: no
 * time, no period.  Rejected: one sample per line of input (the sums are
 * what a profile holds; pprof would sum them again) and a location per
 * (frame, parent) (pprof's functions are by name).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/out.h"
#include "../lib/protobuf.h"
#include "pprofout.h"

/* profile.proto's field numbers, of the messages written. */
enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_LOCATION = 4, P_FUNCTION = 5,
	P_STRING = 6,
	VT_TYPE = 1, VT_UNIT = 2,
	S_LOCATION = 1, S_VALUE = 2,
	LOC_ID = 1, LOC_LINE = 4,
	LINE_FUNCTION = 1,
	FN_ID = 1, FN_NAME = 2, FN_SYSTEM_NAME = 3,
	FIRST_NAME = 3,		/* string index of name id 0 */
};

int
pprof_unit(const char *arg, const char **type, size_t *typelen,
    const char **unit)
{
	static const struct { const char *arg, *type, *unit; } known[] = {
		{ "count", "samples", "count" },
		{ "samples", "samples", "count" },
		{ "nanoseconds", "cpu", "nanoseconds" },
		{ "bytes", "space", "bytes" },
		{ "objects", "objects", "count" },
	};
	const char *slash;

	if (arg == NULL)
		arg = "count";
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(arg, known[i].arg) == 0) {
			*type = known[i].type;
			*typelen = strlen(*type);
			*unit = known[i].unit;
			return 0;
		}
	if ((slash = strchr(arg, '/')) == NULL || slash == arg ||
	    slash[1] == '\0' || strchr(slash + 1, '/') != NULL)
		return -1;
	*type = arg;
	*typelen = (size_t)(slash - arg);
	*unit = slash + 1;
	return 0;
}

/* Whole counts below 2^63, or say which is not. */
static int
check_counts(const struct folded_sum *a)
{
	char q[4 * 60 + 8];
	size_t len;

	for (uint32_t i = 0; i < folded_sum_n(a); i++) {
		const struct count *c = folded_sum_count(a, 0, i);
		const char *s;

		if (c->frac == 0 && c->whole <= INT64_MAX)
			continue;
		s = folded_sum_stack(a, i, &len);
		warn_msg("--to=pprof: the count of stack %s %s; pprof's values "
		    "are whole numbers below 2^63", err_quote(q, s, len, 60),
		    c->frac ? "has a fraction" : "is 2^63 or more");
		return -1;
	}
	return 0;
}

/*
 * Rank i's location and function (id i + 1; rank i is name id byid[i]);
 * then the string table: "", the type and its unit, the names by rank.
 */
static void
put_names(struct pb_buf *b, const struct intern *names,
    const uint32_t *byid, const char *type, size_t typelen, const char *unit)
{
	struct pb_buf m = { NULL, 0, 0 }, line = { NULL, 0, 0 };
	size_t n = intern_count(names);

	for (size_t i = 0; i < n; i++) {
		line.len = m.len = 0;
		pb_put_uint(&line, LINE_FUNCTION, i + 1);
		pb_put_uint(&m, LOC_ID, i + 1);
		pb_put_bytes(&m, LOC_LINE, line.p, line.len);
		pb_put_bytes(b, P_LOCATION, m.p, m.len);
	}
	for (size_t i = 0; i < n; i++) {
		m.len = 0;
		pb_put_uint(&m, FN_ID, i + 1);
		pb_put_uint(&m, FN_NAME, i + FIRST_NAME);
		pb_put_uint(&m, FN_SYSTEM_NAME, i + FIRST_NAME);
		pb_put_bytes(b, P_FUNCTION, m.p, m.len);
	}
	pb_put_bytes(b, P_STRING, "", 0);
	pb_put_bytes(b, P_STRING, type, typelen);
	pb_put_bytes(b, P_STRING, unit, strlen(unit));
	for (size_t i = 0; i < n; i++)
		pb_put_bytes(b, P_STRING, intern_str(names, byid[i]),
		    intern_len(names, byid[i]));
	free(m.p);
	free(line.p);
}

/* The length of the common prefix of a and b, eight bytes at a time. */
static size_t
common(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = an < bn ? an : bn, i = 0;
	uint64_t x, y;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * The stacks' frames, as the first pass leaves them for the second.
 * The first walks the sorted stacks, which share prefixes with their
 * neighbours: per sample, how many frames it keeps of the one before
 * (keep) and the name ids of the others, root first (fresh, nfresh per
 * sample); and how many samples each name is in (uses).  The second
 * writes them with the names ranked by uses, so that the most used are
 * the ids below 128, one byte each: on 47,552 stacks of ~50 frames, 2.6
 * MB of ids became 1.5 MB, and deflate's work with them.
 */
struct walk {
	uint32_t *keep, *nfresh, *fresh;
	size_t nsamples, nfreshall, keepcap, nfcap, freshcap;
	uint64_t *uses;
	size_t usescap;
};

/* Where the frames of the stack being walked end, and since when. */
struct stackf {
	size_t *end, *since;
	uint32_t *id;
	size_t endcap, sincecap, idcap;
};

static void
walk_stacks(const struct folded_sum *a, const uint32_t *order,
    struct intern *names, struct walk *w)
{
	struct stackf f = { NULL, NULL, NULL, 0, 0, 0 };
	const char *prev = "";
	size_t nids = 0, plen = 0, len;

	for (size_t k = 0; k < folded_sum_n(a); k++) {
		const char *s = folded_sum_stack(a, order[k], &len);
		size_t start, same, kept, j = w->nsamples;

		if (folded_sum_count(a, 0, order[k])->whole == 0)
			continue;	/* no width; pprof would drop it too */
		/* The frames this stack shares with the one before. */
		same = common(s, len, prev, plen);
		while (nids > 0 && f.end[nids - 1] >= same) {
			nids--;
			w->uses[f.id[nids]] += j - f.since[nids];
		}
		kept = nids;
		start = nids ? f.end[nids - 1] + 1 : 0;
		while (len > 0 && start <= len) {
			const char *semi = memchr(s + start, ';', len - start);
			size_t e = semi ? (size_t)(semi - s) : len;
			int isnew;
			uint32_t id = intern_put(names, s + start, e - start,
			    &isnew);

			f.end = xgrow(f.end, &f.endcap, nids + 1, sizeof *f.end);
			f.since = xgrow(f.since, &f.sincecap, nids + 1,
			    sizeof *f.since);
			f.id = xgrow(f.id, &f.idcap, nids + 1, sizeof *f.id);
			if (isnew) {	/* ids are dense: id is the last */
				w->uses = xgrow(w->uses, &w->usescap, id + 1,
				    sizeof *w->uses);
				w->uses[id] = 0;
			}
			w->fresh = xgrow(w->fresh, &w->freshcap,
			    w->nfreshall + 1, sizeof *w->fresh);
			w->fresh[w->nfreshall++] = id;
			f.end[nids] = e;
			f.since[nids] = j;
			f.id[nids++] = id;
			start = e + 1;
		}
		w->keep = xgrow(w->keep, &w->keepcap, j + 1, sizeof *w->keep);
		w->nfresh = xgrow(w->nfresh, &w->nfcap, j + 1,
		    sizeof *w->nfresh);
		w->keep[j] = (uint32_t)kept;
		w->nfresh[j] = (uint32_t)(nids - kept);
		w->nsamples++;
		prev = s;
		plen = len;
	}
	while (nids > 0) {
		nids--;
		w->uses[f.id[nids]] += w->nsamples - f.since[nids];
	}
	free(f.end);
	free(f.since);
	free(f.id);
}
/* Name ids by uses, most first; ties in the order they came. */
struct rank { uint64_t uses; uint32_t id; };

static int
by_uses(const void *pa, const void *pb)
{
	const struct rank *x = pa, *y = pb;

	if (x->uses != y->uses)
		return x->uses > y->uses ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * A sample's location ids, encoded once per frame, as varints written
 * backwards from the end of enc: the root's last, each frame's before
 * its parent's, so that a stack's leaf-first location list
 * (profile.proto's order) is the last tl[n - 1] bytes of enc as they
 * stand, and a frame shared with the sample before is not encoded
 * again.  The sample's tags and lengths go in the HEAD bytes before.
 */
enum { HEAD = 4 * PB_VARINT_MAX };
struct frames {
	size_t *tl;
	unsigned char *enc;
	size_t tlcap, enccap;
};

/* Room for need bytes of ids and the HEAD before them. */
static void
enc_room(struct frames *f, size_t used, size_t need)
{
	size_t cap = f->enccap ? f->enccap : 256;
	unsigned char *p;

	if (need + HEAD <= f->enccap)
		return;
	while (cap < need + HEAD)
		cap *= 2;
	p = xmalloc(cap);
	if (used)
		memcpy(p + cap - used, f->enc + f->enccap - used, used);
	free(f->enc);
	f->enc = p;
	f->enccap = cap;
}

/* sample { location_id: the last ll bytes of enc; value: v } */
static void
put_sample(const struct frames *f, size_t ll, uint64_t v)
{
	unsigned char val[2 + PB_VARINT_MAX], hd[HEAD];
	unsigned char *loc = f->enc + f->enccap - ll;
	size_t vl = 0, hl, sl;

	val[vl++] = S_VALUE << 3 | PB_LEN;
	val[vl++] = (unsigned char)pb_enc_varint(val + 2, v);
	vl += val[1];
	sl = vl;
	if (ll)
		sl += 1 + pb_enc_varint(hd, ll) + ll;
	hl = pb_enc_varint(hd, (uint64_t)P_SAMPLE << 3 | PB_LEN);
	hl += pb_enc_varint(hd + hl, sl);
	if (ll) {
		hd[hl++] = S_LOCATION << 3 | PB_LEN;
		hl += pb_enc_varint(hd + hl, ll);
	}
	/* the head just before the ids: HEAD bytes are kept free */
	memcpy(loc - hl, hd, hl);
	out_write(loc - hl, hl + ll);
	out_write(val, vl);
}

int
pprof_write(const struct folded_sum *a, const char *unit)
{
	struct pb_buf b = { NULL, 0, 0 }, m = { NULL, 0, 0 };
	const char *type, *u;
	size_t typelen, nnames, nids = 0, fr = 0, j = 0;
	struct walk w = { 0 };
	struct frames f = { NULL, NULL, 0, 0 };
	struct intern names;
	struct rank *rk;
	uint32_t *order, *rankof, *byid;

	if (pprof_unit(unit, &type, &typelen, &u) < 0)
		die(EXIT_USAGE, "bad --sample-unit \"%s\"", unit);
	if (check_counts(a) < 0)
		return -1;
	intern_init(&names);
	order = folded_sum_sorted(a);
	walk_stacks(a, order, &names, &w);
	nnames = intern_count(&names);
	rk = xmalloc((nnames + 1) * sizeof *rk);
	rankof = xmalloc((nnames + 1) * sizeof *rankof);
	byid = xmalloc((nnames + 1) * sizeof *byid);
	for (size_t i = 0; i < nnames; i++)
		rk[i] = (struct rank){ w.uses[i], (uint32_t)i };
	qsort(rk, nnames, sizeof *rk, by_uses);
	for (size_t i = 0; i < nnames; i++) {
		byid[i] = rk[i].id;
		rankof[rk[i].id] = (uint32_t)i;
	}
	/*
	 * Level 1, as Go's runtime writes its profiles: level 9 took three
	 * times the rest of the run for a few percent less.
	 */
	(void)out_gzip_level(1);
	pb_put_uint(&m, VT_TYPE, 1);
	pb_put_uint(&m, VT_UNIT, 2);
	pb_put_bytes(&b, P_SAMPLE_TYPE, m.p, m.len);
	out_write(b.p, b.len);
	/* put_sample's HEAD bytes, for a first stack of no frames too */
	enc_room(&f, 0, 0);
	for (size_t k = 0; k < folded_sum_n(a); k++) {
		uint64_t v = folded_sum_count(a, 0, order[k])->whole;

		if (v == 0)
			continue;	/* as walk_stacks did */
		nids = w.keep[j];
		for (uint32_t n = w.nfresh[j]; n > 0; n--) {
			size_t tl = nids ? f.tl[nids - 1] : 0;
			unsigned char t[PB_VARINT_MAX];
			size_t tn = pb_enc_varint(t,
			    (uint64_t)rankof[w.fresh[fr++]] + 1);

			f.tl = xgrow(f.tl, &f.tlcap, nids + 1, sizeof *f.tl);
			enc_room(&f, tl, tl + tn);
			memcpy(f.enc + f.enccap - tl - tn, t, tn);
			f.tl[nids++] = tl + tn;
		}
		put_sample(&f, nids ? f.tl[nids - 1] : 0, v);
		j++;
	}
	b.len = 0;
	put_names(&b, &names, byid, type, typelen, u);
	out_write(b.p, b.len);
	free(order);
	free(rk);
	free(rankof);
	free(byid);
	free(w.keep);
	free(w.nfresh);
	free(w.fresh);
	free(w.uses);
	free(f.tl);
	free(f.enc);
	free(m.p);
	free(b.p);
	intern_free(&names);
	return 0;
}
