/*
 * chains.c: the chain table of chains.h, a src/lib/intern.h table whose
 * keys are chains laid out as bytes: a header (pid, n, nkernel, comm),
 * the kernel frames' addresses (8 bytes each), then each user frame's
 * address, base and file (20 bytes).  Interning gives each distinct
 * chain one copy in an arena and a dense id; a sample costs a hash and
 * a compare.  Kernel frames carry no file: the kernel's symbols name
 * them whatever the process.
 *
 * Rejected: keeping each sample's addresses (a few hundred bytes a
 * sample, for the whole run) and naming every frame at the report
 * against a replay of the mappings, which kept every mapping record of
 * the run too; and naming frames as samples come, which reads every
 * file's symbols while the program runs, where trace-record is to take
 * as little of the machine as it can.
 */
#include "chains.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"

#define HEAD	28	/* pid, n, nkernel: 4 bytes each; comm: 16 */
#define KFRAME	8
#define UFRAME	20

void
chains_init(struct chains *c)
{
	memset(c, 0, sizeof *c);
	intern_init(&c->keys);
	intern_init(&c->paths);
}

void
chains_free(struct chains *c)
{
	intern_free(&c->keys);
	intern_free(&c->paths);
	free(c->buf);
	memset(c, 0, sizeof *c);
}

uint32_t
chains_path(struct chains *c, const char *path)
{
	return intern_put(&c->paths, path, strlen(path), NULL);
}

const char *
chains_path_str(const struct chains *c, uint32_t id)
{
	return intern_str(&c->paths, id);
}

uint32_t
chains_put(struct chains *c, uint32_t pid, const char *comm, uint32_t nkernel,
    uint32_t n, const struct chain_frame *f)
{
	size_t len = HEAD + (size_t)nkernel * KFRAME + (size_t)(n - nkernel) * UFRAME;
	unsigned char *p;

	c->buf = xgrow(c->buf, &c->bufcap, len, 1);
	p = c->buf;
	memcpy(p, &pid, 4);
	memcpy(p + 4, &n, 4);
	memcpy(p + 8, &nkernel, 4);
	memcpy(p + 12, comm, 16);
	p += HEAD;
	for (uint32_t i = 0; i < n; i++) {
		memcpy(p, &f[i].addr, 8);
		if (i < nkernel) {
			p += KFRAME;
			continue;
		}
		memcpy(p + 8, &f[i].base, 8);
		memcpy(p + 16, &f[i].file, 4);
		p += UFRAME;
	}
	return intern_put(&c->keys, c->buf, len, NULL);
}

void
chains_get(const struct chains *c, uint32_t id, struct chain *ch)
{
	const unsigned char *p = (const unsigned char *)intern_str(&c->keys, id);

	memcpy(&ch->pid, p, 4);
	memcpy(&ch->n, p + 4, 4);
	memcpy(&ch->nkernel, p + 8, 4);
	memcpy(ch->comm, p + 12, 16);
	ch->frames = p + HEAD;
}

void
chains_frame(const struct chain *ch, uint32_t i, struct chain_frame *f)
{
	const unsigned char *p;

	if (i < ch->nkernel) {
		memcpy(&f->addr, ch->frames + (size_t)i * KFRAME, 8);
		f->base = 0;
		f->file = 0;
		return;
	}
	p = ch->frames + (size_t)ch->nkernel * KFRAME + (size_t)(i - ch->nkernel) * UFRAME;
	memcpy(&f->addr, p, 8);
	memcpy(&f->base, p + 8, 8);
	memcpy(&f->file, p + 16, 4);
}
