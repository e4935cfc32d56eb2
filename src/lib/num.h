/*
 * num: strict number parsing and fast formatting.
 *
 * Parsing accepts exactly what it is asked to (no sign, no spaces, no
 * trailing garbage) and reports overflow instead of clamping, because a
 * silently clamped count is a wrong flame graph.
 */
#ifndef FT_NUM_H
#define FT_NUM_H

#include <stddef.h>
#include <stdint.h>

#define NUM_U64_MAX 21		/* digits of UINT64_MAX plus one */

/*
 * Parse the decimal digits s[0..n) (n >= 1) into *v.  Returns 0, or -1
 * when a byte is not a digit or the value does not fit in 64 bits.
 */
int num_parse_u64(const char *s, size_t n, uint64_t *v);

/*
 * Parse a whole option argument ("--foo=123") as an unsigned number in
 * [min, max].  Returns 0, or -1 on empty, non-digit or out-of-range text.
 */
int num_parse_arg(const char *s, uint64_t min, uint64_t max, uint64_t *v);

/*
 * Write v with 1 or 2 decimals, exactly as printf's "%.1f"/"%.2f" rounds
 * (to nearest, ties to even, on v's exact binary value), NUL-terminated;
 * buf must hold 32 bytes.  Returns the length.  Fast: integers, no float
 * formatting, where double is IEEE's binary64 and |v| is below 1e15.
 */
size_t num_fmt_fixed(char *buf, double v, int decimals);

/*
 * |v| * 10 (decimals 1) or * 100 (2) rounded as num_fmt_fixed rounds it,
 * its digits without the point and sign: 0 with *scaled set, or -1 where
 * num_fmt_fixed's fast path does not apply (then format and read back).
 */
int num_fixed_scaled(double v, int decimals, uint64_t *scaled);

/* Write v in decimal to buf (no NUL); returns the length. */
size_t num_fmt_u64(char *buf, uint64_t v);

#endif
