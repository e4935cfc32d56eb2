/*
 * nameattr: see nameattr.h for what is accepted and why.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "nameattr.h"

static char *
dup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static int
safe_href(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '/' || s[i] == '?' || s[i] == '#')
			return 1;	/* relative: no scheme */
		if (s[i] == ':')
			return (i == 4 && strncmp(s, "http", 4) == 0) ||
			    (i == 5 && strncmp(s, "https", 5) == 0) ||
			    (i == 6 && strncmp(s, "mailto", 6) == 0);
	}
	return 1;
}

static int
safe_word(const char *s, size_t n, int spaces)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		    (spaces && c == ' ')))
			return 0;
	}
	return 1;
}

/* One "attr=value" field: keep it if it is safe, else say why not. */
static void
take(struct frame_attrs *a, const char *file, unsigned long long line,
    const char *f, size_t n)
{
	const char *eq = memchr(f, '=', n), *v;
	size_t kl, vl;
	char q[4 * 40 + 8];

	if (eq == NULL) {
		if (n > 0)
			warn_at(file, line, "attribute without \"=\"; skipped");
		return;
	}
	kl = (size_t)(eq - f);
	v = eq + 1;
	vl = n - kl - 1;
	if (kl == 5 && memcmp(f, "title", 5) == 0) {
		free(a->title);
		a->title = dup(v, vl);
	} else if (kl == 4 && memcmp(f, "href", 4) == 0 && safe_href(v, vl)) {
		free(a->href);
		a->href = dup(v, vl);
	} else if (kl == 6 && memcmp(f, "target", 6) == 0 && safe_word(v, vl, 0)) {
		free(a->target);
		a->target = dup(v, vl);
	} else if (kl == 5 && memcmp(f, "class", 5) == 0 && safe_word(v, vl, 1)) {
		free(a->klass);
		a->klass = dup(v, vl);
	} else {
		warn_at(file, line, "attribute %s not accepted (title, class, "
		    "target and http(s) or relative href are)",
		    err_quote(q, f, n, 40));
	}
}

int
nameattr_read(struct nameattr *m, const char *path)
{
	struct input in;
	const char *p;
	size_t n;
	int r;
	unsigned long long line = 0;

	memset(m, 0, sizeof *m);
	intern_init(&m->names);
	if (input_open(&in, path, "\n") < 0)
		return -1;
	while ((r = input_getline(&in, &p, &n)) > 0) {
		const char *le = p + n, *tab = memchr(p, '\t', n);
		struct frame_attrs *a;
		uint32_t id;
		int isnew;

		line++;
		if (n == 0)
			continue;
		if (tab == NULL) {
			warn_at(in.name, line, "no attributes after the name");
			continue;
		}
		id = intern_put(&m->names, p, (size_t)(tab - p), &isnew);
		m->attrs = xgrow(m->attrs, &m->cap, id + 1, sizeof *m->attrs);
		if (isnew)
			memset(&m->attrs[id], 0, sizeof m->attrs[id]);
		a = &m->attrs[id];
		for (const char *f = tab + 1; f <= le;) {
			const char *fe = memchr(f, '\t', (size_t)(le - f));

			fe = fe ? fe : le;
			take(a, in.name, line, f, (size_t)(fe - f));
			f = fe + 1;
		}
	}
	input_close(&in);
	return r < 0 ? -1 : 0;
}

const struct frame_attrs *
nameattr_get(const struct nameattr *m, const char *name, size_t n)
{
	uint32_t id;

	return intern_find(&m->names, name, n, &id) == 0 ? &m->attrs[id] : NULL;
}

void
nameattr_free(struct nameattr *m)
{
	size_t i;

	for (i = 0; i < intern_count(&m->names); i++) {
		free(m->attrs[i].title);
		free(m->attrs[i].href);
		free(m->attrs[i].target);
		free(m->attrs[i].klass);
	}
	free(m->attrs);
	intern_free(&m->names);
}
