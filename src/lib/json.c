/*
 * json: see json.h.  The lexer reads through a small window (p..e) over
 * input's current block and refills at its end; only a token's own text
 * is copied (into s), so a token cut between blocks costs nothing
 * special.  The state says what may come next; the stack says whether we
 * are in an object or an array.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "json.h"

enum {
	S_VALUE,		/* a value must come */
	S_VALUE_OR_END,		/* after '[': a value or ']' */
	S_KEY,			/* after ',' in an object: a key */
	S_KEY_OR_END,		/* after '{': a key or '}' */
	S_AFTER,		/* after a value: ',' or a closer, or the end */
	S_DONE			/* JSON_END or JSON_ERR was returned */
};

void
json_init(struct json *j, struct input *in)
{
	memset(j, 0, sizeof *j);
	j->in = in;
	in->boundary = "";
	in->boundlen = 0;
	j->line = 1;
	j->state = S_VALUE;
}

void
json_init_mem(struct json *j, const char *p, size_t n, uint64_t line)
{
	memset(j, 0, sizeof *j);
	j->blk = j->p = p;
	j->e = p + n;
	j->eof = 1;
	j->line = line;
	j->state = S_VALUE;
}

void
json_free(struct json *j)
{
	free(j->s);
	free(j->stack);
	j->s = NULL;
	j->stack = NULL;
}

uint64_t
json_offset(const struct json *j)
{
	return j->base + (uint64_t)(j->p - j->blk);
}

/* Make p < e, reading the next block; 0 at end of input, -1 on error. */
static int
refill(struct json *j)
{
	const char *p;
	size_t n;
	int atb, r;

	if (j->p < j->e)
		return 1;
	if (j->eof)
		return 0;
	j->base += (uint64_t)(j->e - j->blk);
	r = input_next(j->in, &p, &n, &atb);
	if (r <= 0) {
		j->eof = 1;
		j->blk = j->p = j->e;
		if (r < 0) {
			j->err = "read error";
			return -1;
		}
		return 0;
	}
	j->blk = j->p = p;
	j->e = p + n;
	return 1;
}

static enum json_tok
fail(struct json *j, const char *what)
{
	if (j->state != S_DONE || j->err == NULL) {
		j->err = what;
		j->errline = j->line;
		j->erroff = json_offset(j);
	}
	j->state = S_DONE;
	return JSON_ERR;
}

static void
put(struct json *j, const char *p, size_t n)
{
	if (j->n + n + 1 > j->cap) {
		size_t c = j->cap ? j->cap : 256;

		while (c < j->n + n + 1)
			c *= 2;
		j->s = xrealloc(j->s, c);
		j->cap = c;
	}
	memcpy(j->s + j->n, p, n);
	j->n += n;
	j->s[j->n] = '\0';
}

static void
put_utf8(struct json *j, uint32_t c)
{
	char b[4];

	if (c < 0x80) {
		b[0] = (char)c;
		put(j, b, 1);
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | c >> 6);
		b[1] = (char)(0x80 | (c & 0x3f));
		put(j, b, 2);
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | c >> 12);
		b[1] = (char)(0x80 | (c >> 6 & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		put(j, b, 3);
	} else {
		b[0] = (char)(0xf0 | c >> 18);
		b[1] = (char)(0x80 | (c >> 12 & 0x3f));
		b[2] = (char)(0x80 | (c >> 6 & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		put(j, b, 4);
	}
}

/* The next byte, consumed; -1 at end of input or on error. */
static int
getb(struct json *j)
{
	if (j->p == j->e && refill(j) <= 0)
		return -1;
	return (unsigned char)*j->p++;
}

static int
skip_ws(struct json *j)
{
	for (;;) {
		if (j->p == j->e && refill(j) <= 0)
			return -1;
		switch (*j->p) {
		case '\n':
			j->line++;
			/* FALLTHROUGH */
		case ' ': case '\t': case '\r':
			j->p++;
			break;
		default:
			return (unsigned char)*j->p;
		}
	}
}

/* Four hex digits of a \u escape; -1 when they are not. */
static long
hex4(struct json *j)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		int c = getb(j);

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + ((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return v;
}

/* The next byte, not consumed; -1 at end of input. */
static int
peek(struct json *j)
{
	return j->p < j->e || refill(j) > 0 ? (unsigned char)*j->p : -1;
}

/*
 * The escape after a backslash, decoded into s: 0, -1 at end of input,
 * -2 when it is not an escape.  A high surrogate takes the \u escape
 * right after it as its low half, wherever a block ends; a half without
 * the other is U+FFFD.
 */
static int
escape(struct json *j)
{
	long hi = -1;		/* a high half waiting for its low half */

	for (;;) {
		int c = getb(j);
		long u;

		if (c != 'u' && hi >= 0)
			put_utf8(j, 0xfffd);
		switch (c) {
		case '"': case '\\': case '/':
			put(j, (char[]){ (char)c }, 1);
			return 0;
		case 'b': put(j, "\b", 1); return 0;
		case 'f': put(j, "\f", 1); return 0;
		case 'n': put(j, "\n", 1); return 0;
		case 'r': put(j, "\r", 1); return 0;
		case 't': put(j, "\t", 1); return 0;
		case 'u': break;
		case -1: return -1;
		default: return -2;
		}
		if ((u = hex4(j)) < 0)
			return -2;
		if (hi >= 0 && u >= 0xdc00 && u < 0xe000) {
			put_utf8(j, (uint32_t)(0x10000 + ((hi - 0xd800) << 10) + (u - 0xdc00)));
			return 0;
		}
		if (hi >= 0)
			put_utf8(j, 0xfffd);
		hi = -1;
		if (u >= 0xd800 && u < 0xdc00) {
			if (peek(j) != '\\') {
				put_utf8(j, 0xfffd);
				return 0;
			}
			j->p++;
			hi = u;
			continue;
		}
		put_utf8(j, u >= 0xdc00 && u < 0xe000 ? 0xfffd : (uint32_t)u);
		return 0;
	}
}

/* A string whose opening quote was consumed, decoded into s. */
static int
string(struct json *j)
{
	j->n = 0;
	put(j, "", 0);
	for (;;) {
		const char *q;
		int r;

		if (j->p == j->e && refill(j) <= 0)
			return -1;
		for (q = j->p; q < j->e && *q != '"' && *q != '\\'; q++)
			if (*q == '\n')
				j->line++;
		put(j, j->p, (size_t)(q - j->p));
		j->p = q;
		if (q == j->e)
			continue;
		j->p++;
		if (*q == '"')
			return 0;
		if ((r = escape(j)) < 0)
			return r;
	}
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static void
take(struct json *j)
{
	put(j, j->p++, 1);
}

/* Digits into s; returns how many. */
static int
digits(struct json *j)
{
	int k = 0;

	while (isdig(peek(j)))
		take(j), k++;
	return k;
}

/* A number, as text in s. */
static int
number(struct json *j)
{
	int c;

	j->n = 0;
	put(j, "", 0);
	if (peek(j) == '-')
		take(j);
	if (peek(j) == '0')
		take(j);
	else if (digits(j) == 0)
		return -1;
	if (peek(j) == '.') {
		take(j);
		if (digits(j) == 0)
			return -1;
	}
	if ((peek(j) | 0x20) == 'e') {
		take(j);
		if ((c = peek(j)) == '+' || c == '-')
			take(j);
		if (digits(j) == 0)
			return -1;
	}
	return 0;
}

static int
literal(struct json *j, const char *w)
{
	for (; *w; w++)
		if (getb(j) != *w)
			return -1;
	return 0;
}

static enum json_tok
push(struct json *j, unsigned char kind)
{
	if (j->depth == JSON_MAXDEPTH)
		return fail(j, "nested too deeply");
	if (j->depth == j->stcap) {
		j->stcap = j->stcap ? j->stcap * 2 : 64;
		j->stack = xrealloc(j->stack, j->stcap);
	}
	j->stack[j->depth++] = kind;
	j->state = kind == 'o' ? S_KEY_OR_END : S_VALUE_OR_END;
	return kind == 'o' ? JSON_OBJ : JSON_ARR;
}

static enum json_tok
value(struct json *j, int c)
{
	int r;

	switch (c) {
	case '{':
		j->p++;
		return push(j, 'o');
	case '[':
		j->p++;
		return push(j, 'a');
	case '"':
		j->p++;
		if ((r = string(j)) < 0)
			return fail(j, r == -1 ? "unexpected end of input inside a string"
			    : "bad escape in a string");
		j->state = S_AFTER;
		return JSON_STR;
	case 't': case 'f': case 'n':
		if (literal(j, c == 't' ? "true" : c == 'f' ? "false" : "null") < 0)
			return fail(j, "not a JSON value");
		j->state = S_AFTER;
		return c == 't' ? JSON_TRUE : c == 'f' ? JSON_FALSE : JSON_NULL;
	case -1:
		return fail(j, j->err ? j->err : "unexpected end of input");
	default:
		if (c == '-' || isdig(c)) {
			if (number(j) < 0)
				return fail(j, "bad number");
			j->state = S_AFTER;
			return JSON_NUM;
		}
		return fail(j, "not a JSON value");
	}
}

static enum json_tok
key(struct json *j, int c)
{
	int r;

	if (c != '"')
		return fail(j, c < 0 ? "unexpected end of input" : "expected a key");
	j->p++;
	if ((r = string(j)) < 0)
		return fail(j, r == -1 ? "unexpected end of input inside a string"
		    : "bad escape in a string");
	if (skip_ws(j) != ':')
		return fail(j, "expected ':' after a key");
	j->p++;
	j->state = S_VALUE;
	return JSON_KEY;
}

enum json_tok
json_next(struct json *j)
{
	int c = skip_ws(j);

	switch (j->state) {
	case S_VALUE:
		return value(j, c);
	case S_VALUE_OR_END:
		if (c == ']')
			break;
		return value(j, c);
	case S_KEY:
		return key(j, c);
	case S_KEY_OR_END:
		if (c == '}')
			break;
		return key(j, c);
	case S_AFTER:
		if (j->depth == 0) {
			if (c < 0 && j->err == NULL) {
				j->state = S_DONE;
				return JSON_END;
			}
			return fail(j, c < 0 ? j->err : "text after the JSON value");
		}
		if (c == ',') {
			j->p++;
			if (j->stack[j->depth - 1] == 'o') {
				j->state = S_KEY;
				return key(j, skip_ws(j));
			}
			j->state = S_VALUE;
			return value(j, skip_ws(j));
		}
		if (c == '}' || c == ']')
			break;
		return fail(j, c < 0 ? "unexpected end of input"
		    : j->stack[j->depth - 1] == 'o' ? "expected ',' or '}'"
		    : "expected ',' or ']'");
	default:
		return JSON_ERR;
	}
	/* c closes a container: it must be the innermost one. */
	if (j->depth == 0 || j->stack[j->depth - 1] != (c == '}' ? 'o' : 'a'))
		return fail(j, "mismatched bracket");
	j->p++;
	j->depth--;
	j->state = S_AFTER;
	return c == '}' ? JSON_OBJ_END : JSON_ARR_END;
}

int
json_skip(struct json *j, enum json_tok t)
{
	size_t depth;

	if (t == JSON_ERR)
		return -1;
	if (t == JSON_KEY)
		t = json_next(j);
	if (t != JSON_OBJ && t != JSON_ARR)
		return t == JSON_ERR ? -1 : 0;
	depth = j->depth - 1;
	while (j->depth > depth) {
		t = json_next(j);
		if (t == JSON_ERR || t == JSON_END)
			return -1;
	}
	return 0;
}

/*
 * The decimal s[0..n) as digits d (at most 19 significant, the rest only
 * for rounding) times 10^exp.  Returns -1 when s is not a number.
 */
struct dec {
	int neg;
	char dig[40];		/* significant digits, no leading zeros */
	int nd;
	int more;		/* a nonzero digit was dropped past dig */
	int64_t exp;
};

static int
decode(const char *s, size_t n, struct dec *d)
{
	size_t i = 0;
	int64_t fracdig = 0, e = 0;	/* at most n: no overflow */
	int esign = 1, seen = 0;

	memset(d, 0, sizeof *d);
	if (i < n && s[i] == '-')
		d->neg = 1, i++;
	for (int frac = 0; i < n; i++) {
		if (s[i] == '.' && !frac) {
			frac = 1;
			continue;
		}
		if (!isdig(s[i]))
			break;
		seen = 1;
		if (d->nd == 0 && s[i] == '0') {
			fracdig += frac;
			continue;
		}
		if (d->nd < (int)sizeof d->dig) {
			d->dig[d->nd++] = s[i];
			fracdig += frac;
		} else {
			/* Past 40 digits: only the scale and stickiness matter. */
			if (!frac)
				e++;
			if (s[i] != '0')
				d->more = 1;
		}
	}
	if (!seen)
		return -1;
	if (i < n && (s[i] | 0x20) == 'e') {
		int64_t x = 0;

		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			esign = s[i++] == '-' ? -1 : 1;
		if (i == n)
			return -1;
		/*
		 * An exponent past 10^15 outweighs any count of digits that
		 * fits in memory, so it only has to stay that large: the value
		 * is then 0 or too large, as it truly is.
		 */
		for (; i < n && isdig(s[i]); i++)
			if (x < 1000000000000000)
				x = x * 10 + (s[i] - '0');
		e += esign * x;
	}
	if (i != n)
		return -1;
	d->exp = e - fracdig;
	return 0;
}

/*
 * d * 10^shift rounded to an integer magnitude in *mag; *exact is 0 when
 * a nonzero part was rounded away.  Returns -1 when it exceeds 2^64 - 1.
 */
static int
scale(const struct dec *d, int shift, uint64_t *mag, int *exact)
{
	int64_t keep = d->nd + d->exp + shift;
	uint64_t v = 0;
	int up = 0;

	*exact = !d->more;
	if (d->nd == 0) {
		*mag = 0;
		return 0;
	}
	if (keep > 20)
		return -1;
	for (long i = 0; i < keep; i++) {
		unsigned dg = i < d->nd ? (unsigned)(d->dig[i] - '0') : 0;

		if (v > (UINT64_MAX - dg) / 10)
			return -1;
		v = v * 10 + dg;
	}
	if (keep < d->nd) {
		long first = keep < 0 ? -1 : keep;

		if (first >= 0)
			up = d->dig[first] >= '5';
		for (long i = first < 0 ? 0 : first; i < d->nd; i++)
			if (d->dig[i] != '0')
				*exact = 0;
	}
	if (up) {
		if (v == UINT64_MAX)
			return -1;
		v++;
	}
	*mag = v;
	return 0;
}

int
json_u64(const char *s, size_t n, uint64_t *v)
{
	struct dec d;
	int exact;

	if (decode(s, n, &d) < 0 || scale(&d, 0, v, &exact) < 0 || !exact)
		return -1;
	return d.neg && *v != 0 ? -1 : 0;
}

int
json_scaled(const char *s, size_t n, int shift, int64_t *v)
{
	struct dec d;
	uint64_t m;
	int exact;

	if (decode(s, n, &d) < 0 || scale(&d, shift, &m, &exact) < 0)
		return -1;
	if (d.neg) {
		if (m > (uint64_t)INT64_MAX + 1)
			return -1;
		*v = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
	} else {
		if (m > INT64_MAX)
			return -1;
		*v = (int64_t)m;
	}
	return 0;
}
