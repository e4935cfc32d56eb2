/*
 * transform: see transform.h.  A stack is copied once into buf with each
 * ';' made a NUL, so every frame is a C string that regexec reads where
 * it lies; the steps then only edit the array of frames (drop, cut,
 * shift, reverse), and the survivors are joined once at the end.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "transform.h"

struct xform_step {
	enum xform_kind kind;
	int has_re;
	regex_t re;
};

struct xform_frame {
	size_t at, len;		/* in buf */
};

void
xform_init(struct xform *x)
{
	memset(x, 0, sizeof *x);
}

void
xform_add(struct xform *x, enum xform_kind kind, const char *opt,
    const char *re)
{
	struct xform_step *st;
	int r;

	x->step = xgrow(x->step, &x->cap, x->n + 1, sizeof *x->step);
	st = &x->step[x->n];
	memset(st, 0, sizeof *st);
	st->kind = kind;
	if (re != NULL) {
		if ((r = regcomp(&st->re, re, REG_EXTENDED | REG_NOSUB)) != 0) {
			char what[256], q[4 * 60 + 8];

			regerror(r, &st->re, what, sizeof what);
			what[0] = (char)tolower((unsigned char)what[0]);
			die(EXIT_USAGE, "%s: %s: %s", opt, what,
			    err_quote(q, re, strlen(re), 60));
		}
		st->has_re = 1;
	}
	x->n++;
}

static int
match(const struct xform *x, const struct xform_step *st,
    const struct xform_frame *f)
{
	return regexec(&st->re, x->buf + f->at, 0, NULL, 0) == 0;
}

/* The index of the first frame of fr[0..nf) that st matches, or nf. */
static size_t
first_match(const struct xform *x, const struct xform_step *st,
    const struct xform_frame *fr, size_t nf)
{
	size_t i;

	for (i = 0; i < nf && !match(x, st, &fr[i]); i++)
		;
	return i;
}

/* Apply st to fr[0..*nf): 1, or 0 when the stack is dropped. */
static int
step(struct xform *x, const struct xform_step *st, struct xform_frame *fr,
    size_t *nf)
{
	size_t i, w, n = *nf;

	switch (st->kind) {
	case XF_FOCUS:
		return first_match(x, st, fr, n) < n;
	case XF_IGNORE:
		return first_match(x, st, fr, n) == n;
	case XF_HIDE:
		for (i = w = 0; i < n; i++)
			if (!match(x, st, &fr[i]))
				fr[w++] = fr[i];
		*nf = w;
		if (w == 0 && n > 0) {
			x->emptied++;
			return 0;
		}
		return 1;
	case XF_SHOW_FROM:
		if ((i = first_match(x, st, fr, n)) == n)
			return 0;
		memmove(fr, fr + i, (n - i) * sizeof *fr);
		*nf = n - i;
		return 1;
	case XF_PRUNE_FROM:
		if ((i = first_match(x, st, fr, n)) < n)
			*nf = i + 1;
		return 1;
	case XF_COLLAPSE_RECURSION:
		for (i = w = 0; i < n; i++)
			if (w == 0 || fr[i].len != fr[w - 1].len ||
			    memcmp(x->buf + fr[i].at, x->buf + fr[w - 1].at,
			    fr[i].len) != 0)
				fr[w++] = fr[i];
		*nf = w;
		return 1;
	case XF_INVERT:
		for (i = 0; i < n / 2; i++) {
			struct xform_frame t = fr[i];

			fr[i] = fr[n - 1 - i];
			fr[n - 1 - i] = t;
		}
		return 1;
	}
	return 1;
}

int
xform_stack(struct xform *x, const char *s, size_t n, const char **out,
    size_t *outn)
{
	size_t nf = 0, i, w;

	x->buf = xgrow(x->buf, &x->bufcap, n + 1, 1);
	memcpy(x->buf, s, n);
	x->buf[n] = '\0';
	/* n + 1 frames at most: n bytes of ';' part n + 1 empty ones */
	x->fr = xgrow(x->fr, &x->frcap, n + 1, sizeof *x->fr);
	for (i = 0; n > 0 && i <= n; nf++) {
		char *semi = memchr(x->buf + i, ';', n - i);
		size_t e = semi ? (size_t)(semi - x->buf) : n;

		x->buf[e] = '\0';
		x->fr[nf].at = i;
		x->fr[nf].len = e - i;
		i = e + 1;
	}
	for (i = 0; i < x->n; i++)
		if (!step(x, &x->step[i], x->fr, &nf))
			return 0;
	x->out = xgrow(x->out, &x->outcap, n + 1, 1);
	for (i = w = 0; i < nf; i++) {
		if (i > 0)
			x->out[w++] = ';';
		memcpy(x->out + w, x->buf + x->fr[i].at, x->fr[i].len);
		w += x->fr[i].len;
	}
	*out = x->out;
	*outn = w;
	return 1;
}

int
xform_sum(struct xform *x, struct folded_sum *a)
{
	struct folded_sum t;
	size_t n = folded_sum_n(a);

	if (!xform_any(x))
		return 0;
	folded_sum_init(&t);
	for (uint32_t id = 0; id < n; id++) {
		size_t len, tn;
		const char *s = folded_sum_stack(a, id, &len), *ts;

		if (!xform_stack(x, s, len, &ts, &tn))
			continue;
		for (int col = 0; col < FOLDED_COLS; col++)
			if (folded_sum_add(&t, ts, tn, col,
			    folded_sum_count(a, col, id)) < 0) {
				folded_sum_free(&t);
				return -1;
			}
	}
	folded_sum_free(a);
	*a = t;
	return 0;
}

void
xform_write(struct xform *x, const char *s, size_t n, const struct count *c)
{
	if (xform_any(x) && !xform_stack(x, s, n, &s, &n))
		return;
	folded_write(s, n, c, NULL);
}

void
xform_end(struct xform *x)
{
	if (x->emptied)
		warn_msg("dropped %llu stack%s that --hide left without frames",
		    x->emptied, x->emptied == 1 ? "" : "s");
	for (size_t i = 0; i < x->n; i++)
		if (x->step[i].has_re)
			regfree(&x->step[i].re);
	free(x->step);
	free(x->buf);
	free(x->fr);
	free(x->out);
	memset(x, 0, sizeof *x);
}
