/*
 * cfi.h: DWARF call frame information (.eh_frame, found through
 * .eh_frame_hdr's search table, and .debug_frame) and the unwinder that
 * walks a stack with it, for x86-64 code built without frame pointers.
 *
 * Two halves with different rules.  Loading (cfi_load, cfi_init) maps
 * files and may allocate: it runs before anything is sampled.  Finding
 * a row and walking (cfi_row_at, cfi_walk) never allocate, lock or
 * call anything but the caller's hooks, so that a signal handler can
 * run them on tables loaded ahead (libtrsample), and every read they
 * make of a table is bounds-checked: a corrupt table ends the walk.
 */
#ifndef FT_CFI_H
#define FT_CFI_H

#include <stddef.h>
#include <stdint.h>

#include "elfimg.h"

/* DWARF's x86-64 register numbers: 0-15 the general registers in the
 * order rax rdx rcx rbx rsi rdi rbp rsp r8-r15, 16 the return address
 * (rip). */
#define CFI_NREGS	17
#define CFI_BP		6
#define CFI_SP		7
#define CFI_RA		16

/* A section's bytes and the address they are at in the file's terms. */
struct cfi_sec {
	const unsigned char	*p;
	size_t			 len;
	uint64_t		 addr;
};

/* An FDE by the code it covers: [lo, hi) and its offset in its section. */
struct cfi_fde {
	uint64_t	 lo, hi;
	uint64_t	 off;
	int		 debug;		/* in .debug_frame, not .eh_frame */
};

struct cfi {
	struct cfi_sec	 eh, hdr, debug;
	/* .eh_frame_hdr's table: nent pairs of sdata4 relative to hdr.addr */
	const unsigned char *table;
	size_t		 nent;
	/* What the table does not cover (no header, .debug_frame), sorted. */
	struct cfi_fde	*idx;
	size_t		 nidx;
};

/*
 * Index the sections (any may be empty: p NULL).  Never fails: what
 * cannot be read is simply not indexed.  Returns 0, or -1 out of memory.
 */
int		 cfi_init(struct cfi *c, struct cfi_sec eh, struct cfi_sec hdr,
		    struct cfi_sec debug);
void		 cfi_free(struct cfi *c);

/* One file's tables: its image, the debug file's, and their index. */
struct cfi_file {
	struct elfimg	 img, debug;
	struct cfi	 cfi;
	int		 ok;
};

/*
 * Map the ELF file at path (or view the image at p, len when path is
 * NULL: the vDSO) and index its .eh_frame and .debug_frame, or the
 * debug file's under /usr/lib/debug/.build-id when it has neither.
 * f->ok is 0 when nothing was found; cfi_file_close undoes it either way.
 */
void		 cfi_file_open(struct cfi_file *f, const char *path, const void *p,
		    size_t len);
void		 cfi_file_close(struct cfi_file *f);

/* The address in f's own terms of the byte at file offset off; 0 if none. */
int		 cfi_file_vaddr(const struct cfi_file *f, uint64_t off, uint64_t *va);

/* How a register (or the CFA) is found in the caller's frame. */
enum {
	CFI_UNDEF,	/* not recoverable (RA: the outermost frame) */
	CFI_SAME,	/* unchanged */
	CFI_OFFSET,	/* saved at CFA + off */
	CFI_VAL_OFFSET,	/* is CFA + off */
	CFI_REG,	/* in register reg (the CFA: reg + off) */
	CFI_EXPR,	/* saved at the address expr computes */
	CFI_VAL_EXPR,	/* is what expr computes (the CFA's expression) */
};

struct cfi_rule {
	uint8_t		 how;
	uint8_t		 reg;
	int64_t		 off;
	const unsigned char *expr;
	size_t		 exprlen;
};

struct cfi_row {
	struct cfi_rule	 cfa;
	struct cfi_rule	 reg[CFI_NREGS];
	int		 signal;	/* the CIE's 'S': a signal frame */
};

/*
 * The rules in effect at address pc (f's terms); 0, or -1 when no FDE
 * covers pc or its instructions cannot be followed.
 */
int		 cfi_row_at(const struct cfi *c, uint64_t pc, struct cfi_row *row);

/*
 * What the walk needs of the stack's owner: 8 bytes of its memory at
 * addr (0, or -1 when not there), and the tables for the code at pc
 * with pc's address in their terms (*va), or NULL.
 */
struct cfi_mem {
	int		 (*read)(void *ctx, uint64_t addr, uint64_t *v);
	const struct cfi *(*find)(void *ctx, uint64_t pc, uint64_t *va);
	void		*ctx;
};

/*
 * Walk from the registers regs (DWARF numbers; bit i of valid set when
 * regs[i] is known; rip and rsp must be) and store up to max return
 * addresses in pcs, the interrupted pc first.  Stops at the outermost
 * frame, at code without tables, at a read that fails, when the stack
 * pointer does not grow (a cycle) or at max.  Returns the count.
 */
size_t		 cfi_walk(const struct cfi_mem *m, uint64_t *regs, uint32_t valid,
		    uint64_t *pcs, size_t max);

#endif
