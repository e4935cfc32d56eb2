/*
 * chromeout: see chromeout.h.  One pass over the spans as read; a span's
 * thread is its track's intern id + 1, so no table is built.  Spans are
 * written raw (the parent as read, not the tree's repair), so that
 * whatever spanlayout repairs, reading the file back repairs the same way
 * and tells the same on stderr.
 * The span's properties are a member of the event, not of its args:
 * speedscope appends an event's args to its name, so args that differ
 * span by span (an id) made every span a function of its own there and
 * its aggregate views (left heavy, sandwich) useless; Perfetto and
 * chrome://tracing skip a member they do not know, as speedscope does.
 * Properties are args all the same (the issue asked for them there, and
 * viewers show args): a span with some gets them appended to its name in
 * speedscope.  Times are from the earliest start: absolute epoch
 * microseconds with nanosecond decimals exceed a double, and JSON.parse
 * read two spans 30 ns apart as one time; the origin is in the first
 * event, for our reader to add back.
 * Rejected: B/E event pairs (two events a span, and an open span would
 * end wherever the reader puts the trace's end, not where it did); a
 * pid per track parsed from labels like "server:7" (a track need not be
 * named so); a top-level "metadata" object (speedscope refuses it).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/jsonesc.h"
#include "../lib/out.h"
#include "../lib/spans.h"
#include "chromeout.h"

/* ns as microseconds with up to three decimals, exactly. */
static void
put_us(int64_t ns)
{
	/* spans.h's range: |ns| is at most 2^63, so the negation fits. */
	uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	unsigned frac = (unsigned)(a % 1000);
	char d[4];
	int n = 3;

	if (ns < 0)
		out_char('-');
	out_u64(a / 1000);
	if (frac == 0)
		return;
	d[0] = (char)('0' + frac / 100);
	d[1] = (char)('0' + frac / 10 % 10);
	d[2] = (char)('0' + frac % 10);
	while (d[n - 1] == '0')
		n--;
	out_char('.');
	out_write(d, (size_t)n);
}

/* A property's value: an integer as a number where a double holds it. */
static void
put_prop(const struct spanset *s, const struct note *x)
{
	json_out(intern_str(&s->strs, x->key), intern_len(&s->strs, x->key));
	out_char(':');
	if (x->kind == SPANS_PROP)
		json_out(intern_str(&s->strs, x->val), intern_len(&s->strs, x->val));
	else if (x->num >= -((int64_t)1 << 53) && x->num <= (int64_t)1 << 53)
		out_i64(x->num);
	else
		out_fmt("\"%lld\"", (long long)x->num);
}

/* The trace's own metadata, as an "M" event (speedscope refuses a
 * top-level "metadata"): its time origin and the comment lines. */
static void
put_meta(const struct spanset *s, int64_t origin)
{
	out_str("\n{\"ph\":\"M\",\"name\":\"spanlayout\",\"pid\":1,\"tid\":0,"
	    "\"args\":{\"time-origin-ns\":\"");
	out_i64(origin);
	out_char('"');
	if (s->nmeta > 0) {
		size_t len = 0;
		char *all;

		for (size_t i = 0; i < s->nmeta; i++)
			len += strlen(s->meta[i]) + 1;
		all = xmalloc(len);
		len = 0;
		for (size_t i = 0; i < s->nmeta; i++) {
			size_t k = strlen(s->meta[i]);

			memcpy(all + len, s->meta[i], k);
			len += k;
			all[len++] = '\n';
		}
		out_str(",\"comments\":");
		json_out(all, len - 1);
		free(all);
	}
	out_str("}}");
}

/* A span's events, and the arrow from its parent on another track. */
static void
put_after(const struct spanset *s, const struct tree *t, size_t i)
{
	const struct span *sp = &s->v[i];

	for (uint32_t k = s->nnotes ? s->nfirst[i] : 0;
	    s->nnotes && k < s->nfirst[i + 1]; k++) {
		const struct note *x = &s->notes[k];

		if (x->kind != SPANS_EVENT)
			continue;
		out_str(",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":");
		json_out(intern_str(&s->strs, x->key), intern_len(&s->strs, x->key));
		out_str(",\"pid\":1,\"tid\":");
		out_u64((uint64_t)sp->track + 1);
		out_str(",\"ts\":");
		put_us(x->num - t->origin);
		out_str(",\"spanlayout\":{\"id\":");
		out_u64(sp->id);
		out_str("}}");
	}
	uint32_t p = t->parent[i];

	if (p >= t->n || s->v[p].track == sp->track)
		return;
	/* Leaves the parent where the child starts, or at the parent's edge. */
	int64_t at = sp->start, pend = s->v[p].start + (int64_t)s->v[p].dur;

	at = at < s->v[p].start ? s->v[p].start : at > pend ? pend : at;
	out_str(",\n{\"ph\":\"s\",\"cat\":\"parent\",\"name\":\"parent\",\"id\":");
	out_u64(sp->id);
	out_str(",\"pid\":1,\"tid\":");
	out_u64((uint64_t)s->v[p].track + 1);
	out_str(",\"ts\":");
	put_us(at - t->origin);
	out_str(",\"spanlayout\":{}},\n{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"parent\","
	    "\"name\":\"parent\",\"id\":");
	out_u64(sp->id);
	out_str(",\"pid\":1,\"tid\":");
	out_u64((uint64_t)sp->track + 1);
	out_str(",\"ts\":");
	put_us(sp->start - t->origin);
	out_str(",\"spanlayout\":{}}");
}

void
chrome_write(const struct spanset *s, const struct tree *t)
{
	size_t ntracks = intern_count(&s->tracks);
	unsigned char *used = xcalloc(ntracks + 1, 1);

	out_str("{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[");
	put_meta(s, t->origin);
	for (size_t i = 0; i < s->n; i++)
		used[s->v[i].track] = 1;
	for (uint32_t k = 0; k < ntracks; k++) {
		if (!used[k])
			continue;
		out_str(",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":");
		out_u64((uint64_t)k + 1);
		out_str(",\"args\":{\"name\":");
		json_out(intern_str(&s->tracks, k), intern_len(&s->tracks, k));
		out_str("}}");
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct span *sp = &s->v[i];
		int args = 0;

		out_str(",\n{\"ph\":\"X\",\"name\":");
		json_out(intern_str(&s->names, sp->name), intern_len(&s->names, sp->name));
		out_str(",\"pid\":1,\"tid\":");
		out_u64((uint64_t)sp->track + 1);
		out_str(",\"ts\":");
		/* From the origin: tree_build checked that it fits. */
		put_us((int64_t)((uint64_t)sp->start - (uint64_t)t->origin));
		out_str(",\"dur\":");
		/* A duration is at most 2^62 ns (spans.h): an int64. */
		put_us((int64_t)sp->dur);
		for (uint32_t k = s->nnotes ? s->nfirst[i] : 0;
		    s->nnotes && k < s->nfirst[i + 1]; k++) {
			if (s->notes[k].kind == SPANS_EVENT)
				continue;
			out_str(args++ ? "," : ",\"args\":{");
			put_prop(s, &s->notes[k]);
		}
		if (args)
			out_char('}');
		out_str(",\"spanlayout\":{\"id\":");
		out_u64(sp->id);
		out_str(",\"parent\":");
		out_u64(sp->parent);
		out_str(",\"track\":");
		json_out(intern_str(&s->tracks, sp->track), intern_len(&s->tracks, sp->track));
		if (sp->flags & SPAN_OPEN)
			out_str(",\"open\":true");
		out_str("}}");
		put_after(s, t, i);
	}
	out_str("\n]}\n");
	free(used);
}
