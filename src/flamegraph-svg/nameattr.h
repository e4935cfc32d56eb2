/*
 * nameattr: per-function attributes for frames (--nameattr), as in
 * flamegraph.pl: "NAME<tab>attr=value<tab>attr=value...".
 *
 * Only attributes that cannot run code are taken: title (replaces the
 * tooltip), class, target, and href when it is relative or http(s) or
 * mailto (a frame with href becomes a link).  Others, such as onclick or
 * flamegraph.pl's raw g_extra, are reported and dropped: the file is data.
 */
#ifndef FG_NAMEATTR_H
#define FG_NAMEATTR_H

#include "../lib/intern.h"

struct frame_attrs {
	char *title, *href, *target, *klass;
};

struct nameattr {
	struct intern names;
	struct frame_attrs *attrs;
	size_t cap;
};

/* Read path; invalid lines and attributes are reported.  0 or -1. */
int nameattr_read(struct nameattr *m, const char *path);
/* The attributes of name, or NULL. */
const struct frame_attrs *nameattr_get(const struct nameattr *m,
    const char *name, size_t n);
void nameattr_free(struct nameattr *m);

#endif
