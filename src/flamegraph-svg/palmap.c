/*
 * palmap: see palmap.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "palmap.h"

static void
put(struct palmap *m, const char *name, size_t n, struct rgb c)
{
	uint32_t id = intern_put(&m->names, name, n, NULL);

	m->colors = xgrow(m->colors, &m->cap, id + 1, sizeof *m->colors);
	m->colors[id] = c;
}

/* "rgb(R,G,B)" with each part 0 to 255. */
static int
parse_rgb(const char *s, size_t n, struct rgb *c)
{
	char buf[32];
	int r, g, b, used = 0;

	if (n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (sscanf(buf, "rgb(%d,%d,%d)%n", &r, &g, &b, &used) != 3 ||
	    (size_t)used != n || r < 0 || r > 255 || g < 0 || g > 255 ||
	    b < 0 || b > 255)
		return -1;
	*c = (struct rgb){ r, g, b };
	return 0;
}

int
palmap_read(struct palmap *m, const char *path)
{
	struct input in;
	const char *p;
	size_t n;
	int r;
	unsigned long long line = 0, bad = 0;
	FILE *probe;

	memset(m, 0, sizeof *m);
	intern_init(&m->names);
	if ((probe = fopen(path, "r")) == NULL)
		return errno == ENOENT ? 0 : (warn_at(path, 0, "cannot open:"), -1);
	fclose(probe);
	if (input_open(&in, path, "\n") < 0)
		return -1;
	while ((r = input_getline(&in, &p, &n)) > 0) {
		const char *le = p + n, *arrow = NULL, *q;
		struct rgb c;

		line++;
		/* The last "->": names may hold one, colours never. */
		for (q = p; (q = memmem(q, (size_t)(le - q), "->", 2)); q++)
			arrow = q;
		if (arrow && parse_rgb(arrow + 2, (size_t)(le - arrow - 2), &c) == 0)
			put(m, p, (size_t)(arrow - p), c);
		else if (n > 0 && bad++ == 0)
			warn_at(in.name, line, "skipped a line that is not "
			    "NAME->rgb(R,G,B)");
	}
	if (bad > 1)
		warn_at(in.name, 0, "skipped %llu invalid lines", bad);
	input_close(&in);
	if (r < 0)
		palmap_free(m);
	return r < 0 ? -1 : 0;
}

struct rgb
palmap_get(struct palmap *m, const char *name, size_t n, int pal,
    enum shade shade)
{
	int isnew;
	uint32_t id = intern_put(&m->names, name, n, &isnew);
	struct rgb c;

	if (!isnew)
		return m->colors[id];
	c = color_frame(pal, shade, name, n);
	m->colors = xgrow(m->colors, &m->cap, id + 1, sizeof *m->colors);
	m->colors[id] = c;
	m->changed = 1;
	return c;
}

int
palmap_write(struct palmap *m, const char *path)
{
	size_t n = intern_count(&m->names), i;
	uint32_t *ids;
	FILE *fp;
	int err;

	if (!m->changed)
		return 0;
	ids = xcalloc(n + 1, sizeof *ids);
	for (i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	intern_sort(&m->names, ids, n);
	if ((fp = fopen(path, "w")) == NULL) {
		warn_at(path, 0, "cannot write the palette:");
		free(ids);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct rgb c = m->colors[ids[i]];

		fwrite(intern_str(&m->names, ids[i]), 1,
		    intern_len(&m->names, ids[i]), fp);
		fprintf(fp, "->rgb(%d,%d,%d)\n", c.r, c.g, c.b);
	}
	err = ferror(fp);
	if (fclose(fp) != 0 || err) {
		warn_at(path, 0, "write error:");
		free(ids);
		return -1;
	}
	free(ids);
	return 0;
}

void
palmap_free(struct palmap *m)
{
	intern_free(&m->names);
	free(m->colors);
}
