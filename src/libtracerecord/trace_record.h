/*
 * trace_record.h: spans for a few nanoseconds each.
 *
 *	tr_span s = tr_begin("parse");
 *	...
 *	tr_end(s);
 *
 * or, ended when the scope is left:
 *
 *	void work(void) { TR_FUNC(); ... { TR_SCOPE("inner"); ... } }
 *
 * A span's parent is the innermost span still open on the same thread.
 * Work handed to another thread names its parent: tr_begin_child(name,
 * parent) on the other thread.  tr_prop(s, "user", name) and
 * tr_prop_int(s, "rows", n) give a span properties; tr_event("miss")
 * marks an instant on the innermost open span.  Names and keys must be
 * static strings (string literals, __func__): only their address is
 * recorded, the text is read when the spans are written, outside the hot
 * path.
 *
 * Recording is on only under trace-record(1); otherwise tr_begin and
 * tr_end, inline, cost a load and a branch.  Link with -ltracerecord -lpthread.
 * Programs built with -finstrument-functions get a span per function.
 * See trace_record(3).
 */
#ifndef TRACE_RECORD_H
#define TRACE_RECORD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tr_span {
	uint64_t	id;		/* 0: not recorded */
	uint64_t	outer;		/* the parent to restore at the end */
} tr_span;

/* Nonzero while spans are recorded; set by the library, read here. */
extern int tr_recording;

tr_span	tr_begin_slow(const char *name, tr_span parent);
void	tr_end_slow(tr_span span);

/* Begin a span named by a static string; its parent is implicit. */
static inline tr_span
tr_begin(const char *name)
{
	tr_span s = { 0, 0 };

	if (__atomic_load_n(&tr_recording, __ATOMIC_RELAXED))
		s = tr_begin_slow(name, s);
	return s;
}

/* Begin a span whose parent is a span of another (or this) thread. */
static inline tr_span
tr_begin_child(const char *name, tr_span parent)
{
	tr_span s = { 0, 0 };

	if (__atomic_load_n(&tr_recording, __ATOMIC_RELAXED))
		s = tr_begin_slow(name, parent);
	return s;
}

/* End a span (on any thread).  Ending one not recorded does nothing. */
static inline void
tr_end(tr_span span)
{
	if (span.id)
		tr_end_slow(span);
}

void	tr_prop_slow(tr_span span, const char *key, const char *value);
void	tr_prop_int_slow(tr_span span, const char *key, int64_t value);
void	tr_event_slow(const char *name);

/*
 * A property of a span (on any thread): key a static string, as a name
 * is; value copied (up to 1024 bytes, cut there).  A span may have many,
 * and the same key twice.
 */
static inline void
tr_prop(tr_span span, const char *key, const char *value)
{
	if (span.id)
		tr_prop_slow(span, key, value);
}

/* A property whose value is an integer. */
static inline void
tr_prop_int(tr_span span, const char *key, int64_t value)
{
	if (span.id)
		tr_prop_int_slow(span, key, value);
}

/*
 * An instant event, named by a static string, on this thread's
 * innermost open span, at the time of the call; none when no span is
 * open.
 */
static inline void
tr_event(const char *name)
{
	if (__atomic_load_n(&tr_recording, __ATOMIC_RELAXED))
		tr_event_slow(name);
}

/* Nonzero when spans are being recorded. */
static inline int
tr_enabled(void)
{
	return __atomic_load_n(&tr_recording, __ATOMIC_RELAXED);
}

/* Hand this thread's spans to the writer now (they go at exit anyway). */
void	tr_flush(void);

static inline void
tr_scope_end(tr_span *s)
{
	tr_end(*s);
}

#define TR_CAT2(a, b)	a##b
#define TR_CAT(a, b)	TR_CAT2(a, b)
/* A span from here to the end of the enclosing scope. */
#define TR_SCOPE(name) \
	tr_span TR_CAT(tr_scope_, __LINE__) \
	    __attribute__((cleanup(tr_scope_end), unused)) = tr_begin(name)
/* A span for the rest of the function, named after it. */
#define TR_FUNC()	TR_SCOPE(__func__)

#ifdef __cplusplus
}
#endif

#endif
