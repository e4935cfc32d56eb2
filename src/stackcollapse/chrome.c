/*
 * chrome: sampled JavaScript stacks from Chrome, Node.js or Chromium: a
 * .cpuprofile (DevTools' "Save profile", node --cpu-prof) or a Trace
 * Event file whose ProfileChunk events carry the profile (DevTools'
 * Performance panel, chromium --trace-startup).
 *
 *	node --cpu-prof app.js             (CPU.*.cpuprofile)
 *
 * A profile is a tree of nodes (id, callFrame, children or parent) and a
 * list of samples naming the node that was on CPU.  A frame is the
 * function's name ("(anonymous)" when it has none) and, for script code,
 * its "url:line"; the "(root)" node is left out.  Each sample counts 1;
 * a profile without samples counts its nodes' hitCount.  Trace files may
 * hold several profiles (threads, processes), told apart by the event's
 * id and pid; their chunks may come in any order.
 * Span events (ph X, B/E) are not samples: `spanlayout --fold` folds them.
 * JSON with no profile in it (spans only, or anything else) is an error,
 * where an empty output would pass for an idle profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/intern.h"
#include "../lib/json.h"
#include "formats.h"

#define NONE UINT32_MAX

struct cnode {
	uint32_t prof;
	uint64_t id, parent;
	int has_parent;
	uint32_t name;
	uint64_t hits, samples;
	uint32_t pidx;		/* parent's index, resolved at the end */
};

struct link { uint32_t prof; uint64_t child, parent; };
struct samp { uint32_t prof; uint64_t id; };

struct cp {
	struct reader *r;
	struct json j;
	struct intern keys;	/* (prof, id) -> node index */
	struct intern names;
	struct intern profs;	/* "pid/id" of trace profiles */
	struct cnode *nodes;
	size_t nn, ncap;
	struct link *links;
	size_t nl, lcap;
	struct samp *samps;
	size_t ns, scap;
	char *buf;
	size_t bufcap;
	int profiles;		/* nodes or samples lists seen, even empty */
	size_t spans;		/* trace events of ph X, B or E */
};

static int
bad(struct cp *c, const char *what)
{
	if (c->j.err)
		warn_at(c->r->name, c->j.errline, "%s", c->j.err);
	else
		warn_at(c->r->name, c->j.line, "%s", what);
	return -1;
}

static int
skip(struct cp *c, enum json_tok t)
{
	return json_skip(&c->j, t) < 0 ? bad(c, "bad JSON") : 0;
}

static int
number(struct cp *c, enum json_tok t, uint64_t *v)
{
	if (t != JSON_NUM || json_u64(c->j.s, c->j.n, v) < 0)
		return bad(c, "expected a whole number");
	return 0;
}

/* callFrame: the frame's name. */
static int
callframe(struct cp *c, uint32_t *name)
{
	char *fn = NULL, *url = NULL;
	size_t fnl = 0, ul = 0;
	uint64_t line = 0;
	int has_line = 0, ret = 0;
	enum json_tok t;

	while ((t = json_next(&c->j)) == JSON_KEY) {
		char key[16];

		snprintf(key, sizeof key, "%.*s", (int)c->j.n, c->j.s);
		t = json_next(&c->j);
		if (strcmp(key, "functionName") == 0 && t == JSON_STR) {
			fn = xrealloc(fn, c->j.n + 1);
			memcpy(fn, c->j.s, fnl = c->j.n);
		} else if (strcmp(key, "url") == 0 && t == JSON_STR) {
			url = xrealloc(url, c->j.n + 1);
			memcpy(url, c->j.s, ul = c->j.n);
		} else if (strcmp(key, "lineNumber") == 0 && t == JSON_NUM) {
			int64_t v;

			if (json_scaled(c->j.s, c->j.n, 0, &v) == 0 && v >= 0) {
				line = (uint64_t)v + 1;
				has_line = 1;
			}
		} else if (skip(c, t) < 0) {
			ret = -1;
			break;
		}
	}
	if (ret == 0 && t != JSON_OBJ_END)
		ret = bad(c, "bad callFrame");
	if (ret == 0) {
		size_t need = fnl + ul + 48, n;

		c->buf = xgrow(c->buf, &c->bufcap, need, 1);
		if (fnl)
			memcpy(c->buf, fn, n = fnl);
		else
			memcpy(c->buf, "(anonymous)", n = 11);
		if (ul) {
			c->buf[n++] = ' ';
			memcpy(c->buf + n, url, ul);
			n += ul;
			if (has_line)
				n += (size_t)snprintf(c->buf + n, 24, ":%llu",
				    (unsigned long long)line);
		}
		/* fs_push makes it a frame (';' and line breaks) */
		*name = intern_put(&c->names, c->buf, n, NULL);
	}
	free(fn);
	free(url);
	return ret;
}

static int
node(struct cp *c, uint32_t prof)
{
	struct cnode nd = { prof, 0, 0, 0, NONE, 0, 0, NONE };
	int has_id = 0;
	enum json_tok t;

	while ((t = json_next(&c->j)) == JSON_KEY) {
		char key[16];

		snprintf(key, sizeof key, "%.*s", (int)c->j.n, c->j.s);
		t = json_next(&c->j);
		if (strcmp(key, "id") == 0) {
			if (number(c, t, &nd.id) < 0)
				return -1;
			has_id = 1;
		} else if (strcmp(key, "parent") == 0) {
			if (number(c, t, &nd.parent) < 0)
				return -1;
			nd.has_parent = 1;
		} else if (strcmp(key, "hitCount") == 0) {
			if (number(c, t, &nd.hits) < 0)
				return -1;
		} else if (strcmp(key, "callFrame") == 0 && t == JSON_OBJ) {
			if (callframe(c, &nd.name) < 0)
				return -1;
		} else if (strcmp(key, "children") == 0 && t == JSON_ARR) {
			uint64_t ch;

			while ((t = json_next(&c->j)) == JSON_NUM) {
				if (number(c, t, &ch) < 0)
					return -1;
				c->links = xgrow(c->links, &c->lcap, c->nl + 1,
				    sizeof *c->links);
				c->links[c->nl++] = (struct link){ prof, ch, 0 };
			}
			if (t != JSON_ARR_END)
				return bad(c, "children: expected node ids");
		} else if (skip(c, t) < 0)
			return -1;
	}
	if (t != JSON_OBJ_END || !has_id)
		return bad(c, "a profile node without an id");
	if (nd.name == NONE)
		nd.name = intern_put(&c->names, "(unknown)", 9, NULL);
	/* The node's children links name it as their parent. */
	for (size_t k = c->nl; k-- > 0 && c->links[k].parent == 0 &&
	    c->links[k].prof == prof;)
		c->links[k].parent = nd.id + 1;
	c->nodes = xgrow(c->nodes, &c->ncap, c->nn + 1, sizeof *c->nodes);
	c->nodes[c->nn++] = nd;
	return 0;
}

static int
profile_part(struct cp *c, const char *key, enum json_tok t, uint32_t prof)
{
	if ((strcmp(key, "nodes") == 0 || strcmp(key, "samples") == 0) &&
	    t == JSON_ARR)
		c->profiles = 1;
	if (strcmp(key, "nodes") == 0 && t == JSON_ARR) {
		while ((t = json_next(&c->j)) == JSON_OBJ)
			if (node(c, prof) < 0)
				return -1;
		return t == JSON_ARR_END ? 0 : bad(c, "nodes: expected objects");
	}
	if (strcmp(key, "samples") == 0 && t == JSON_ARR) {
		uint64_t id;

		while ((t = json_next(&c->j)) == JSON_NUM) {
			if (number(c, t, &id) < 0)
				return -1;
			c->samps = xgrow(c->samps, &c->scap, c->ns + 1,
			    sizeof *c->samps);
			c->samps[c->ns++] = (struct samp){ prof, id };
		}
		return t == JSON_ARR_END ? 0 : bad(c, "samples: expected node ids");
	}
	return skip(c, t);
}

/* An object whose members are read by profile_part (cpuProfile). */
static int
profile_obj(struct cp *c, uint32_t prof)
{
	enum json_tok t;

	while ((t = json_next(&c->j)) == JSON_KEY) {
		char key[16];

		snprintf(key, sizeof key, "%.*s", (int)c->j.n, c->j.s);
		if (profile_part(c, key, json_next(&c->j), prof) < 0)
			return -1;
	}
	return t == JSON_OBJ_END ? 0 : bad(c, "bad profile object");
}

/* Descend into args.data.cpuProfile. */
static int
descend(struct cp *c, const char *path[], int depth)
{
	enum json_tok t;

	while ((t = json_next(&c->j)) == JSON_KEY) {
		int hit = c->j.n == strlen(path[depth]) &&
		    memcmp(c->j.s, path[depth], c->j.n) == 0;

		t = json_next(&c->j);
		if (hit && t == JSON_OBJ) {
			if ((path[depth + 1] ? descend(c, path, depth + 1) :
			    profile_obj(c, NONE)) < 0)
				return -1;
		} else if (skip(c, t) < 0)
			return -1;
	}
	return t == JSON_OBJ_END ? 0 : bad(c, "bad trace event");
}

/* One trace event; a ProfileChunk's nodes and samples get its profile. */
static int
event(struct cp *c)
{
	static const char *path[] = { "data", "cpuProfile", NULL };
	char id[64] = "", pid[32] = "";
	enum json_tok t;
	size_t n0 = c->nn, l0 = c->nl, s0 = c->ns;
	uint32_t prof;

	while ((t = json_next(&c->j)) == JSON_KEY) {
		char key[8];

		snprintf(key, sizeof key, "%.*s", (int)(c->j.n < 7 ? c->j.n : 7),
		    c->j.s);
		if (c->j.n > 7)
			key[0] = '\0';
		t = json_next(&c->j);
		if (strcmp(key, "args") == 0 && t == JSON_OBJ) {
			if (descend(c, path, 0) < 0)
				return -1;
		} else if (strcmp(key, "id") == 0 && (t == JSON_STR || t == JSON_NUM))
			snprintf(id, sizeof id, "%.*s", (int)c->j.n, c->j.s);
		else if (strcmp(key, "pid") == 0 && (t == JSON_STR || t == JSON_NUM))
			snprintf(pid, sizeof pid, "%.*s", (int)c->j.n, c->j.s);
		else if (strcmp(key, "ph") == 0 && t == JSON_STR) {
			if (c->j.n == 1 && memchr("XBE", c->j.s[0], 3))
				c->spans++;
		} else if (skip(c, t) < 0)
			return -1;
	}
	if (t != JSON_OBJ_END)
		return bad(c, "bad trace event");
	if (c->nn == n0 && c->ns == s0)
		return 0;
	snprintf(c->buf = xgrow(c->buf, &c->bufcap, 128, 1), 128, "%s/%s", pid, id);
	prof = intern_put(&c->profs, c->buf, strlen(c->buf), NULL);
	for (size_t k = n0; k < c->nn; k++)
		c->nodes[k].prof = prof;
	for (size_t k = l0; k < c->nl; k++)
		c->links[k].prof = prof;
	for (size_t k = s0; k < c->ns; k++)
		c->samps[k].prof = prof;
	return 0;
}

static int
events(struct cp *c)
{
	enum json_tok t;

	while ((t = json_next(&c->j)) != JSON_ARR_END) {
		if (t == JSON_ERR)
			return bad(c, "bad traceEvents");
		/* (an error skip meets is reported there, once) */
		if (t == JSON_OBJ ? event(c) < 0 : skip(c, t) < 0)
			return -1;
	}
	return 0;
}

static uint32_t
lookup(struct cp *c, uint32_t prof, uint64_t id)
{
	unsigned char k[12];
	uint32_t i;

	memcpy(k, &prof, 4);
	memcpy(k + 4, &id, 8);
	return intern_find(&c->keys, k, sizeof k, &i) == 0 ? i : NONE;
}

/* The path of node i, root first, "(root)" left out. */
static void
emit(struct cp *c, struct fstack *fs, uint32_t i, uint64_t count)
{
	const char *s;
	size_t n;

	fs_truncate(fs, 0);
	for (; i != NONE; i = c->nodes[i].pidx) {	/* no cycles: check_cycles */
		uint32_t nm = c->nodes[i].name;

		if (c->nodes[i].pidx == NONE && intern_len(&c->names, nm) == 6 &&
		    memcmp(intern_str(&c->names, nm), "(root)", 6) == 0)
			break;
		fs_push(fs, intern_str(&c->names, nm), intern_len(&c->names, nm));
	}
	s = fs_join(fs, 1, &n);
	if (n)
		sink_put(c->r->sink, s, n, count, 0);
}

/*
 * Whether following parents from every node reaches a root.  A cycle
 * would make each of its nodes' stacks as deep as the profile (375 MB
 * from 1.2 MB), so it is an error naming a node on it.  Each node is
 * walked once: 0 new, 1 on the path walked now, 2 reaches a root.
 */
static int
check_cycles(struct cp *c)
{
	unsigned char *state = xcalloc(c->nn + 1, 1);
	int ret = 0;

	for (size_t k = 0; k < c->nn && ret == 0; k++) {
		uint32_t i = (uint32_t)k;

		while (i != NONE && state[i] == 0) {
			state[i] = 1;
			i = c->nodes[i].pidx;
		}
		if (i != NONE && state[i] == 1) {
			warn_at(c->r->name, 0, "profile nodes form a cycle: node "
			    "id %llu is its own ancestor",
			    (unsigned long long)c->nodes[i].id);
			ret = -1;
		}
		for (i = (uint32_t)k; i != NONE && state[i] == 1;
		    i = c->nodes[i].pidx)
			state[i] = 2;
	}
	free(state);
	return ret;
}

static int
finish(struct cp *c)
{
	struct fstack fs;
	size_t missing = 0;

	for (size_t k = 0; k < c->nn; k++) {
		unsigned char key[12];
		int isnew;

		memcpy(key, &c->nodes[k].prof, 4);
		memcpy(key + 4, &c->nodes[k].id, 8);
		if (intern_put(&c->keys, key, sizeof key, &isnew) != k || !isnew) {
			warn_at(c->r->name, 0, "profile node id %llu appears twice",
			    (unsigned long long)c->nodes[k].id);
			return -1;
		}
	}
	for (size_t k = 0; k < c->nn; k++)
		if (c->nodes[k].has_parent)
			c->nodes[k].pidx = lookup(c, c->nodes[k].prof,
			    c->nodes[k].parent);
	for (size_t k = 0; k < c->nl; k++) {
		uint32_t ch = lookup(c, c->links[k].prof, c->links[k].child);
		uint32_t p = c->links[k].parent ? lookup(c, c->links[k].prof,
		    c->links[k].parent - 1) : NONE;

		if (ch != NONE && p != NONE)
			c->nodes[ch].pidx = p;
	}
	if (check_cycles(c) < 0)
		return -1;
	fs_init(&fs);
	for (size_t k = 0; k < c->ns; k++) {
		uint32_t i = lookup(c, c->samps[k].prof, c->samps[k].id);

		if (i == NONE)
			missing++;
		else if (c->r->sink->noagg)
			emit(c, &fs, i, 1);
		else
			c->nodes[i].samples++;
	}
	if (!c->r->sink->noagg)
		for (uint32_t i = 0; i < c->nn; i++) {
			uint64_t w = c->ns ? c->nodes[i].samples : c->nodes[i].hits;

			if (w)
				emit(c, &fs, i, w);
		}
	fs_free(&fs);
	if (missing)
		warn_at(c->r->name, 0, "skipped %zu sample%s naming no node",
		    missing, missing == 1 ? "" : "s");
	return 0;
}

static int
chrome_collapse(struct reader *r)
{
	struct cp c;
	enum json_tok t;
	int ret = 0;

	memset(&c, 0, sizeof c);
	c.r = r;
	intern_init(&c.keys);
	intern_init(&c.names);
	intern_init(&c.profs);
	json_init(&c.j, r->in);
	t = json_next(&c.j);
	if (t == JSON_ARR)
		ret = events(&c);
	else if (t == JSON_OBJ) {
		while (ret == 0 && (t = json_next(&c.j)) == JSON_KEY) {
			char key[16];

			snprintf(key, sizeof key, "%.*s", (int)c.j.n, c.j.s);
			t = json_next(&c.j);
			if (strcmp(key, "traceEvents") == 0 && t == JSON_ARR)
				ret = events(&c);
			else
				ret = profile_part(&c, key, t, 0);
		}
		if (ret == 0 && t != JSON_OBJ_END)
			ret = bad(&c, "bad JSON");
	} else
		ret = bad(&c, "neither a .cpuprofile nor a trace event file");
	if (ret == 0 && json_next(&c.j) != JSON_END)
		ret = bad(&c, "text after the JSON document");
	if (ret == 0 && !c.profiles) {
		/* other JSON: exit 0 and no output would pass for a profile */
		if (c.spans)
			warn_at(r->name, 0, "%zu span event%s (ph X, B, E) and no "
			    "CPU profile: spans are not samples; fold them with "
			    "spanlayout --fold", c.spans, c.spans == 1 ? "" : "s");
		else
			warn_at(r->name, 0, "no CPU profile: neither a "
			    ".cpuprofile (nodes, samples) nor trace events with "
			    "one (ProfileChunk)");
		ret = -1;
	}
	if (ret == 0)
		ret = finish(&c);
	json_free(&c.j);
	intern_free(&c.keys);
	intern_free(&c.names);
	intern_free(&c.profs);
	free(c.nodes);
	free(c.links);
	free(c.samps);
	free(c.buf);
	return ret;
}

static int
chrome_detect(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && strchr(" \t\r\n", p[i]))
		i++;
	if (i == n || (p[i] != '{' && p[i] != '['))
		return 0;
	return memmem(p, n, "\"callFrame\"", 11) != NULL ||
	    memmem(p, n, "\"ProfileChunk\"", 14) != NULL ||
	    memmem(p, n, "\"cpuProfile\"", 12) != NULL;
}

const struct format chrome_format = {
	.name = "chrome",
	.detect = chrome_detect,
	.collapse = chrome_collapse,
};
