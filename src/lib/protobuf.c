/*
 * protobuf: see protobuf.h.  A varint is at most ten bytes, the tenth
 * holding bit 63 alone: anything more is an error, not a value cut to
 * 64 bits, so that a run of 0xff bytes cannot read far.
 */
#include <string.h>

#include "err.h"
#include "protobuf.h"

void
pb_init(struct pb *r, const void *buf, size_t n)
{
	static const unsigned char none[1];

	/* An empty input may have no buffer: NULL + 0 is not defined. */
	r->p = r->base = n ? buf : none;
	r->end = r->p + n;
	r->err = NULL;
	r->erroff = 0;
}

void
pb_sub(struct pb *sub, const struct pb *r, const struct pb_field *f)
{
	sub->p = f->data;
	sub->end = f->data + f->len;
	sub->base = r->base;
	sub->err = NULL;
	sub->erroff = 0;
}

/* Fail r with what at offset off; returns -1. */
static int
pb_fail(struct pb *r, size_t off, const char *what)
{
	if (r->err == NULL) {
		r->err = what;
		r->erroff = off;
	}
	r->p = r->end;
	return -1;
}

size_t
pb_varint(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;

	for (size_t i = 0; i < 10 && p + i < end; i++) {
		x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			if (i == 9 && p[i] > 1)
				return 0;	/* past 64 bits */
			*v = x;
			return i + 1;
		}
	}
	return 0;
}

int
pb_next(struct pb *r, struct pb_field *f)
{
	size_t k, off;
	uint64_t tag, len;

	if (r->err != NULL)
		return -1;
	if (r->p >= r->end)
		return 0;
	off = (size_t)(r->p - r->base);
	if ((k = pb_varint(r->p, r->end, &tag)) == 0)
		return pb_fail(r, off, "bad varint in a field's tag");
	if (tag >> 3 == 0 || tag >> 3 > UINT32_MAX)
		return pb_fail(r, off, "field number 0 or past 2^32");
	r->p += k;
	f->num = (uint32_t)(tag >> 3);
	f->wire = (int)(tag & 7);
	f->off = off;
	f->data = NULL;
	f->len = 0;
	switch (f->wire) {
	case PB_VARINT:
		if ((k = pb_varint(r->p, r->end, &f->v)) == 0)
			return pb_fail(r, (size_t)(r->p - r->base),
			    "bad varint");
		r->p += k;
		return 1;
	case PB_I64:
	case PB_I32:
		k = f->wire == PB_I64 ? 8 : 4;
		if ((size_t)(r->end - r->p) < k)
			return pb_fail(r, off, "fixed-size field past the end");
		f->v = 0;
		for (size_t i = k; i-- > 0; )
			f->v = f->v << 8 | r->p[i];
		r->p += k;
		return 1;
	case PB_LEN:
		if ((k = pb_varint(r->p, r->end, &len)) == 0)
			return pb_fail(r, (size_t)(r->p - r->base),
			    "bad varint in a length");
		r->p += k;
		if (len > (uint64_t)(r->end - r->p))
			return pb_fail(r, off, "length past the end");
		f->data = r->p;
		f->len = (size_t)len;
		r->p += len;
		return 1;
	default:
		return pb_fail(r, off, "unknown wire type");
	}
}

int
pb_rep_init(struct pb_rep *it, struct pb *r, const struct pb_field *f)
{
	memset(it, 0, sizeof *it);
	if (f->wire == PB_VARINT) {
		it->one = f->v;
		it->left = 1;
		return 0;
	}
	if (f->wire == PB_LEN) {
		pb_sub(&it->r, r, f);
		it->packed = 1;
		return 0;
	}
	return pb_fail(r, f->off, "a repeated number that is neither a "
	    "varint nor packed");
}

int
pb_rep_next(struct pb_rep *it, struct pb *r, uint64_t *v)
{
	size_t k;

	if (!it->packed) {
		*v = it->one;
		return it->left-- > 0;
	}
	if (it->r.p >= it->r.end)
		return 0;
	if ((k = pb_varint(it->r.p, it->r.end, v)) == 0)
		return pb_fail(r, (size_t)(it->r.p - it->r.base),
		    "bad varint in a packed field");
	it->r.p += k;
	return 1;
}

void
pb_put_raw(struct pb_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap)
		b->p = xgrow(b->p, &b->cap, b->len + n, 1);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

size_t
pb_enc_varint(unsigned char t[PB_VARINT_MAX], uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		t[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	t[n++] = (unsigned char)v;
	return n;
}

void
pb_put_varint(struct pb_buf *b, uint64_t v)
{
	unsigned char t[PB_VARINT_MAX];

	pb_put_raw(b, t, pb_enc_varint(t, v));
}

void
pb_put_uint(struct pb_buf *b, uint32_t num, uint64_t v)
{
	if (v == 0)
		return;
	pb_put_varint(b, (uint64_t)num << 3 | PB_VARINT);
	pb_put_varint(b, v);
}

void
pb_put_bytes(struct pb_buf *b, uint32_t num, const void *p, size_t n)
{
	pb_put_varint(b, (uint64_t)num << 3 | PB_LEN);
	pb_put_varint(b, n);
	if (n)
		pb_put_raw(b, p, n);
}
