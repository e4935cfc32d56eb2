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
 * Rejected: B/E event pairs (two events a span, and an open span would
 * end wherever the reader puts the trace's end, not where it did); a
 * pid per track parsed from labels like "server:7" (a track need not be
 * named so); relative times (the origin is the trace's, which the
 * layout prints, and Perfetto lines traces up by absolute time).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/jsonesc.h"
#include "../lib/out.h"
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

void
chrome_write(const struct spanset *s)
{
	size_t ntracks = intern_count(&s->tracks);
	unsigned char *used = xcalloc(ntracks + 1, 1);

	out_str("{\"displayTimeUnit\":\"ns\",\n");
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
		out_str("\"metadata\":{\"comments\":");
		json_out(all, len - 1);
		out_str("},\n");
		free(all);
	}
	out_str("\"traceEvents\":[");
	for (size_t i = 0; i < s->n; i++)
		used[s->v[i].track] = 1;
	for (uint32_t t = 0, first = 1; t < ntracks; t++) {
		if (!used[t])
			continue;
		out_str(first ? "\n" : ",\n");
		first = 0;
		out_str("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":");
		out_u64((uint64_t)t + 1);
		out_str(",\"args\":{\"name\":");
		json_out(intern_str(&s->tracks, t), intern_len(&s->tracks, t));
		out_str("}}");
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct span *sp = &s->v[i];

		out_str(",\n{\"ph\":\"X\",\"name\":");
		json_out(intern_str(&s->names, sp->name), intern_len(&s->names, sp->name));
		out_str(",\"pid\":1,\"tid\":");
		out_u64((uint64_t)sp->track + 1);
		out_str(",\"ts\":");
		put_us(sp->start);
		out_str(",\"dur\":");
		/* A duration is at most 2^62 ns (spans.h): an int64. */
		put_us((int64_t)sp->dur);
		out_str(",\"spanlayout\":{\"id\":");
		out_u64(sp->id);
		out_str(",\"parent\":");
		out_u64(sp->parent);
		out_str(",\"track\":");
		json_out(intern_str(&s->tracks, sp->track), intern_len(&s->tracks, sp->track));
		if (sp->flags & SPAN_OPEN)
			out_str(",\"open\":true");
		out_str("}}");
	}
	out_str("\n]}\n");
	free(used);
}
