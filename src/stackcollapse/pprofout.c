/*
 * pprofout: see pprofout.h.  The counts are checked first, so that an
 * error writes nothing; then the samples are written as they are made
 * (gzip when zlib is there: pprof reads both, and servers take either),
 * and the names, functions and locations after them, which
 * profile.proto allows: a sample's message is the only copy of it, where
 * building the whole profile first copied every sample once more.
 * Frame names are interned in the order the sorted stacks first show
 * them; name id i is function i + 1, its location i + 1 (one line, no
 * address: folded stacks carry none) and string i + 3, after "" and the
 * sample type's two.  A stack's frames are its ';'-separated fields, all
 * of them, empty ones included, so that the profile read back
 * (stackcollapse --format=pprof) gives the same text; a sample lists them
 * leaf first, as profile.proto wants.  Sorted stacks share prefixes with
 * their neighbours, so the frames of the common prefix keep the ids the
 * stack before looked up, and their varints (struct frames): deep stacks
 * cost a lookup and an encoding per frame that differs, not per frame.  Nothing varies between runs: no
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
 * Name id i's location and function; then the string table: "", the
 * type and its unit, the names.
 */
static void
put_names(struct pb_buf *b, const struct intern *names, const char *type,
    size_t typelen, const char *unit)
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
	for (uint32_t i = 0; i < n; i++)
		pb_put_bytes(b, P_STRING, intern_str(names, i),
		    intern_len(names, i));
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
 * One stack's frames, root first: where each ends (the offset of its
 * ';') and how many bytes the location ids of it and its ancestors take,
 * kept for the next stack, which shares a prefix with it (the stacks
 * come sorted).  The ids are encoded once, as varints written backwards
 * from the end of enc: the root's last, each frame's before its
 * parent's, so that a stack's leaf-first location list (profile.proto's
 * order) is the last tl[n - 1] bytes of enc as they stand, and a frame
 * shared with the stack before is neither looked up nor encoded again.
 * The sample's tags and lengths go in the HEAD bytes before them.
 */
enum { HEAD = 4 * PB_VARINT_MAX };
struct frames {
	size_t *end, *tl;
	unsigned char *enc;
	size_t endcap, tlcap, enccap;
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

int
pprof_write(const struct folded_sum *a, const char *unit)
{
	struct pb_buf b = { NULL, 0, 0 }, m = { NULL, 0, 0 };
	const char *type, *u;
	size_t typelen, len, nids = 0, plen = 0;
	const char *prev = "";
	struct frames f = { NULL, NULL, NULL, 0, 0, 0 };
	struct intern names;
	uint32_t *order;

	if (pprof_unit(unit, &type, &typelen, &u) < 0)
		die(EXIT_USAGE, "bad --sample-unit \"%s\"", unit);
	if (check_counts(a) < 0)
		return -1;
	intern_init(&names);
	/*
	 * Level 1, as Go's runtime writes its profiles: level 9 took three
	 * times the rest of the run for a few percent less.
	 */
	(void)out_gzip_level(1);
	pb_put_uint(&m, VT_TYPE, 1);
	pb_put_uint(&m, VT_UNIT, 2);
	pb_put_bytes(&b, P_SAMPLE_TYPE, m.p, m.len);
	out_write(b.p, b.len);
	order = folded_sum_sorted(a);
	for (size_t k = 0; k < folded_sum_n(a); k++) {
		const char *s = folded_sum_stack(a, order[k], &len);
		uint64_t v = folded_sum_count(a, 0, order[k])->whole;
		unsigned char val[2 + 2 * PB_VARINT_MAX], hd[HEAD], *loc;
		size_t start, same, ll, vl, hl, sl;

		if (v == 0)
			continue;	/* no width; pprof would drop it too */
		/* The frames this stack shares with the one before. */
		same = common(s, len, prev, plen);
		while (nids > 0 && f.end[nids - 1] >= same)
			nids--;
		start = nids ? f.end[nids - 1] + 1 : 0;
		while (len > 0 && start <= len) {
			const char *semi = memchr(s + start, ';', len - start);
			size_t e = semi ? (size_t)(semi - s) : len;
			size_t tl = nids ? f.tl[nids - 1] : 0;
			unsigned char t[PB_VARINT_MAX];
			size_t n = pb_enc_varint(t, (uint64_t)intern_put(&names,
			    s + start, e - start, NULL) + 1);

			f.end = xgrow(f.end, &f.endcap, nids + 1, sizeof *f.end);
			f.tl = xgrow(f.tl, &f.tlcap, nids + 1, sizeof *f.tl);
			enc_room(&f, tl, tl + n);
			memcpy(f.enc + f.enccap - tl - n, t, n);
			f.tl[nids] = tl + n;
			f.end[nids++] = e;
			start = e + 1;
		}
		prev = s;
		plen = len;
		/* sample { location_id: the ids, leaf first; value: v } */
		ll = nids ? f.tl[nids - 1] : 0;
		loc = f.enc + f.enccap - ll;
		vl = 0;
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
	b.len = 0;
	put_names(&b, &names, type, typelen, u);
	out_write(b.p, b.len);
	free(order);
	free(f.end);
	free(f.tl);
	free(f.enc);
	free(m.p);
	free(b.p);
	intern_free(&names);
	return 0;
}
