/*
 * protobuf: the wire format of Protocol Buffers, read and written, enough
 * for profile.proto (pprof) without generated code or a library.
 *
 * Reading walks a message in place: pb_next hands out one field at a time
 * (its number, wire type, and its varint or its length-delimited bytes,
 * which point into the caller's buffer), so nothing is allocated and a
 * message is decoded only where it is used.  Every read is bounds-checked
 * against the message's end: a varint longer than ten bytes or running
 * past the end, a length past the end, a wire type that is not one of
 * varint, 64-bit, length-delimited or 32-bit (groups are deprecated and
 * profile.proto has none) stop the walk with an error and the byte offset
 * (from the start of the outermost buffer) where it was found.  A length
 * is never used to allocate, so a message that claims 10^9 elements costs
 * nothing until they are read, and they are not there.  Unknown fields
 * are the caller's to skip: pb_next has already stepped over them.
 * Repeated scalars come packed (one length-delimited field of varints) or
 * one field each; pb_rep walks both alike.
 *
 * Writing appends to a growable byte buffer (struct pb_buf) that the
 * caller owns and frees; a nested message, or a packed field's varints,
 * is written into a buffer of its own and appended as bytes (profile
 * messages are small; rejected: reserving a length and shifting back,
 * which saves a copy of each).
 */
#ifndef FT_PROTOBUF_H
#define FT_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

/* A message being read: bytes p..end, offsets counted from base. */
struct pb {
	const unsigned char *p, *end, *base;
	const char *err;	/* what went wrong, or NULL */
	size_t erroff;		/* where, from base */
};

struct pb_field {
	uint32_t num;
	int wire;
	uint64_t v;		/* PB_VARINT, PB_I64, PB_I32: the value */
	const unsigned char *data;	/* PB_LEN: the bytes, */
	size_t len;		/* and their count */
	size_t off;		/* the field's first byte, from base */
};

/* A reader over buf[0..n) (offsets from buf). */
void pb_init(struct pb *r, const void *buf, size_t n);

/* A reader over a length-delimited field's bytes (offsets still from
 * the outermost base). */
void pb_sub(struct pb *sub, const struct pb *r, const struct pb_field *f);

/*
 * The next field: 1 with *f set, 0 at the end of the message, -1 on an
 * error (r->err and r->erroff set; every later call returns -1).
 */
int pb_next(struct pb *r, struct pb_field *f);

/*
 * Repeated scalar fields: struct pb_rep walks one field's values, a
 * varint field's one value or a packed field's varints.
 */
struct pb_rep {
	struct pb r;
	uint64_t one;
	int left;		/* the unpacked value not yet handed out */
	int packed;
};

/*
 * Start walking f's values, errors going to r (the message f was read
 * from).  Returns 0, or -1 when f is neither a varint nor packed.
 */
int pb_rep_init(struct pb_rep *it, struct pb *r, const struct pb_field *f);
/* The next value: 1, 0 at the end, -1 on an error (reported into r). */
int pb_rep_next(struct pb_rep *it, struct pb *r, uint64_t *v);

/* The varint at p..end: its length (1..10) with *v set, or 0 if bad. */
size_t pb_varint(const unsigned char *p, const unsigned char *end,
    uint64_t *v);

/* Writing. */
struct pb_buf {
	unsigned char *p;
	size_t len, cap;
};

void pb_put_varint(struct pb_buf *b, uint64_t v);
/* v's varint in t; returns its length (1 to PB_VARINT_MAX bytes). */
enum { PB_VARINT_MAX = 10 };
size_t pb_enc_varint(unsigned char t[PB_VARINT_MAX], uint64_t v);
/* Bytes as they are (no tag, no length). */
void pb_put_raw(struct pb_buf *b, const void *p, size_t n);
/* Field num as a varint (omitted when zero, as proto3 does). */
void pb_put_uint(struct pb_buf *b, uint32_t num, uint64_t v);
/* Field num as length-delimited bytes (a string or a nested message). */
void pb_put_bytes(struct pb_buf *b, uint32_t num, const void *p, size_t n);

#endif
