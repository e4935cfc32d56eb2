/*
 * json: a streaming pull parser for JSON, for trace files of any size.
 *
 * json_next hands out one token at a time (a key, a scalar, an opening or
 * closing bracket) and checks the grammar as it goes, so a reader walks
 * the document with a loop per level it cares about and json_skip for the
 * rest; nothing is built in memory but the current token's text.  Files
 * come through input(3), so they are mapped or read in blocks and may be
 * gzip; tokens split between blocks are carried over here.  Nesting is
 * tracked in a byte stack, never by recursion, so "[[[[..." cannot exhaust
 * the C stack (it is capped at JSON_MAXDEPTH).
 *
 * Numbers are handed out as their text, however long: json_u64 and
 * json_scaled convert them exactly (64-bit integers beyond 2^53,
 * fractional microseconds to whole nanoseconds, "1000...0e-N" of any
 * length), which a double cannot.  Strings are decoded (\uXXXX and
 * surrogate pairs to UTF-8, also when a pair is cut between blocks; a
 * lone surrogate to U+FFFD); raw control bytes inside strings are
 * accepted, as real exports contain them.
 * Rejected: a tree (DOM) parser, whose memory grows with the file, and
 * strtod, which rounds.
 */
#ifndef FT_JSON_H
#define FT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"

#define JSON_MAXDEPTH 100000

enum json_tok {
	JSON_END,		/* end of input after one whole value */
	JSON_OBJ, JSON_OBJ_END, JSON_ARR, JSON_ARR_END,
	JSON_KEY,		/* an object key; text in s/n */
	JSON_STR, JSON_NUM,	/* text in s/n */
	JSON_TRUE, JSON_FALSE, JSON_NULL,
	JSON_ERR		/* reported with json_where; see err */
};

struct json {
	struct input *in;
	const char *blk, *p, *e;	/* current block and position */
	uint64_t base;			/* file offset of blk */
	uint64_t line;			/* 1-based line of p */
	int eof;
	char *s;			/* text of the last key/string/number */
	size_t n, cap;
	unsigned char *stack;		/* 'o' or 'a' per open container */
	size_t depth, stcap;
	int state;
	const char *err;		/* what went wrong, for JSON_ERR */
	uint64_t errline, erroff;
};

/*
 * Parse in, opened by the caller (any boundary; it is changed) and not
 * yet read by input_next.  The caller closes it after json_free.
 */
void json_init(struct json *j, struct input *in);
/*
 * Parse p[0..n), text already in memory (a JSON block inside another
 * file), whose first line is line `line` of that file; p must outlive j.
 */
void json_init_mem(struct json *j, const char *p, size_t n, uint64_t line);
/* Free the parser's memory; safe to call twice. */
void json_free(struct json *j);

enum json_tok json_next(struct json *j);

/*
 * Skip the rest of a value whose first token t was just read (a scalar is
 * already whole).  Returns 0, or -1 on an error (json_next's).
 */
int json_skip(struct json *j, enum json_tok t);

/* The byte offset of the next unread byte. */
uint64_t json_offset(const struct json *j);

/*
 * Convert number text s[0..n): json_u64 wants a non-negative integer that
 * fits 64 bits ("12", also "12.0" or "1.2e1"); json_scaled multiplies by
 * 10^shift and rounds to the nearest integer (halves away from zero) into
 * an int64.  Both return 0, or -1 when the value does not fit or is not
 * an integer (json_u64).
 */
int json_u64(const char *s, size_t n, uint64_t *v);
int json_scaled(const char *s, size_t n, int shift, int64_t *v);

#endif
