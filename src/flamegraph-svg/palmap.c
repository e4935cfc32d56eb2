/*
 * palmap: see palmap.h.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/compat.h"
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

/*
 * Open path for reading, not through a symbolic link, and only a regular
 * file (O_NONBLOCK: a FIFO must not hang the open).  The descriptor, -2
 * when there is no such file (and flags do not create it), or -1 after a
 * message.
 */
static int
open_palette(const char *path, int flags)
{
	struct stat st;
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);

	if (fd < 0) {
		if (errno == ENOENT && !(flags & O_CREAT))
			return -2;
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			warn_at(path, 0, "is a symbolic link; a palette is not "
			    "followed, so it is left alone");
		else
			warn_at(path, 0, "cannot open the palette:");
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		warn_at(path, 0, "is not a regular file, so not a palette; "
		    "left alone");
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Add the lines of the palette open on fd (owned from here on) to m.
 * A line that is not NAME->rgb(R,G,B) makes the whole file not a palette.
 */
static int
load(struct palmap *m, int fd, const char *path)
{
	struct input in;
	const char *p;
	size_t n;
	int r;
	unsigned long long line = 0;

	if (input_fdopen(&in, fd, path, "\n") < 0)
		return -1;
	while ((r = input_getline(&in, &p, &n)) > 0) {
		const char *le = p + n, *arrow = NULL, *q;
		struct rgb c;
		char quoted[4 * 60 + 8];

		line++;
		if (n == 0)
			continue;
		/* The last "->": names may hold one, colours never. */
		for (q = p; (q = memmem(q, (size_t)(le - q), "->", 2)); q++)
			arrow = q;
		if (arrow && parse_rgb(arrow + 2, (size_t)(le - arrow - 2), &c) == 0) {
			put(m, p, (size_t)(arrow - p), c);
			continue;
		}
		warn_at(path, line, "not a palette, so left alone: %s is not "
		    "NAME->rgb(R,G,B)", err_quote(quoted, p, n, 60));
		r = -1;
		break;
	}
	input_close(&in);
	return r < 0 ? -1 : 0;
}

int
palmap_read(struct palmap *m, const char *path)
{
	int fd;

	memset(m, 0, sizeof *m);
	intern_init(&m->names);
	if ((fd = open_palette(path, O_RDONLY)) == -2)
		return 0;
	if (fd < 0 || load(m, fd, path) < 0) {
		palmap_free(m);
		return -1;
	}
	return 0;
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

/*
 * Lock the file at path, made empty if there is none, and return its
 * descriptor with *st set; -1 after a message.  The name may have moved
 * on to a file another run renamed there while this one waited: then
 * the lock is on a file no one will read, and is taken again.
 */
static int
lock_palette(const char *path, struct stat *st)
{
	for (;;) {
		struct stat now;
		int fd = open_palette(path, O_RDONLY | O_CREAT), r;

		if (fd < 0)
			return -1;
		while ((r = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
			;
		if (r < 0 || fstat(fd, st) < 0) {
			warn_at(path, 0, "cannot lock the palette:");
			close(fd);
			return -1;
		}
		if (lstat(path, &now) == 0 && now.st_dev == st->st_dev &&
		    now.st_ino == st->st_ino)
			return fd;
		close(fd);
	}
}

/* Write m, sorted by name, to a new file and rename it to path. */
static int
replace(const struct palmap *m, const char *path, mode_t mode)
{
	size_t n = intern_count(&m->names), i, plen = strlen(path);
	uint32_t *ids = xcalloc(n + 1, sizeof *ids);
	char *tmp = xmalloc(plen + 8);
	FILE *fp = NULL;
	int fd, err;

	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".XXXXXX", 8);
	for (i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	intern_sort(&m->names, ids, n);
	if ((fd = mkstemp(tmp)) < 0 || fchmod(fd, mode) < 0 ||
	    (fp = fdopen(fd, "w")) == NULL) {
		warn_at(path, 0, "cannot write the palette:");
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
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
	if (fclose(fp) != 0 || err || rename(tmp, path) < 0) {
		warn_at(path, 0, "cannot write the palette:");
		unlink(tmp);
		free(tmp);
		free(ids);
		return -1;
	}
	free(tmp);
	free(ids);
	return 0;
}

int
palmap_write(struct palmap *m, const char *path)
{
	struct palmap now;
	struct stat st;
	size_t n = intern_count(&m->names), i, before;
	int fd, ret = 0;

	if (!m->changed)
		return 0;
	if ((fd = lock_palette(path, &st)) < 0)
		return -1;
	/* A rename would replace a file made read-only to keep it as it is. */
	if (access(path, W_OK) < 0) {
		warn_at(path, 0, "cannot write the palette:");
		close(fd);
		return -1;
	}
	memset(&now, 0, sizeof now);
	intern_init(&now.names);
	if (load(&now, dup(fd), path) < 0) {
		ret = -1;
	} else {
		before = intern_count(&now.names);
		for (i = 0; i < n; i++) {
			const char *name = intern_str(&m->names, (uint32_t)i);
			uint32_t len = intern_len(&m->names, (uint32_t)i), id;

			if (intern_find(&now.names, name, len, &id) < 0)
				put(&now, name, len, m->colors[i]);
		}
		if (intern_count(&now.names) > before)
			ret = replace(&now, path, st.st_mode & 07777);
	}
	palmap_free(&now);
	close(fd);
	return ret;
}

void
palmap_free(struct palmap *m)
{
	intern_free(&m->names);
	free(m->colors);
}
