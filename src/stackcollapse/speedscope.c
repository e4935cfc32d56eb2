/*
 * speedscope: see speedscope.h.  One pass over the sorted stacks writes
 * the samples as it splits them, interning each frame name into the
 * frame table; the weights follow from the counts, and the frame table
 * is written last, which JSON allows since an object's keys have no
 * order: so the file costs one pass and the table of names, never a copy
 * of the samples.  The total is summed first, so that a total that does
 * not fit stops the writer before its first byte.
 * Rejected: the "evented" profile type (open and close events), which
 * needs times and would invent an order of samples that folded stacks
 * do not have; a profile per input or per root, which would split what
 * the user merged.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/count.h"
#include "../lib/intern.h"
#include "../lib/jsonesc.h"
#include "../lib/out.h"
#include "speedscope.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"

const char *
speedscope_unit(const char *name)
{
	static const char *const units[] = { "none", "nanoseconds",
	    "microseconds", "milliseconds", "seconds", "bytes" };

	if (strcmp(name, "samples") == 0)
		return "none";
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(name, units[i]) == 0)
			return units[i];
	return NULL;
}

static void
put_count(const struct count *c)
{
	char b[COUNT_TEXT_MAX];

	out_write(b, count_fmt(b, c));
}

/* One stack's frames as "[i,j,...]", interning new names into frames. */
static void
put_sample(struct intern *frames, const char *s, size_t len)
{
	size_t start = 0;

	while (len > 0 && s[len - 1] == ';')
		len--;
	out_char('[');
	while (len > 0 && start <= len) {
		const char *semi = memchr(s + start, ';', len - start);
		size_t e = semi ? (size_t)(semi - s) : len;

		if (start > 0)
			out_char(',');
		out_u64(intern_put(frames, s + start, e - start, NULL));
		start = e + 1;
	}
	out_char(']');
}

int
speedscope_write(const struct folded_sum *a, const char *unit)
{
	size_t n = folded_sum_n(a), len;
	struct count all = { 0, 0 };
	struct intern frames;
	uint32_t *ids;

	for (uint32_t i = 0; i < n; i++)
		if (count_add(&all, folded_sum_count(a, 0, i)) < 0)
			return -1;
	ids = folded_sum_sorted(a);
	intern_init(&frames);
	out_str("{\"$schema\":\"" SCHEMA "\",\n"
	    "\"exporter\":\"stackcollapse (flametools)\",\n"
	    "\"name\":\"stackcollapse\",\"activeProfileIndex\":0,\n"
	    "\"profiles\":[{\"type\":\"sampled\",\"name\":\"stackcollapse\",\n"
	    "\"unit\":\"");
	out_str(unit);
	out_str("\",\"startValue\":0,\"endValue\":");
	put_count(&all);
	out_str(",\n\"samples\":[");
	for (size_t i = 0; i < n; i++) {
		const char *s = folded_sum_stack(a, ids[i], &len);

		out_str(i ? ",\n" : "\n");
		put_sample(&frames, s, len);
	}
	out_str("],\n\"weights\":[");
	for (size_t i = 0; i < n; i++) {
		out_str(i ? ",\n" : "\n");
		put_count(folded_sum_count(a, 0, ids[i]));
	}
	out_str("]}],\n\"shared\":{\"frames\":[");
	for (uint32_t i = 0; i < intern_count(&frames); i++) {
		out_str(i ? ",\n{\"name\":" : "\n{\"name\":");
		json_out(intern_str(&frames, i), intern_len(&frames, i));
		out_char('}');
	}
	out_str("]}}\n");
	intern_free(&frames);
	free(ids);
	return 0;
}
