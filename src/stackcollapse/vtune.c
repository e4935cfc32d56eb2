/*
 * vtune: Intel VTune's top-down tree as CSV (inferno-collapse-vtune).
 *
 *	vtune -report top-down -call-stack-mode all -column="CPU Time:Self,Module"
 *	    -report-output out.csv -format csv -csv-delimiter comma -r RESULT
 *
 * After the header "Function Stack,CPU Time:Self,Module", each line is a
 * node: leading spaces give its depth (one per level), then the function
 * (quoted when it has commas), its self time in seconds and its module.
 * Every node with self time becomes a stack weighted in milliseconds,
 * rounded, as inferno does.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "formats.h"

static struct {
	int no_modules;		/* no "module`" prefix */
} opt;

static const struct fmt_option vtune_options[] = {
	{ "no-modules", &opt.no_modules, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

#define HEADER "Function Stack,CPU Time:Self,Module"

/* A number as Rust's str::parse::<f64> takes it: all of the field. */
static int
parse_f64(const char *s, size_t n, double *v)
{
	char buf[64], *end;

	if (n == 0 || n >= sizeof buf || s[0] == ' ' || s[0] == '\t' ||
	    memchr(s, 'x', n) || memchr(s, 'X', n))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, &end);
	return *end == '\0' ? 0 : -1;
}

static int
node(struct reader *r, struct fstack *fs, const char *l, size_t n)
{
	const char *fn, *t, *m = "", *sep;
	size_t fl, tl, ml = 0;
	double secs, ms;
	uint64_t w;

	if (l[0] == '"') {
		fn = l + 1;
		if ((sep = memmem(fn, n - 1, "\",", 2)) == NULL)
			return rd_fail(r, "cannot read this line (function, "
			    "CPU time, module)");
		fl = (size_t)(sep - fn);
		t = sep + 2;
	} else {
		fn = l;
		if ((sep = memchr(l, ',', n)) == NULL)
			return rd_fail(r, "cannot read this line (function, "
			    "CPU time, module)");
		fl = (size_t)(sep - fn);
		t = sep + 1;
	}
	tl = n - (size_t)(t - l);
	if ((sep = memchr(t, ',', tl)) != NULL) {
		m = sep + 1;
		ml = tl - (size_t)(m - t);
		tl = (size_t)(sep - t);
	} else if (!opt.no_modules)
		return rd_fail(r, "cannot read this line (function, CPU time, "
		    "module)");
	if (parse_f64(t, tl, &secs) < 0)
		return rd_fail(r, "invalid CPU Time:Self \"%.*s\"", (int)tl, t);
	if (opt.no_modules)
		ml = 0;
	if (ml)
		fs_push2(fs, m, ml, '`', fn, fl);
	else
		fs_push(fs, fn, fl);
	ms = round(secs * 1000.0);
	/* Past 2^64 milliseconds an error, not 2^64-1. */
	if (ms >= 18446744073709551616.0)
		return rd_fail(r, "CPU Time:Self \"%.*s\" does not fit in 64 "
		    "bits of milliseconds", (int)tl, t);
	w = !(ms > 0) ? 0 : (uint64_t)ms;
	if (w > 0) {
		size_t jn;
		const char *st = fs_join(fs, 0, &jn);

		sink_put(r->sink, st, jn, w, 1);
	}
	return 0;
}

static int
vtune_collapse(struct reader *r)
{
	struct fstack fs;
	const char *l;
	size_t n, sp;
	int ret;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0 &&
	    !(n >= strlen(HEADER) && memcmp(l, HEADER, strlen(HEADER)) == 0))
		;
	if (ret == 0)
		warn_at(r->name, 0, "no \"" HEADER "\" header: nothing to fold");
	while (ret > 0 && (ret = rd_line(r, &l, &n)) > 0) {
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		for (sp = 0; sp < n && l[sp] == ' '; sp++)
			;
		if (sp == n)
			continue;
		if (sp + 1 > fs.n + 1) {
			ret = rd_fail(r, "indentation skips a level (from %zu to "
			    "%zu)", fs.n, sp + 1);
			break;
		}
		fs_truncate(&fs, sp);
		if (node(r, &fs, l + sp, n - sp) < 0)
			ret = -1;
	}
	fs_free(&fs);
	return ret < 0 ? -1 : 0;
}

static int
vtune_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;

	while (fmt_nextline(&p, e, &l, &len))
		if (len >= strlen(HEADER) && memcmp(l, HEADER, strlen(HEADER)) == 0)
			return 1;
	return 0;
}

const struct format vtune_format = {
	.name = "vtune",
	.detect = vtune_detect,
	.collapse = vtune_collapse,
	.options = vtune_options,
};
