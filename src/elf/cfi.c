/*
 * cfi.c: DWARF call frame information and the stack walk; see cfi.h.
 *
 * An FDE is found by binary search: through .eh_frame_hdr's table when
 * the file has one in the form every linker writes (datarel sdata4
 * pairs), else through an index built once by scanning .eh_frame and
 * .debug_frame.  Its row is then computed by running the CIE's initial
 * instructions and the FDE's up to the pc, each time: no cache, so
 * nothing to allocate or lock in a signal handler, and the cost is a
 * few dozen bytes of instructions per frame.  remember_state keeps up
 * to STATES rows on the stack (compilers nest them once or twice).
 *
 * Hostile input: every read goes through a cursor that stops at its
 * section's end; a DWARF expression runs at most EXPR_STEPS operations
 * on a stack of EXPR_DEPTH; the walk stops when the stack pointer does
 * not grow from a frame to its caller, so a table that loops (a CFA
 * defined as itself) ends the walk instead of filling it.
 */
#include "cfi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINST	__attribute__((no_instrument_function))

#define STATES		4	/* rows on a signal handler's stack: keep it small */
#define EXPR_STEPS	256
#define EXPR_DEPTH	64

struct cur {
	const unsigned char	*p, *end;
	int			 bad;
};

static NOINST uint64_t
rd(struct cur *c, size_t n)
{
	uint64_t v = 0;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	/* Little-endian: x86-64 is what this unwinder serves. */
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static NOINST uint64_t
uleb(struct cur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		unsigned b = (unsigned)rd(c, 1);

		if (c->bad)
			return 0;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
}

static NOINST int64_t
sleb(struct cur *c)
{
	uint64_t v = 0;
	unsigned shift = 0, b;

	do {
		b = (unsigned)rd(c, 1);
		if (c->bad)
			return 0;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/*
 * A pointer in encoding enc (DW_EH_PE_*) read at c, a cursor in section
 * s; datarel is what datarel pointers are relative to.  Indirect
 * pointers (a read of the program's data) are not followed.
 */
static NOINST uint64_t
ptr(struct cur *c, int enc, const struct cfi_sec *s, uint64_t datarel)
{
	uint64_t base = 0, v;

	switch (enc & 0x70) {
	case 0x00:
		break;
	case 0x10:	/* pcrel */
		base = s->addr + (uint64_t)(c->p - s->p);
		break;
	case 0x30:	/* datarel */
		base = datarel;
		break;
	default:
		c->bad = 1;
		return 0;
	}
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: v = rd(c, 8); break;
	case 0x01: v = uleb(c); break;
	case 0x02: v = rd(c, 2); break;
	case 0x03: v = rd(c, 4); break;
	case 0x09: v = (uint64_t)sleb(c); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)rd(c, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd(c, 4); break;
	default:
		c->bad = 1;
		return 0;
	}
	if (enc & 0x80)
		c->bad = 1;
	return base + v;
}

/*
 * The entry (CIE or FDE) at offset off of s: its body in *body (after
 * the length), its id field's value and offset in *id, *idat; the
 * offset of the next entry in *next.  0, or -1 at the end or when the
 * length does not fit (a terminator's zero length is the end).
 */
static NOINST int
entry(const struct cfi_sec *s, uint64_t off, int debug, struct cur *body,
    uint64_t *id, uint64_t *idat, uint64_t *next, int *cie)
{
	struct cur c;
	uint64_t len;
	int wide = 0;

	if (s->p == NULL || off >= s->len)
		return -1;
	c = (struct cur){ s->p + off, s->p + s->len, 0 };
	len = rd(&c, 4);
	if (len == 0xffffffff) {
		len = rd(&c, 8);
		wide = 1;
	}
	if (c.bad || len == 0 || len > (uint64_t)(c.end - c.p))
		return -1;
	body->p = c.p;
	body->end = c.p + len;
	body->bad = 0;
	*next = (uint64_t)(body->end - s->p);
	*idat = (uint64_t)(c.p - s->p);
	*id = rd(body, wide ? 8 : 4);
	if (debug)
		*cie = *id == (wide ? ~(uint64_t)0 : 0xffffffff);
	else
		*cie = *id == 0;
	return body->bad ? -1 : 0;
}

struct cie {
	uint64_t	 code_align;
	int64_t		 data_align;
	unsigned	 ra;
	int		 fde_enc, z, signal;
	struct cur	 insn;
};

/* The CIE at offset off of s. */
static NOINST int
cie_parse(const struct cfi_sec *s, uint64_t off, int debug, struct cie *ci)
{
	struct cur c;
	uint64_t id, idat, next;
	int iscie, version;
	const char *aug;

	if (entry(s, off, debug, &c, &id, &idat, &next, &iscie) != 0 || !iscie)
		return -1;
	memset(ci, 0, sizeof *ci);
	ci->fde_enc = 0;
	version = (int)rd(&c, 1);
	if (version != 1 && version != 3 && version != 4)
		return -1;
	aug = (const char *)c.p;
	while (rd(&c, 1) != 0 && !c.bad)
		;
	if (c.bad)
		return -1;
	if (version == 4) {
		if (rd(&c, 1) != 8 || rd(&c, 1) != 0)	/* address, segment size */
			return -1;
	}
	ci->code_align = uleb(&c);
	ci->data_align = sleb(&c);
	ci->ra = version == 1 ? (unsigned)rd(&c, 1) : (unsigned)uleb(&c);
	if (aug[0] == 'z') {
		uint64_t n = uleb(&c);
		struct cur a = c;

		if (c.bad || n > (uint64_t)(c.end - c.p))
			return -1;
		a.end = c.p + n;
		c.p += n;
		ci->z = 1;
		for (const char *q = aug + 1; *q && !a.bad; q++) {
			if (*q == 'R') {
				ci->fde_enc = (int)rd(&a, 1);
			} else if (*q == 'L') {
				rd(&a, 1);
			} else if (*q == 'P') {
				/* Only skipped: its size is its format's. */
				int e = (int)rd(&a, 1);

				ptr(&a, e & 0x0f, s, 0);
			} else if (*q == 'S') {
				ci->signal = 1;
			} else {
				break;	/* the rest is skipped by its length */
			}
		}
	} else if (aug[0] != '\0') {
		return -1;
	}
	if (c.bad || ci->code_align == 0)
		return -1;
	ci->insn = c;
	return 0;
}

/* The FDE at off: its CIE, range and instructions. */
static NOINST int
fde_parse(const struct cfi_sec *s, uint64_t off, int debug, struct cie *ci,
    uint64_t *lo, uint64_t *hi, struct cur *insn)
{
	struct cur c;
	uint64_t id, idat, next, cieoff, range;
	int iscie;

	if (entry(s, off, debug, &c, &id, &idat, &next, &iscie) != 0 || iscie)
		return -1;
	if (debug)
		cieoff = id;
	else if (id > idat)
		return -1;
	else
		cieoff = idat - id;
	if (cie_parse(s, cieoff, debug, ci) != 0)
		return -1;
	if (debug) {
		*lo = rd(&c, 8);
		range = rd(&c, 8);
	} else {
		*lo = ptr(&c, ci->fde_enc, s, 0);
		range = ptr(&c, ci->fde_enc & 0x0f, s, 0);
	}
	if (ci->z) {
		uint64_t n = uleb(&c);

		if (c.bad || n > (uint64_t)(c.end - c.p))
			return -1;
		c.p += n;
	}
	if (c.bad || *lo + range < *lo)
		return -1;
	*hi = *lo + range;
	*insn = c;
	return 0;
}

static NOINST int
by_lo(const void *a, const void *b)
{
	const struct cfi_fde *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Add every FDE of s to c's index. */
static NOINST int
scan(struct cfi *c, const struct cfi_sec *s, int debug, size_t *cap)
{
	uint64_t off = 0, next, id, idat, lo, hi;
	struct cur body, insn;
	struct cie ci;
	int iscie;

	while (entry(s, off, debug, &body, &id, &idat, &next, &iscie) == 0) {
		if (!iscie && fde_parse(s, off, debug, &ci, &lo, &hi, &insn) == 0 &&
		    lo < hi) {
			if (c->nidx == *cap) {
				size_t ncap = *cap ? *cap * 2 : 64;
				struct cfi_fde *v = realloc(c->idx, ncap * sizeof *v);

				if (v == NULL)
					return -1;
				c->idx = v;
				*cap = ncap;
			}
			c->idx[c->nidx++] = (struct cfi_fde){ lo, hi, off, debug };
		}
		off = next;
	}
	return 0;
}

/* .eh_frame_hdr's search table, when in the form linkers write. */
static NOINST void
hdr_table(struct cfi *c)
{
	struct cur h;
	int ptrenc, cntenc, tabenc;
	uint64_t n;

	if (c->hdr.p == NULL)
		return;
	h = (struct cur){ c->hdr.p, c->hdr.p + c->hdr.len, 0 };
	if (rd(&h, 1) != 1)
		return;
	ptrenc = (int)rd(&h, 1);
	cntenc = (int)rd(&h, 1);
	tabenc = (int)rd(&h, 1);
	if (ptrenc == 0xff || cntenc == 0xff || tabenc != 0x3b)
		return;
	ptr(&h, ptrenc, &c->hdr, c->hdr.addr);
	n = ptr(&h, cntenc, &c->hdr, c->hdr.addr);
	if (h.bad || n > (uint64_t)(h.end - h.p) / 8)
		return;
	c->table = h.p;
	c->nent = (size_t)n;
}

NOINST int
cfi_init(struct cfi *c, struct cfi_sec eh, struct cfi_sec hdr, struct cfi_sec debug)
{
	size_t cap = 0;
	int r = 0;

	memset(c, 0, sizeof *c);
	c->eh = eh;
	c->hdr = hdr;
	c->debug = debug;
	if (eh.p)
		hdr_table(c);
	if (eh.p && c->table == NULL)
		r |= scan(c, &c->eh, 0, &cap);
	if (debug.p)
		r |= scan(c, &c->debug, 1, &cap);
	if (c->nidx)
		qsort(c->idx, c->nidx, sizeof *c->idx, by_lo);
	return r;
}

NOINST void
cfi_free(struct cfi *c)
{
	free(c->idx);
	memset(c, 0, sizeof *c);
}

/* Offset in .eh_frame of the FDE the table names for pc, or -1. */
static NOINST int
table_find(const struct cfi *c, uint64_t pc, uint64_t *off)
{
	size_t lo = 0, hi = c->nent;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct cur e = { c->table + 8 * mid, c->table + 8 * mid + 4, 0 };
		uint64_t at = c->hdr.addr + (uint64_t)(int64_t)(int32_t)rd(&e, 4);

		if (at <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	struct cur e = { c->table + 8 * (lo - 1) + 4, c->table + 8 * lo, 0 };
	uint64_t fde = c->hdr.addr + (uint64_t)(int64_t)(int32_t)rd(&e, 4);

	if (fde < c->eh.addr || fde - c->eh.addr >= c->eh.len)
		return -1;
	*off = fde - c->eh.addr;
	return 0;
}

/* The index's FDE for pc, or NULL. */
static NOINST const struct cfi_fde *
idx_find(const struct cfi *c, uint64_t pc)
{
	size_t lo = 0, hi = c->nidx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->idx[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Ranges may nest or overlap in a hostile file: a few back. */
	for (size_t i = lo, k = 0; i > 0 && k < 4; i--, k++)
		if (pc < c->idx[i - 1].hi)
			return &c->idx[i - 1];
	return NULL;
}

/* a * b as the walk's address arithmetic does it: modulo 2^64. */
static NOINST int64_t
mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

static NOINST void
rule_set(struct cfi_row *row, uint64_t reg, uint8_t how, int64_t off)
{
	if (reg < CFI_NREGS) {
		row->reg[reg].how = how;
		row->reg[reg].off = off;
		row->reg[reg].reg = 0;
	}
}

/* A block (ULEB length, bytes) at c into *r. */
static NOINST void
block(struct cur *c, struct cfi_rule *r, uint8_t how)
{
	uint64_t n = uleb(c);

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = 1;
		return;
	}
	r->how = how;
	r->expr = c->p;
	r->exprlen = (size_t)n;
	c->p += n;
}

/*
 * Run instructions c from location *loc until past pc (the row for pc
 * is then in row); init is the CIE's row, for DW_CFA_restore.  0, or
 * -1 for an instruction not known or not followed.
 */
static NOINST int
run(const struct cie *ci, struct cur c, uint64_t *loc, uint64_t pc,
    struct cfi_row *row, const struct cfi_row *init, const struct cfi_sec *s)
{
	struct cfi_row saved[STATES];
	int nsaved = 0;
	struct cfi_rule tmp;

	while (c.p < c.end && !c.bad) {
		unsigned op = (unsigned)rd(&c, 1), low = op & 0x3f;
		uint64_t reg, delta = 0;
		int adv = 0;

		switch (op & 0xc0) {
		case 0x40:
			delta = low;
			adv = 1;
			break;
		case 0x80:
			rule_set(row, low, CFI_OFFSET, mul((int64_t)uleb(&c), ci->data_align));
			break;
		case 0xc0:
			if (low < CFI_NREGS)
				row->reg[low] = init->reg[low];
			break;
		default:
			switch (op) {
			case 0x00:
				break;
			case 0x01: {
				uint64_t to = ptr(&c, ci->fde_enc, s, 0);

				if (to > pc)
					return c.bad ? -1 : 0;
				*loc = to;
				break;
			}
			case 0x02: delta = rd(&c, 1); adv = 1; break;
			case 0x03: delta = rd(&c, 2); adv = 1; break;
			case 0x04: delta = rd(&c, 4); adv = 1; break;
			case 0x05:
				reg = uleb(&c);
				rule_set(row, reg, CFI_OFFSET, mul((int64_t)uleb(&c), ci->data_align));
				break;
			case 0x06:
				reg = uleb(&c);
				if (reg < CFI_NREGS)
					row->reg[reg] = init->reg[reg];
				break;
			case 0x07:
				rule_set(row, uleb(&c), CFI_UNDEF, 0);
				break;
			case 0x08:
				rule_set(row, uleb(&c), CFI_SAME, 0);
				break;
			case 0x09:
				reg = uleb(&c);
				{
					uint64_t r2 = uleb(&c);

					rule_set(row, reg, r2 < CFI_NREGS ? CFI_REG : CFI_UNDEF, 0);
					if (reg < CFI_NREGS)
						row->reg[reg].reg = (uint8_t)r2;
				}
				break;
			case 0x0a:
				if (nsaved == STATES)
					return -1;
				saved[nsaved++] = *row;
				break;
			case 0x0b:
				if (nsaved == 0)
					return -1;
				*row = saved[--nsaved];
				break;
			case 0x0c:
				reg = uleb(&c);
				row->cfa.how = reg < CFI_NREGS ? CFI_REG : CFI_UNDEF;
				row->cfa.reg = (uint8_t)(reg < CFI_NREGS ? reg : 0);
				row->cfa.off = (int64_t)uleb(&c);
				break;
			case 0x0d:
				reg = uleb(&c);
				row->cfa.how = reg < CFI_NREGS ? CFI_REG : CFI_UNDEF;
				row->cfa.reg = (uint8_t)(reg < CFI_NREGS ? reg : 0);
				break;
			case 0x0e:
				row->cfa.off = (int64_t)uleb(&c);
				break;
			case 0x0f:
				block(&c, &row->cfa, CFI_VAL_EXPR);
				break;
			case 0x10:
			case 0x16:
				reg = uleb(&c);
				block(&c, &tmp, op == 0x10 ? CFI_EXPR : CFI_VAL_EXPR);
				if (reg < CFI_NREGS && !c.bad)
					row->reg[reg] = tmp;
				break;
			case 0x11:
				reg = uleb(&c);
				rule_set(row, reg, CFI_OFFSET, mul(sleb(&c), ci->data_align));
				break;
			case 0x12:
				reg = uleb(&c);
				row->cfa.how = reg < CFI_NREGS ? CFI_REG : CFI_UNDEF;
				row->cfa.reg = (uint8_t)(reg < CFI_NREGS ? reg : 0);
				row->cfa.off = mul(sleb(&c), ci->data_align);
				break;
			case 0x13:
				row->cfa.off = mul(sleb(&c), ci->data_align);
				break;
			case 0x14:
				reg = uleb(&c);
				rule_set(row, reg, CFI_VAL_OFFSET, mul((int64_t)uleb(&c), ci->data_align));
				break;
			case 0x15:
				reg = uleb(&c);
				rule_set(row, reg, CFI_VAL_OFFSET, mul(sleb(&c), ci->data_align));
				break;
			case 0x2e:	/* GNU_args_size: what a landing pad needs */
				uleb(&c);
				break;
			case 0x2f:
				reg = uleb(&c);
				rule_set(row, reg, CFI_OFFSET,
				    mul(mul((int64_t)uleb(&c), ci->data_align), -1));
				break;
			default:
				return -1;
			}
		}
		if (adv) {
			delta *= ci->code_align;
			if (*loc + delta < *loc || *loc + delta > pc)
				return c.bad ? -1 : 0;
			*loc += delta;
		}
	}
	return c.bad ? -1 : 0;
}

NOINST int
cfi_row_at(const struct cfi *c, uint64_t pc, struct cfi_row *row)
{
	const struct cfi_sec *s = &c->eh;
	struct cie ci;
	struct cur insn;
	struct cfi_row init;
	uint64_t off, lo, hi, loc;
	int debug = 0, found = 0;

	if (c->table && table_find(c, pc, &off) == 0 &&
	    fde_parse(s, off, 0, &ci, &lo, &hi, &insn) == 0 && lo <= pc && pc < hi)
		found = 1;
	if (!found) {
		const struct cfi_fde *f = idx_find(c, pc);

		if (f == NULL)
			return -1;
		debug = f->debug;
		s = debug ? &c->debug : &c->eh;
		if (fde_parse(s, f->off, debug, &ci, &lo, &hi, &insn) != 0 ||
		    pc < lo || pc >= hi)
			return -1;
	}
	memset(row, 0, sizeof *row);
	for (int i = 0; i < CFI_NREGS; i++)
		row->reg[i].how = CFI_SAME;
	row->cfa.how = CFI_UNDEF;
	loc = lo;
	/* The CIE's instructions hold no advance worth obeying: all of
	 * them set the row at the FDE's start. */
	if (run(&ci, ci.insn, &loc, UINT64_MAX, row, row, s) != 0)
		return -1;
	init = *row;
	loc = lo;
	if (run(&ci, insn, &loc, pc, row, &init, s) != 0)
		return -1;
	if (ci.ra != CFI_RA) {
		if (ci.ra >= CFI_NREGS)
			return -1;
		row->reg[CFI_RA] = row->reg[ci.ra];
	}
	row->signal = ci.signal;
	return 0;
}

/* The registers of the frame being unwound, and who reads memory. */
struct frame {
	const struct cfi_mem	*m;
	const uint64_t		*r;
	uint32_t		 valid;
};

static NOINST uint64_t
pop(uint64_t *st, int *n)
{
	return st[--*n];
}

/*
 * A DWARF expression's value: started with init on the stack when push
 * is set (DW_CFA_expression's CFA).  0, or -1 when it cannot be
 * computed (an operation not known, a register not known, a read that
 * fails, too long, too deep).
 */
static NOINST int
eval(const struct frame *fr, const unsigned char *p, size_t len, int push,
    uint64_t init, uint64_t *out)
{
	uint64_t st[EXPR_DEPTH], a, b;
	int n = 0;
	struct cur c = { p, p + len, 0 };

	if (push)
		st[n++] = init;
	for (int steps = 0; c.p < c.end; steps++) {
		unsigned op = (unsigned)rd(&c, 1);

		if (steps == EXPR_STEPS || n >= EXPR_DEPTH - 1)
			return -1;
#define NEED(k) do { if (n < (k)) return -1; } while (0)
		if (op >= 0x30 && op <= 0x4f) {
			st[n++] = op - 0x30;
		} else if (op >= 0x70 && op <= 0x8f) {
			int64_t off = sleb(&c);

			if (op - 0x70 >= CFI_NREGS || !(fr->valid >> (op - 0x70) & 1))
				return -1;
			st[n++] = fr->r[op - 0x70] + (uint64_t)off;
		} else {
			switch (op) {
			case 0x03: st[n++] = rd(&c, 8); break;
			case 0x06:
			case 0x94:
				NEED(1);
				a = pop(st, &n);
				b = op == 0x94 ? rd(&c, 1) : 8;
				if (b == 0 || b > 8 || fr->m->read(fr->m->ctx, a, &a) != 0)
					return -1;
				if (b < 8)
					a &= (~(uint64_t)0) >> (64 - 8 * b);
				st[n++] = a;
				break;
			case 0x08: st[n++] = rd(&c, 1); break;
			case 0x09: st[n++] = (uint64_t)(int64_t)(int8_t)rd(&c, 1); break;
			case 0x0a: st[n++] = rd(&c, 2); break;
			case 0x0b: st[n++] = (uint64_t)(int64_t)(int16_t)rd(&c, 2); break;
			case 0x0c: st[n++] = rd(&c, 4); break;
			case 0x0d: st[n++] = (uint64_t)(int64_t)(int32_t)rd(&c, 4); break;
			case 0x0e: case 0x0f: st[n++] = rd(&c, 8); break;
			case 0x10: st[n++] = uleb(&c); break;
			case 0x11: st[n++] = (uint64_t)sleb(&c); break;
			case 0x12: NEED(1); st[n] = st[n - 1]; n++; break;
			case 0x13: NEED(1); n--; break;
			case 0x14: NEED(2); st[n] = st[n - 2]; n++; break;
			case 0x15:
				a = rd(&c, 1);
				if (a >= (uint64_t)n)
					return -1;
				st[n] = st[n - 1 - (int)a];
				n++;
				break;
			case 0x16: NEED(2); a = st[n - 1]; st[n - 1] = st[n - 2]; st[n - 2] = a; break;
			case 0x17:
				NEED(3);
				a = st[n - 1];
				st[n - 1] = st[n - 2];
				st[n - 2] = st[n - 3];
				st[n - 3] = a;
				break;
			case 0x19:
				NEED(1);
				if ((int64_t)st[n - 1] < 0)
					st[n - 1] = -st[n - 1];
				break;
			case 0x1f: NEED(1); st[n - 1] = -st[n - 1]; break;
			case 0x20: NEED(1); st[n - 1] = ~st[n - 1]; break;
			case 0x23: NEED(1); st[n - 1] += uleb(&c); break;
			case 0x1a: case 0x1b: case 0x1c: case 0x1d: case 0x1e:
			case 0x21: case 0x22: case 0x24: case 0x25: case 0x26: case 0x27:
			case 0x29: case 0x2a: case 0x2b: case 0x2c: case 0x2d: case 0x2e:
				NEED(2);
				b = pop(st, &n);
				a = pop(st, &n);
				switch (op) {
				case 0x1a: a &= b; break;
				case 0x1b:
					if (b == 0 || ((int64_t)b == -1 && a == (uint64_t)1 << 63))
						return -1;
					a = (uint64_t)((int64_t)a / (int64_t)b);
					break;
				case 0x1c: a -= b; break;
				case 0x1d:
					if (b == 0)
						return -1;
					a %= b;
					break;
				case 0x1e: a *= b; break;
				case 0x21: a |= b; break;
				case 0x22: a += b; break;
				case 0x24: a = b < 64 ? a << b : 0; break;
				case 0x25: a = b < 64 ? a >> b : 0; break;
				case 0x26:
					a = b < 64 ? (uint64_t)((int64_t)a >> b) :
					    ((int64_t)a < 0 ? ~(uint64_t)0 : 0);
					break;
				case 0x27: a ^= b; break;
				case 0x29: a = a == b; break;
				case 0x2a: a = (int64_t)a >= (int64_t)b; break;
				case 0x2b: a = (int64_t)a > (int64_t)b; break;
				case 0x2c: a = (int64_t)a <= (int64_t)b; break;
				case 0x2d: a = (int64_t)a < (int64_t)b; break;
				case 0x2e: a = a != b; break;
				}
				st[n++] = a;
				break;
			case 0x28:
			case 0x2f: {
				int64_t off = (int16_t)rd(&c, 2);

				if (op == 0x28) {
					NEED(1);
					if (pop(st, &n) == 0)
						break;
				}
				if (off < p - c.p || off > c.end - c.p)
					return -1;
				c.p += off;
				break;
			}
			case 0x92: {
				uint64_t reg = uleb(&c);
				int64_t off = sleb(&c);

				if (reg >= CFI_NREGS || !(fr->valid >> reg & 1))
					return -1;
				st[n++] = fr->r[reg] + (uint64_t)off;
				break;
			}
			case 0x96:
				break;
			default:
				return -1;
			}
		}
#undef NEED
		if (c.bad)
			return -1;
	}
	if (n == 0)
		return -1;
	*out = st[n - 1];
	return 0;
}

NOINST size_t
cfi_walk(const struct cfi_mem *m, uint64_t *regs, uint32_t valid, uint64_t *pcs,
    size_t max)
{
	uint64_t nr[CFI_NREGS];
	struct cfi_row row;
	size_t n = 0;
	int exact = 1;	/* the pc is the interrupted one, not a return address */

	if (!(valid >> CFI_RA & 1) || !(valid >> CFI_SP & 1))
		return 0;
	while (n < max) {
		struct frame fr = { m, regs, valid };
		const struct cfi *c;
		uint64_t va, cfa, pc = regs[CFI_RA];
		uint32_t nv = 0;

		/* A zero return address ends a stack (as _start's caller). */
		if (pc == 0 && n > 0)
			break;
		pcs[n++] = pc;
		if (n == max || pc == 0)
			break;
		if ((c = m->find(m->ctx, exact ? pc : pc - 1, &va)) == NULL ||
		    cfi_row_at(c, va, &row) != 0)
			break;
		if (row.cfa.how == CFI_REG && (valid >> row.cfa.reg & 1))
			cfa = regs[row.cfa.reg] + (uint64_t)row.cfa.off;
		else if (row.cfa.how != CFI_VAL_EXPR ||
		    eval(&fr, row.cfa.expr, row.cfa.exprlen, 0, 0, &cfa) != 0)
			break;
		for (int i = 0; i < CFI_NREGS; i++) {
			const struct cfi_rule *ru = &row.reg[i];
			uint64_t v = 0;
			int ok = 0;

			switch (ru->how) {
			case CFI_SAME:
				ok = (valid >> i & 1) && i != CFI_RA;
				v = regs[i];
				break;
			case CFI_OFFSET:
				ok = m->read(m->ctx, cfa + (uint64_t)ru->off, &v) == 0;
				break;
			case CFI_VAL_OFFSET:
				v = cfa + (uint64_t)ru->off;
				ok = 1;
				break;
			case CFI_REG:
				ok = valid >> ru->reg & 1;
				v = regs[ru->reg];
				break;
			case CFI_EXPR:
				ok = eval(&fr, ru->expr, ru->exprlen, 1, cfa, &v) == 0 &&
				    m->read(m->ctx, v, &v) == 0;
				break;
			case CFI_VAL_EXPR:
				ok = eval(&fr, ru->expr, ru->exprlen, 1, cfa, &v) == 0;
				break;
			}
			nr[i] = ok ? v : 0;
			nv |= (uint32_t)ok << i;
		}
		/* The caller's stack pointer is the CFA unless told otherwise. */
		if (row.reg[CFI_SP].how == CFI_SAME) {
			nr[CFI_SP] = cfa;
			nv |= 1u << CFI_SP;
		}
		if (!(nv >> CFI_RA & 1) || !(nv >> CFI_SP & 1) || nr[CFI_SP] <= regs[CFI_SP])
			break;
		memcpy(regs, nr, sizeof nr);
		valid = nv;
		exact = row.signal;
	}
	return n;
}

/* A section of img by name, when its bytes are in the file. */
static NOINST struct cfi_sec
section(const struct elfimg *img, const char *name)
{
	const Elf64_Shdr *s = elfimg_section_name(img, name);
	struct cfi_sec r = { NULL, 0, 0 };

	if (s && s->sh_type != SHT_NOBITS && (r.p = elfimg_data(img, s)) != NULL) {
		r.len = s->sh_size;
		r.addr = s->sh_addr;
	}
	return r;
}

NOINST void
cfi_file_open(struct cfi_file *f, const char *path, const void *p, size_t len)
{
	struct cfi_sec eh, hdr, debug;

	memset(f, 0, sizeof *f);
	if (path ? elfimg_open(&f->img, path) != 0 : elfimg_init(&f->img, p, len) != 0)
		return;
	eh = section(&f->img, ".eh_frame");
	hdr = section(&f->img, ".eh_frame_hdr");
	debug = section(&f->img, ".debug_frame");
	if (eh.p == NULL && debug.p == NULL && path &&
	    elfimg_open_build_id(&f->debug, &f->img) == 0)
		debug = section(&f->debug, ".debug_frame");
	cfi_init(&f->cfi, eh, hdr, debug);
	f->ok = f->cfi.table != NULL || f->cfi.nidx > 0;
}

NOINST void
cfi_file_close(struct cfi_file *f)
{
	cfi_free(&f->cfi);
	elfimg_close(&f->debug);
	elfimg_close(&f->img);
}

NOINST int
cfi_file_vaddr(const struct cfi_file *f, uint64_t off, uint64_t *va)
{
	const Elf64_Phdr *ph = f->img.ph;

	for (size_t i = 0; i < f->img.nph; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset <= off &&
		    off - ph[i].p_offset < ph[i].p_filesz) {
			*va = ph[i].p_vaddr + (off - ph[i].p_offset);
			return 1;
		}
	return 0;
}
