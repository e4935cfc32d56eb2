/*
 * sniff: see sniff.h.  Each test reads the head as it is, without
 * copying; a marker that the head cuts short is not there.  Rejected:
 * running the programs' own format detectors here (stackcollapse's
 * twenty-six), which would tie every program to every format; the few
 * markers below are the files people actually mix up.
 */
#include <string.h>

#include "compat.h"
#include "err.h"
#include "sniff.h"

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The line p[0..n) is exactly s, but for a '\r' before its newline. */
static int
line_is(const char *p, size_t n, const char *s)
{
	size_t k = strlen(s);

	return n >= k && memcmp(p, s, k) == 0 &&
	    (n == k || p[k] == '\n' || (p[k] == '\r' && (n == k + 1 ||
	    p[k + 1] == '\n')));
}

/*
 * JSON, an object or an array of objects, whose head names trace event
 * keys: "[{" or "{" then a key, blanks allowed.  A folded stack may start
 * with '[' ("[unknown];main 3") but not with '[{"' or '{"' and these keys.
 */
static enum sniff_kind
json_kind(const char *p, size_t n)
{
	const char *e = p + n, *q = p;

	if (*q == '[')
		for (q++; q < e && is_blank(*q); q++)
			;
	if (q == e || *q != '{')
		return SNIFF_NONE;
	for (q++; q < e && is_blank(*q); q++)
		;
	if (q == e || *q != '"')
		return SNIFF_NONE;
	/* a profile's markers win: a trace may carry one (ProfileChunk) */
	if (memmem(p, n, "\"callFrame\"", 11) || memmem(p, n,
	    "\"ProfileChunk\"", 14) || memmem(p, n, "\"cpuProfile\"", 12))
		return SNIFF_CHROME_PROFILE;
	if (memmem(p, n, "\"traceEvents\"", 13) || memmem(p, n, "\"ph\"", 4))
		return SNIFF_CHROME_TRACE;
	return SNIFF_NONE;
}

static int
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * perf script with call chains: an event line (its comm right-aligned,
 * so blanks may lead) with a ':' and not ending in a count, as every
 * folded line does; then a frame line: a tab, blanks, a hex address, a
 * blank.
 */
static int
perf_script(const char *p, size_t n)
{
	const char *e = p + n, *nl = memchr(p, '\n', n), *t, *q;

	if (nl == NULL || *p == '\t' || memchr(p, ':', (size_t)(nl - p)) == NULL)
		return 0;
	for (t = nl; t > p && is_blank(t[-1]); t--)
		;
	if (t == p || (t[-1] >= '0' && t[-1] <= '9'))
		return 0;
	q = nl + 1;
	if (q == e || *q != '\t')
		return 0;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	t = q;
	while (q < e && is_hex(*q))
		q++;
	return q > t && q < e && (*q == ' ' || *q == '\t');
}

enum sniff_kind
sniff_head(const char *p, size_t n, unsigned long long *line)
{
	const char *e = p + n, *nl;
	enum sniff_kind k;

	*line = 0;
	if (n >= 8 && memcmp(p, "PERFILE2", 8) == 0)
		return SNIFF_PERF_DATA;
	/* from the first line that is not blank; markers start their line */
	for (*line = 1; p < e; p = nl + 1, ++*line) {
		const char *q = p;

		while (q < e && *q != '\n' && is_blank(*q))
			q++;
		if (q < e && *q != '\n')
			break;
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			return SNIFF_NONE;
	}
	if (p == e)
		return SNIFF_NONE;
	if (line_is(p, (size_t)(e - p), "# spans v1"))
		return SNIFF_SPANS;
	if (line_is(p, (size_t)(e - p), "# spanlayout v1"))
		return SNIFF_SPANS_LAID_OUT;
	while (p < e && is_blank(*p))
		p++;
	if ((k = json_kind(p, (size_t)(e - p))) != SNIFF_NONE)
		return k;
	/* perf script --header's comment lines come before the samples */
	while (p < e && *p == '#' && (nl = memchr(p, '\n', (size_t)(e - p)))) {
		p = nl + 1;
		++*line;
	}
	if (p < e && perf_script(p, (size_t)(e - p)))
		return SNIFF_PERF_SCRIPT;
	return SNIFF_NONE;
}

const char *
sniff_perf_name(char *buf, const char *name)
{
	if (strcmp(name, "<stdin>") == 0)
		return "-";
	return err_quote(buf, name, strlen(name), 200);
}
