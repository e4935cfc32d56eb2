/*
 * Fuzz target for the DWARF CFI reader and the stack walk (src/elf/cfi.c):
 * .eh_frame, .eh_frame_hdr and .debug_frame as the input gives them,
 * indexed (cfi_init), rows computed at addresses the input names
 * (cfi_row_at), and a walk (cfi_walk) over a stack copy the input gives,
 * as trace-record --call-graph=dwarf walks a sample's.  Corrupt tables,
 * CFA rules that loop, expressions that loop and stacks cut short must
 * end the walk, never read outside the input or run without end.
 *
 * Input: a 24-byte header (little-endian): the lengths of .eh_frame,
 * .eh_frame_hdr and .debug_frame (u16 each), the addresses of .eh_frame
 * and .eh_frame_hdr (u32 each), rip (u64), and rsp's offset into the
 * stack (u16); then the three sections' bytes; the rest is the stack,
 * at STACK in the walked process.  One "file" holds every pc, at its
 * own address.  Seeds: a real binary's tables (tests/sample/split.c
 * built -O2 -fomit-frame-pointer, sections cut with objcopy) with a
 * stack of return addresses into it, and hand-made hostile tables.
 *
 *   make fuzz && build/fuzz/fuzz_cfi tests/fuzz/corpus/cfi
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf/cfi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STACK	0x7ff000000000ull

struct input {
	const uint8_t	*stack;
	size_t		 len;
	const struct cfi *cfi;
};

static uint64_t
le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int
rd(void *ctx, uint64_t addr, uint64_t *v)
{
	const struct input *in = ctx;

	if (addr < STACK || addr - STACK > in->len || in->len - (addr - STACK) < 8)
		return -1;
	memcpy(v, in->stack + (addr - STACK), 8);
	return 0;
}

static const struct cfi *
find(void *ctx, uint64_t pc, uint64_t *va)
{
	const struct input *in = ctx;

	*va = pc;
	return in->cfi;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfi c;
	struct cfi_row row;
	struct input in;
	uint64_t regs[CFI_NREGS], pcs[512];
	size_t ne, nh, nd, at = 24;
	uint8_t *eh, *hdr, *dbg;

	if (size < at)
		return 0;
	ne = (size_t)le(data, 2);
	nh = (size_t)le(data + 2, 2);
	nd = (size_t)le(data + 4, 2);
	if (ne > size - at || nh > size - at - ne || nd > size - at - ne - nh)
		return 0;
	/* Copies of their own size: a read past a section is past a block. */
	eh = malloc(ne + 1);
	hdr = malloc(nh + 1);
	dbg = malloc(nd + 1);
	if (eh == NULL || hdr == NULL || dbg == NULL)
		abort();
	memcpy(eh, data + at, ne);
	memcpy(hdr, data + at + ne, nh);
	memcpy(dbg, data + at + ne + nh, nd);
	struct cfi_sec se = { ne ? eh : NULL, ne, le(data + 6, 4) };
	struct cfi_sec sh = { nh ? hdr : NULL, nh, le(data + 10, 4) };
	struct cfi_sec sd = { nd ? dbg : NULL, nd, 0 };

	at += ne + nh + nd;
	if (cfi_init(&c, se, sh, sd) != 0)
		abort();
	in.stack = data + at;
	in.len = size - at;
	in.cfi = &c;
	for (int i = 0; i < CFI_NREGS; i++)
		regs[i] = STACK + 8 * (uint64_t)i;
	regs[CFI_RA] = le(data + 14, 8);
	regs[CFI_SP] = STACK + le(data + 22, 2);
	regs[CFI_BP] = regs[CFI_SP] + 16;
	/* Rows at the pc and around it, then the walk. */
	for (uint64_t d = 0; d < 3; d++)
		(void)cfi_row_at(&c, regs[CFI_RA] + d, &row);
	struct cfi_mem m = { rd, find, &in };
	size_t n = cfi_walk(&m, regs, (1u << CFI_NREGS) - 1, pcs, 512);

	if (n > 512)
		__builtin_trap();
	cfi_free(&c);
	free(eh);
	free(hdr);
	free(dbg);
	return 0;
}
