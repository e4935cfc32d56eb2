/*
 * tracejson: spans from JSON traces, read as a stream (lib/json.h).
 *
 * Chrome's Trace Event Format ({"traceEvents": [...]} or a bare array):
 *   X  complete event: ts and dur in microseconds, kept to the nanosecond
 *      exactly (fractions are decimal, not binary);
 *   B/E  a begin and end on one thread (pid, tid): an E closes the nearest
 *      open B of its name (of any name when it has none); an E that closes
 *      nothing is skipped and counted (uftrace writes such ends for
 *      linux:schedule), a B never closed is kept as an open span that
 *      runs to the end of the trace;
 *   M  process_name / thread_name metadata name the tracks; uftrace puts
 *      the thread id in "pid" there, so a thread name is looked up by
 *      (pid, tid), then by tid, then by a pid equal to the tid;
 *   anything else (counters, instants, flows, samples) is counted, not
 *   used.  Chrome events carry no parents: within a thread, a span's
 *   parent is the latest-starting span that is still open when it starts
 *   (equal starts: the longer is the parent; equal too: the earlier in
 *   the file).  Ids are positions in the run, from 1.
 *   What spanlayout --to=chrome writes (chromeout.h) is taken back: an
 *   event's "spanlayout" member gives its span's id, parent and track as
 *   they were, and "open": true its open flag, so that spans laid out
 *   through Chrome's format lay out the same.  The key is our program's
 *   name, so that no other producer's members are taken for ours (nor
 *   args at all); a bad value in it is an error.  The "comments" string
 *   of "metadata" is spanlayout's comment lines, one a line.
 *
 * TiDB's trace ({"trace_id": N, "span_sets": [{"node_type": "TiKV",
 * "spans": [{"span_id", "parent_id", "begin_unix_time_ns", "duration_ns",
 * "event"}]}]}): ids and parents as given (numbers or numeric strings),
 * the node type as the track.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/intern.h"
#include "../lib/json.h"
#include "../lib/sort.h"
#include "../lib/spans.h"
#include "spanset.h"

/* Metadata names by key: thread and process names of M events. */
struct mtab {
	struct intern keys;
	char **val;		/* by key id */
	size_t cap;
};

static void
mtab_put(struct mtab *m, const char *key, size_t kn, const char *name)
{
	int isnew;
	uint32_t id = intern_put(&m->keys, key, kn, &isnew);
	size_t n = strlen(name);

	if (id >= m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->val = xrealloc(m->val, m->cap * sizeof *m->val);
	}
	if (!isnew)
		free(m->val[id]);
	m->val[id] = xmalloc(n + 1);
	memcpy(m->val[id], name, n + 1);
}

static const char *
mtab_get(const struct mtab *m, const char *key, size_t kn)
{
	uint32_t id;

	if (kn == 0 || intern_find(&m->keys, key, kn, &id) < 0)
		return NULL;
	return m->val[id];
}

static void
mtab_free(struct mtab *m)
{
	for (size_t i = 0; i < intern_count(&m->keys); i++)
		free(m->val[i]);
	free(m->val);
	intern_free(&m->keys);
}

struct thread {
	char pid[64], tid[64];
	uint32_t *open;		/* spans begun by B and not yet ended */
	size_t nopen, capopen;
};

struct rd {
	struct spanset *s;
	struct json j;
	const char *path;
	size_t first;		/* this file's first span */
	/* Chrome */
	struct intern thrkeys;	/* "pid\0tid" -> index in thr */
	struct thread *thr;
	size_t nthr, capthr;
	uint32_t *thr_of;	/* per span of this file: its thread */
	unsigned char *given;	/* per span of this file: GIVEN_* */
	size_t capthr_of;
	struct mtab mt_exact, mt_tid, mt_pid, mp;	/* thread, process names */
	int64_t maxts;
	int64_t origin;		/* our "spanlayout" M event's time-origin-ns */
	size_t firstnote;	/* this file's first note */
	int seen_events, seen_sets;
};

static int
jerr(struct rd *r, const char *what)
{
	struct json *j = &r->j;

	if (what == NULL) {
		what = j->err ? j->err : "bad JSON";
		warn_at(r->path, j->errline, "%s (byte %llu)", what,
		    (unsigned long long)j->erroff);
	} else
		warn_at(r->path, j->line, "%s (byte %llu)", what,
		    (unsigned long long)json_offset(j));
	return -1;
}

/* A time out of spans.h's range, found in the value of key. */
static int
range_err(struct rd *r, const char *key, enum span_range rg)
{
	char msg[96];

	snprintf(msg, sizeof msg, "bad %s: %s", key, span_range_what(rg));
	return jerr(r, msg);
}

/* Expect a token of kind t; anything else is reported. */
static int
want(struct rd *r, enum json_tok t, const char *what)
{
	enum json_tok g = json_next(&r->j);

	if (g == JSON_ERR)
		return jerr(r, NULL);
	if (g != t)
		return jerr(r, what);
	return 0;
}

/*
 * The next member of an object: its key into k (empty when longer than
 * the caller's names) and its value's first token into *t.  Returns 1
 * for a member, 0 at the object's end, -1 on an error (reported).
 */
static int
member(struct rd *r, char *k, size_t cap, enum json_tok *t)
{
	struct json *j = &r->j;

	if ((*t = json_next(j)) != JSON_KEY)
		return *t == JSON_OBJ_END ? 0 : jerr(r, NULL);
	snprintf(k, cap, "%s", j->s);
	if (j->n >= cap)
		k[0] = '\0';
	if ((*t = json_next(j)) == JSON_ERR)
		return jerr(r, NULL);
	return 1;
}

/* Tabs and line breaks in a track label become spaces (spans(5)). */
static void
label_safe(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n')
			*s = ' ';
}

/* A number or numeric string as text into buf (cut to its size). */
static void
scalar_text(struct rd *r, enum json_tok t, char *buf, size_t cap)
{
	size_t n = r->j.n < cap - 1 ? r->j.n : cap - 1;

	if (t == JSON_NUM || t == JSON_STR)
		memcpy(buf, r->j.s, n);
	else
		n = 0;
	buf[n] = '\0';
}

/* What an event's "spanlayout" gave its span (chrome_finish must not
 * redo); GIVEN_OURS: it had one. */
enum { GIVEN_ID = 1, GIVEN_PARENT = 2, GIVEN_TRACK = 4, GIVEN_OPEN = 8,
    GIVEN_OURS = 16 };

/* An event's args, kept as properties: key and text in event.abuf. */
struct arg {
	size_t k, kn, v, vn;
	int isint;
	int64_t num;
};

struct event {
	char ph[8];
	char pid[64], tid[64];
	char *name, *argname, *track;
	size_t namen, argn, trackn, namecap, argcap, trackcap;
	int has_name, has_ts, has_dur;
	int64_t ts, dur;
	unsigned given;		/* GIVEN_*: the "spanlayout" member's members */
	uint64_t id, parent;
	struct arg *args;
	size_t nargs, capargs;
	char *abuf;
	size_t nabuf, capabuf;
};

/* Text into the event's args buffer; its offset. */
static size_t
abuf_put(struct event *ev, const char *p, size_t n)
{
	size_t at = ev->nabuf;

	ev->abuf = xgrow(ev->abuf, &ev->capabuf, at + n + 1, 1);
	memcpy(ev->abuf + at, p, n);
	ev->abuf[at + n] = '\0';
	ev->nabuf += n + 1;
	return at;
}

/*
 * One member of args, its key at kat in abuf and its value's first token
 * t: a string, or a number (an integer as one), kept as a property;
 * anything else skipped, and its key with it.
 */
static int
read_arg(struct rd *r, struct event *ev, size_t kat, size_t kn, enum json_tok t)
{
	struct json *j = &r->j;
	struct arg *a;

	if (t != JSON_STR && t != JSON_NUM) {
		ev->nabuf = kat;
		return json_skip(j, t) < 0 ? jerr(r, NULL) : 0;
	}
	ev->args = xgrow(ev->args, &ev->capargs, ev->nargs + 1, sizeof *ev->args);
	a = &ev->args[ev->nargs++];
	a->k = kat;
	a->kn = kn;
	a->isint = t == JSON_NUM && memchr(j->s, '.', j->n) == NULL &&
	    memchr(j->s, 'e', j->n) == NULL && memchr(j->s, 'E', j->n) == NULL &&
	    json_scaled(j->s, j->n, 0, &a->num) == 0;
	a->v = abuf_put(ev, j->s, j->n);
	a->vn = j->n;
	return 0;
}

static void
grab(struct json *j, char **p, size_t *n, size_t *cap)
{
	if (j->n + 1 > *cap) {
		*cap = j->n + 64;
		*p = xrealloc(*p, *cap);
	}
	memcpy(*p, j->s, j->n + 1);
	*n = j->n;
}

static int
time_us(struct rd *r, enum json_tok t, const char *key, int64_t *v)
{
	char msg[64];

	if ((t == JSON_NUM || t == JSON_STR) &&
	    json_scaled(r->j.s, r->j.n, 3, v) == 0)
		return 0;
	snprintf(msg, sizeof msg, "bad \"%s\" (want microseconds)", key);
	return jerr(r, msg);
}

/* An event's "spanlayout" member, whose first token t was read (chromeout.h). */
static int
read_ours(struct rd *r, struct event *ev, enum json_tok t)
{
	struct json *j = &r->j;
	char k[16];
	int m;

	if (t != JSON_OBJ)
		return jerr(r, "the event's \"spanlayout\" is not an object");
	ev->given |= GIVEN_OURS;
	while ((m = member(r, k, sizeof k, &t)) > 0) {
		if (strcmp(k, "id") == 0 || strcmp(k, "parent") == 0) {
			int id = k[0] == 'i';

			if (t != JSON_NUM || json_u64(j->s, j->n,
			    id ? &ev->id : &ev->parent) < 0 || (id && ev->id == 0))
				return jerr(r, id ? "bad \"spanlayout\" id (want a "
				    "number from 1)" : "bad \"spanlayout\" parent "
				    "(want a number)");
			ev->given |= id ? GIVEN_ID : GIVEN_PARENT;
		} else if (strcmp(k, "track") == 0 && t == JSON_STR) {
			grab(j, &ev->track, &ev->trackn, &ev->trackcap);
			ev->given |= GIVEN_TRACK;
		} else if (strcmp(k, "open") == 0 && (t == JSON_TRUE ||
		    t == JSON_FALSE)) {
			if (t == JSON_TRUE)
				ev->given |= GIVEN_OPEN;
		} else if (json_skip(j, t) < 0)
			return jerr(r, NULL);
	}
	return m;
}

/* The fields of one event object, whose '{' was read. */
static int
read_event(struct rd *r, struct event *ev)
{
	struct json *j = &r->j;
	enum json_tok t;
	char k[16];
	int m;

	ev->ph[0] = ev->pid[0] = ev->tid[0] = '\0';
	ev->has_name = ev->has_ts = ev->has_dur = 0;
	ev->argn = 0;
	ev->given = 0;
	ev->nargs = ev->nabuf = 0;

	while ((m = member(r, k, sizeof k, &t)) > 0) {
		if (strcmp(k, "ph") == 0 && t == JSON_STR)
			snprintf(ev->ph, sizeof ev->ph, "%s", j->s);
		else if (strcmp(k, "name") == 0 && t == JSON_STR) {
			grab(j, &ev->name, &ev->namen, &ev->namecap);
			ev->has_name = 1;
		} else if (strcmp(k, "ts") == 0) {
			if (time_us(r, t, "ts", &ev->ts) < 0)
				return -1;
			ev->has_ts = 1;
		} else if (strcmp(k, "dur") == 0) {
			if (time_us(r, t, "dur", &ev->dur) < 0)
				return -1;
			ev->has_dur = 1;
		} else if (strcmp(k, "pid") == 0)
			scalar_text(r, t, ev->pid, sizeof ev->pid);
		else if (strcmp(k, "tid") == 0)
			scalar_text(r, t, ev->tid, sizeof ev->tid);
		else if (strcmp(k, "spanlayout") == 0) {
			if (read_ours(r, ev, t) < 0)
				return -1;
		} else if (strcmp(k, "args") == 0 && t == JSON_OBJ) {
			while ((t = json_next(j)) == JSON_KEY) {
				int isname = strcmp(j->s, "name") == 0;
				/* The key, before the value's token replaces it. */
				size_t kn = j->n, kat = abuf_put(ev, j->s, kn);

				t = json_next(j);
				if (isname && t == JSON_STR)
					grab(j, &ev->argname, &ev->argn, &ev->argcap);
				if (read_arg(r, ev, kat, kn, t) < 0)
					return -1;
			}
			if (t != JSON_OBJ_END)
				return jerr(r, NULL);
		} else if (json_skip(j, t) < 0)
			return jerr(r, NULL);
	}
	return m;
}

static uint32_t
thread_of(struct rd *r, const struct event *ev)
{
	char key[130];
	size_t pn = strlen(ev->pid), tn = strlen(ev->tid);
	int isnew;
	uint32_t id;

	memcpy(key, ev->pid, pn);
	key[pn] = '\0';
	memcpy(key + pn + 1, ev->tid, tn);
	id = intern_put(&r->thrkeys, key, pn + 1 + tn, &isnew);
	if (isnew) {
		if (r->nthr == r->capthr) {
			r->capthr = r->capthr ? r->capthr * 2 : 16;
			r->thr = xrealloc(r->thr, r->capthr * sizeof *r->thr);
		}
		memset(&r->thr[r->nthr], 0, sizeof r->thr[0]);
		memcpy(r->thr[r->nthr].pid, ev->pid, pn + 1);
		memcpy(r->thr[r->nthr].tid, ev->tid, tn + 1);
		r->nthr++;
	}
	return id;
}

static struct span *
new_span(struct rd *r, uint32_t thr, int64_t start, const struct event *ev)
{
	struct span *sp = spanset_add(r->s);
	size_t k = r->s->n - 1 - r->first;

	if (k >= r->capthr_of) {
		r->capthr_of = r->capthr_of ? r->capthr_of * 2 : 4096;
		r->thr_of = xrealloc(r->thr_of, r->capthr_of * sizeof *r->thr_of);
		r->given = xrealloc(r->given, r->capthr_of);
	}
	r->thr_of[k] = thr;
	r->given[k] = (unsigned char)ev->given;
	sp->id = ev->given & GIVEN_ID ? ev->id : r->s->n;
	sp->parent = ev->given & GIVEN_PARENT ? ev->parent : 0;
	if (ev->given & GIVEN_TRACK) {
		/* As spans(5) reads a TRACK: never empty, no tab or newline. */
		label_safe(ev->track);
		sp->track = intern_put(&r->s->tracks, ev->trackn ? ev->track : "-",
		    ev->trackn ? ev->trackn : 1, NULL);
	}
	if (ev->given & GIVEN_OPEN) {
		sp->flags |= SPAN_OPEN;
		r->s->open_spans++;
	}
	sp->start = start;
	sp->line = r->j.line;
	sp->name = intern_put(&r->s->names, ev->has_name ? ev->name : "",
	    ev->has_name ? ev->namen : 0, NULL);
	return sp;
}

/* The event's args as properties of span id. */
static void
add_props(struct rd *r, const struct event *ev, uint64_t id)
{
	for (size_t i = 0; i < ev->nargs; i++) {
		const struct arg *a = &ev->args[i];
		struct spans_note n = { .kind = a->isint ? SPANS_PROP_INT : SPANS_PROP,
		    .id = id, .key = ev->abuf + a->k, .nkey = a->kn,
		    .val = ev->abuf + a->v, .nval = a->vn, .num = a->num };

		spanset_note(r->s, &n);
	}
}

/* spanlayout --to=chrome's own metadata event (chromeout.c). */
static int
our_meta(struct rd *r, const struct event *ev)
{
	for (size_t i = 0; i < ev->nargs; i++) {
		const struct arg *a = &ev->args[i];
		const char *k = ev->abuf + a->k, *v = ev->abuf + a->v;

		if (strcmp(k, "time-origin-ns") == 0) {
			if (json_scaled(v, a->vn, 0, &r->origin) < 0 ||
			    span_range_check(r->origin, 0) != SPAN_IN_RANGE)
				return jerr(r, "bad \"time-origin-ns\" (want ns within "
				    "2^62 of 0)");
		} else if (strcmp(k, "comments") == 0) {
			const char *p = v, *e = v + a->vn, *nl;

			for (; p <= e; p = nl + 1) {
				nl = memchr(p, '\n', (size_t)(e - p));
				nl = nl ? nl : e;
				spanset_meta(r->s, p, (size_t)(nl - p));
			}
		}
	}
	return 0;
}

static int
chrome_event(struct rd *r, struct event *ev)
{
	struct thread *th;
	enum span_range rg;
	uint32_t t;

	if (strcmp(ev->ph, "M") == 0) {
		char key[130];
		size_t pn = strlen(ev->pid), tn = strlen(ev->tid);

		if (ev->has_name && strcmp(ev->name, "spanlayout") == 0)
			return our_meta(r, ev);
		if (!ev->has_name || ev->argn == 0)
			return 0;
		if (strcmp(ev->name, "thread_name") == 0) {
			memcpy(key, ev->pid, pn);
			key[pn] = '\0';
			memcpy(key + pn + 1, ev->tid, tn);
			mtab_put(&r->mt_exact, key, pn + 1 + tn, ev->argname);
			if (tn)
				mtab_put(&r->mt_tid, ev->tid, tn, ev->argname);
			else
				mtab_put(&r->mt_pid, ev->pid, pn, ev->argname);
		} else if (strcmp(ev->name, "process_name") == 0)
			mtab_put(&r->mp, ev->pid, pn, ev->argname);
		return 0;
	}
	/* An instant event we wrote names its span; our flows are the
	 * parents again, which the spans carry. */
	if ((ev->ph[0] == 'i' || ev->ph[0] == 'I') && ev->ph[1] == '\0' &&
	    (ev->given & GIVEN_ID) && ev->has_ts) {
		struct spans_note n = { .kind = SPANS_EVENT, .id = ev->id,
		    .key = ev->has_name ? ev->name : "", .nkey = ev->has_name ? ev->namen : 0,
		    .num = ev->ts };

		spanset_note(r->s, &n);
		return 0;
	}
	if (strcmp(ev->ph, "X") != 0 && strcmp(ev->ph, "B") != 0 &&
	    strcmp(ev->ph, "E") != 0) {
		if (!(ev->given & GIVEN_OURS))
			r->s->other_phases++;
		return 0;
	}
	if (!ev->has_ts)
		return jerr(r, "trace event without \"ts\"");
	if (span_range_check(ev->ts, 0) != SPAN_IN_RANGE)
		return range_err(r, "\"ts\"", SPAN_START_OUT);
	if (ev->ts > r->maxts)
		r->maxts = ev->ts;
	t = thread_of(r, ev);
	th = &r->thr[t];
	if (ev->ph[0] == 'X') {
		struct span *sp;

		if (!ev->has_dur)
			return jerr(r, "complete (X) event without \"dur\"");
		if (ev->dur < 0)
			return jerr(r, "negative \"dur\"");
		if ((rg = span_range_check(ev->ts, (uint64_t)ev->dur)) != SPAN_IN_RANGE)
			return range_err(r, "\"dur\"", rg);
		sp = new_span(r, t, ev->ts, ev);
		sp->dur = (uint64_t)ev->dur;
		add_props(r, ev, sp->id);
		if (ev->ts + ev->dur > r->maxts)
			r->maxts = ev->ts + ev->dur;
	} else if (ev->ph[0] == 'B') {
		struct span *sp = new_span(r, t, ev->ts, ev);

		add_props(r, ev, sp->id);
		if (th->nopen == th->capopen) {
			th->capopen = th->capopen ? th->capopen * 2 : 64;
			th->open = xrealloc(th->open, th->capopen * sizeof *th->open);
		}
		th->open[th->nopen++] = (uint32_t)(sp - r->s->v);
	} else {
		size_t k = th->nopen;
		struct span *sp;

		if (ev->has_name && ev->namen) {
			uint32_t nm = intern_put(&r->s->names, ev->name, ev->namen, NULL);

			while (k > 0 && r->s->v[th->open[k - 1]].name != nm)
				k--;
		}
		if (k == 0) {
			r->s->unmatched_ends++;
			return 0;
		}
		sp = &r->s->v[th->open[k - 1]];
		if (ev->ts < sp->start)
			return jerr(r, "end (E) event before its begin (B)");
		/* Both in range: at most 2^63 apart, which only unsigned holds. */
		sp->dur = (uint64_t)ev->ts - (uint64_t)sp->start;
		if ((rg = span_range_check(sp->start, sp->dur)) != SPAN_IN_RANGE)
			return range_err(r, "\"ts\"", rg);
		memmove(&th->open[k - 1], &th->open[k],
		    (th->nopen - k) * sizeof th->open[0]);
		th->nopen--;
	}
	return 0;
}

/* The array of trace events, whose '[' was read. */
static int
chrome_events(struct rd *r)
{
	struct event ev;
	enum json_tok t;
	int ret = 0;

	memset(&ev, 0, sizeof ev);
	r->seen_events = 1;
	while ((t = json_next(&r->j)) == JSON_OBJ) {
		if (read_event(r, &ev) < 0 || chrome_event(r, &ev) < 0) {
			ret = -1;
			break;
		}
	}
	if (ret == 0 && t != JSON_ARR_END)
		ret = t == JSON_ERR ? jerr(r, NULL) : jerr(r, "trace event is not an object");
	free(ev.name);
	free(ev.argname);
	free(ev.track);
	free(ev.args);
	free(ev.abuf);
	return ret;
}

/* Orders the spans of one file by thread, start, longer first, position. */
static int
by_thread_time(const void *a, const void *b, const void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct rd *r = ctx;
	const struct span *p = &r->s->v[r->first + x], *q = &r->s->v[r->first + y];

	if (r->thr_of[x] != r->thr_of[y])
		return r->thr_of[x] < r->thr_of[y] ? -1 : 1;
	if (p->start != q->start)
		return p->start < q->start ? -1 : 1;
	if (p->dur != q->dur)
		return p->dur > q->dur ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Open spans closed at the end, parents by nesting, tracks named.
 * Returns -1 when an open span would last more than 2^62 ns (reported).
 */
static int
chrome_finish(struct rd *r)
{
	struct spanset *s = r->s;
	size_t n = s->n - r->first, top = 0;
	uint32_t *ord, *stack, *label;
	int ret = 0;

	for (size_t i = 0; i < r->nthr; i++) {
		for (size_t k = 0; k < r->thr[i].nopen; k++) {
			struct span *sp = &s->v[r->thr[i].open[k]];

			sp->dur = (uint64_t)r->maxts - (uint64_t)sp->start;
			sp->flags |= SPAN_OPEN;
			s->open_begins++;
			s->open_spans++;
			if (ret == 0 && span_range_check(sp->start, sp->dur) != SPAN_IN_RANGE) {
				warn_at(r->path, sp->line, "begin (B) event never ended, "
				    "open to the trace's end: %s",
				    span_range_what(SPAN_TOO_LONG));
				ret = -1;
			}
		}
		free(r->thr[i].open);
	}
	if (ret < 0)
		return -1;
	/* Times we wrote from an origin are the trace's own again. */
	for (size_t i = r->first; r->origin && i < s->n; i++) {
		struct span *sp = &s->v[i];

		if ((r->origin > 0 && sp->start > SPAN_TIME_MAX - r->origin) ||
		    span_range_check(sp->start + r->origin, sp->dur) != SPAN_IN_RANGE) {
			warn_at(r->path, sp->line, "span outside -2^62 to 2^62 ns once "
			    "time-origin-ns (%lld) is added", (long long)r->origin);
			return -1;
		}
		sp->start += r->origin;
	}
	for (size_t i = r->firstnote; r->origin && i < s->nnotes; i++)
		if (s->notes[i].kind == SPANS_EVENT)
			s->notes[i].num += r->origin;
	/*
	 * A thread's label, for its spans with no track given; interned in
	 * thread order as before, and only when used, so that tracks given
	 * keep the ids they had where they were written.
	 */
	label = xcalloc(r->nthr + 1, sizeof *label);
	for (size_t i = 0; i < n; i++)
		if (!(r->given[i] & GIVEN_TRACK))
			label[r->thr_of[i]] = 1;
	for (size_t i = 0; i < r->nthr; i++) {
		const struct thread *th = &r->thr[i];
		char key[130], buf[512];
		size_t pn = strlen(th->pid), tn = strlen(th->tid);
		const char *nm;

		if (!label[i])
			continue;

		memcpy(key, th->pid, pn);
		key[pn] = '\0';
		memcpy(key + pn + 1, th->tid, tn);
		nm = mtab_get(&r->mt_exact, key, pn + 1 + tn);
		if (nm == NULL)
			nm = mtab_get(&r->mt_tid, th->tid, tn);
		if (nm == NULL)
			nm = mtab_get(&r->mt_pid, th->tid, tn);
		if (nm == NULL)
			nm = mtab_get(&r->mp, th->pid, pn);
		if (nm && strstr(nm, tn ? th->tid : th->pid))
			snprintf(buf, sizeof buf, "%s", nm);
		else if (nm)
			snprintf(buf, sizeof buf, "%s:%s", nm, tn ? th->tid : th->pid);
		else
			snprintf(buf, sizeof buf, "tid:%s", tn ? th->tid : th->pid);
		label_safe(buf);
		label[i] = intern_put(&s->tracks, buf, strlen(buf), NULL);
	}
	ord = xmalloc((n + 1) * sizeof *ord);
	stack = xmalloc((n + 1) * sizeof *stack);
	for (size_t i = 0; i < n; i++)
		ord[i] = (uint32_t)i;
	sort_ctx(ord, n, sizeof *ord, by_thread_time, r);
	for (size_t i = 0; i < n; i++) {
		struct span *sp = &s->v[r->first + ord[i]];

		if (!(r->given[ord[i]] & GIVEN_TRACK))
			sp->track = label[r->thr_of[ord[i]]];
		if (i > 0 && r->thr_of[ord[i]] != r->thr_of[ord[i - 1]])
			top = 0;
		while (top > 0) {
			const struct span *p = &s->v[r->first + stack[top - 1]];

			/* Sorted by start: p holds sp when sp starts before p ends. */
			if (sp->start < p->start + (int64_t)p->dur)
				break;
			top--;
		}
		if (!(r->given[ord[i]] & GIVEN_PARENT))
			sp->parent = top ? s->v[r->first + stack[top - 1]].id : 0;
		stack[top++] = ord[i];
	}
	free(ord);
	free(stack);
	free(label);
	return 0;
}

/* The fields a TiDB span had; the first three it must have. */
enum {
	HAS_ID = 1, HAS_BEGIN = 2, HAS_DURATION = 4,
	HAS_NEEDED = HAS_ID | HAS_BEGIN | HAS_DURATION,
	HAS_PARENT = 8, HAS_EVENT = 16
};

/* One TiDB span set, whose '{' was read. */
static int
tidb_set(struct rd *r)
{
	struct json *j = &r->j;
	enum json_tok t;
	size_t from = r->s->n;
	uint32_t track = UINT32_MAX;
	char k[24];
	int m;

	while ((t = json_next(j)) == JSON_KEY) {
		if (strcmp(j->s, "node_type") == 0) {
			if ((t = json_next(j)) != JSON_STR)
				return t == JSON_ERR ? jerr(r, NULL)
				    : jerr(r, "\"node_type\" is not a string");
			label_safe(j->s);
			track = intern_put(&r->s->tracks, j->n ? j->s : "-",
			    j->n ? j->n : 1, NULL);
		} else if (strcmp(j->s, "spans") == 0) {
			if (want(r, JSON_ARR, "\"spans\" is not an array") < 0)
				return -1;
			while ((t = json_next(j)) == JSON_OBJ) {
				struct span *sp = spanset_add(r->s);
				enum span_range rg;
				int have = 0;
				int64_t d;

				sp->line = j->line;
				while ((m = member(r, k, sizeof k, &t)) > 0) {
					if (strcmp(k, "span_id") == 0 || strcmp(k, "parent_id") == 0) {
						uint64_t *v = k[0] == 's' ? &sp->id : &sp->parent;

						if ((t != JSON_NUM && t != JSON_STR) ||
						    json_u64(j->s, j->n, v) < 0)
							return jerr(r, k[0] == 's' ? "bad \"span_id\""
							    : "bad \"parent_id\"");
						have |= k[0] == 's' ? HAS_ID : HAS_PARENT;
					} else if (strcmp(k, "begin_unix_time_ns") == 0) {
						if ((t != JSON_NUM && t != JSON_STR) ||
						    json_scaled(j->s, j->n, 0, &sp->start) < 0)
							return jerr(r, "bad \"begin_unix_time_ns\"");
						have |= HAS_BEGIN;
					} else if (strcmp(k, "duration_ns") == 0) {
						if ((t != JSON_NUM && t != JSON_STR) ||
						    json_scaled(j->s, j->n, 0, &d) < 0 || d < 0)
							return jerr(r, "bad \"duration_ns\" (want "
							    "a non-negative integer)");
						sp->dur = (uint64_t)d;
						have |= HAS_DURATION;
					} else if (strcmp(k, "event") == 0 && t == JSON_STR) {
						sp->name = intern_put(&r->s->names, j->s, j->n, NULL);
						have |= HAS_EVENT;
					} else if (json_skip(j, t) < 0)
						return jerr(r, NULL);
				}
				if (m < 0)
					return -1;
				if ((have & HAS_NEEDED) != HAS_NEEDED)
					return jerr(r, !(have & HAS_ID) ? "span without \"span_id\""
					    : !(have & HAS_BEGIN) ? "span without \"begin_unix_time_ns\""
					    : "span without \"duration_ns\"");
				if (sp->id == 0)
					return jerr(r, "\"span_id\" 0 (ids must be nonzero)");
				if ((rg = span_range_check(sp->start, sp->dur)) != SPAN_IN_RANGE)
					return range_err(r, rg == SPAN_START_OUT ?
					    "\"begin_unix_time_ns\"" : "\"duration_ns\"", rg);
				if (!(have & HAS_EVENT))
					sp->name = intern_put(&r->s->names, "", 0, NULL);
			}
			if (t != JSON_ARR_END)
				return t == JSON_ERR ? jerr(r, NULL)
				    : jerr(r, "a span is not an object");
		} else if (json_skip(j, json_next(j)) < 0)
			return jerr(r, NULL);
	}
	if (t != JSON_OBJ_END)
		return jerr(r, NULL);
	if (track == UINT32_MAX)
		track = intern_put(&r->s->tracks, "-", 1, NULL);
	for (size_t i = from; i < r->s->n; i++)
		r->s->v[i].track = track;
	return 0;
}

static int
tidb_sets(struct rd *r)
{
	enum json_tok t;

	r->seen_sets = 1;
	while ((t = json_next(&r->j)) == JSON_OBJ)
		if (tidb_set(r) < 0)
			return -1;
	if (t != JSON_ARR_END)
		return t == JSON_ERR ? jerr(r, NULL) : jerr(r, "a span set is not an object");
	return 0;
}

/*
 * The "metadata" object: uftrace's command line is kept, and the comment
 * lines spanlayout --to=chrome wrote, one a line.
 */
static int
chrome_metadata(struct rd *r)
{
	struct json *j = &r->j;
	enum json_tok t = json_next(j);

	if (t != JSON_OBJ)
		return json_skip(j, t) < 0 ? jerr(r, NULL) : 0;
	while ((t = json_next(j)) == JSON_KEY) {
		int cmd = strcmp(j->s, "command_line") == 0;
		int comments = strcmp(j->s, "comments") == 0;

		t = json_next(j);
		if (comments && t == JSON_STR) {
			const char *p = j->s, *e = j->s + j->n, *nl;

			for (; p <= e; p = nl + 1) {
				nl = memchr(p, '\n', (size_t)(e - p));
				nl = nl ? nl : e;
				spanset_meta(r->s, p, (size_t)(nl - p));
			}
		} else if (cmd && t == JSON_STR) {
			for (char *c = j->s; *c; c++)
				if (*c == '\n' || *c == '\r')
					*c = ' ';
			char *m = xmalloc(j->n + 10);

			memcpy(m, "command: ", 9);
			memcpy(m + 9, j->s, j->n);
			spanset_meta(r->s, m, j->n + 9);
			free(m);
		} else if (json_skip(j, t) < 0)
			return jerr(r, NULL);
	}
	return t == JSON_OBJ_END ? 0 : jerr(r, NULL);
}

static int
document(struct rd *r, enum span_format fmt)
{
	struct json *j = &r->j;
	enum json_tok t = json_next(j);

	if (t == JSON_ARR) {
		if (fmt == FMT_TIDB)
			return jerr(r, "a bare array is not a TiDB trace");
		return chrome_events(r);
	}
	if (t != JSON_OBJ)
		return t == JSON_ERR ? jerr(r, NULL) : jerr(r, "not a JSON trace");
	while ((t = json_next(j)) == JSON_KEY) {
		if (strcmp(j->s, "traceEvents") == 0 && fmt != FMT_TIDB) {
			if (want(r, JSON_ARR, "\"traceEvents\" is not an array") < 0 ||
			    chrome_events(r) < 0)
				return -1;
		} else if (strcmp(j->s, "span_sets") == 0 && fmt != FMT_CHROME) {
			if (want(r, JSON_ARR, "\"span_sets\" is not an array") < 0 ||
			    tidb_sets(r) < 0)
				return -1;
		} else if (strcmp(j->s, "metadata") == 0 && fmt != FMT_TIDB) {
			if (chrome_metadata(r) < 0)
				return -1;
		} else if (strcmp(j->s, "trace_id") == 0 && fmt != FMT_CHROME) {
			char buf[128];

			t = json_next(j);
			if (t == JSON_NUM || t == JSON_STR) {
				snprintf(buf, sizeof buf, "trace-id: %s", j->s);
				spanset_meta(r->s, buf, strlen(buf));
			} else if (json_skip(j, t) < 0)
				return jerr(r, NULL);
		} else if (json_skip(j, json_next(j)) < 0)
			return jerr(r, NULL);
	}
	if (t != JSON_OBJ_END)
		return jerr(r, NULL);
	if ((t = json_next(j)) != JSON_END)
		return jerr(r, NULL);
	if (!r->seen_events && !r->seen_sets)
		return jerr(r, fmt == FMT_CHROME ? "no \"traceEvents\": not a Chrome trace"
		    : fmt == FMT_TIDB ? "no \"span_sets\": not a TiDB trace"
		    : "neither \"traceEvents\" (Chrome) nor \"span_sets\" (TiDB)");
	return 0;
}

int
spanset_read_json(struct spanset *s, struct input *in, enum span_format fmt)
{
	struct rd r;
	int ret;

	memset(&r, 0, sizeof r);
	r.s = s;
	r.path = in->name;
	r.first = s->n;
	r.firstnote = s->nnotes;
	r.maxts = INT64_MIN;
	intern_init(&r.thrkeys);
	intern_init(&r.mt_exact.keys);
	intern_init(&r.mt_tid.keys);
	intern_init(&r.mt_pid.keys);
	intern_init(&r.mp.keys);
	json_init(&r.j, in);
	ret = document(&r, fmt);
	if (ret == 0 && r.seen_events)
		ret = chrome_finish(&r);
	else
		for (size_t i = 0; i < r.nthr; i++)
			free(r.thr[i].open);
	json_free(&r.j);
	free(r.thr);
	free(r.thr_of);
	free(r.given);
	intern_free(&r.thrkeys);
	mtab_free(&r.mt_exact);
	mtab_free(&r.mt_tid);
	mtab_free(&r.mt_pid);
	mtab_free(&r.mp);
	return ret;
}
