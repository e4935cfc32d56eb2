/*
 * rustsym: finish demangling a Rust "legacy" symbol that a profiler left
 * half done (perf, DTrace, macOS sample and xctrace all do), as inferno
 * does: "_$LT$a..B$u20$as$u20$C$GT$::f::h0123456789abcdef" becomes
 * "<a::B as C>::f".
 */
#ifndef SC_RUSTSYM_H
#define SC_RUSTSYM_H

#include <stddef.h>

/*
 * Write the tidied name of fp[0..fn) to buf (at least fn bytes) and return
 * its length, or return 0 when the name does not end in a Rust hash.
 */
size_t rust_fix(const char *fp, size_t fn, char *buf);

#endif
