/*
 * demangle: symbol names as perf prints them, for trace-record's reports
 * and stackcollapse's Rust frames.
 *
 * Three manglings: C++ (the Itanium ABI, "_Z..."), Rust's legacy one (an
 * Itanium nested name ending in a "17h<16 hex digits>" hash) and Rust v0
 * ("_R...").  The text is what perf shows: C++ as libstdc++'s
 * __cxa_demangle writes it (perf calls it: "std::string", not the
 * expansion c++filt's verbose default writes, except before a
 * constructor), Rust without the hash and the crates' disambiguators
 * (perf's and rustc-demangle's short form).
 */
#ifndef FT_DEMANGLE_H
#define FT_DEMANGLE_H

#include <stddef.h>

/* The longest name demangle writes; one longer stays mangled. */
#define DEMANGLE_MAX 16384

/* demangle's flags: a C++ function's parameters and return type too. */
#define DEMANGLE_PARAMS 1

/*
 * The demangled name of sym[0..n) (which need not be NUL-terminated), in
 * memory from xmalloc that the caller frees; NULL when it is not a mangled
 * name, or one this demangler cannot read whole (it is then shown as it
 * is, never cut short or guessed).  Bounded: recursion, nodes and output
 * are capped, so any input takes time and memory linear in its length.
 */
char	*demangle(const char *sym, size_t n, int flags);

/*
 * Finish a Rust legacy name that a profiler left half demangled ("_$LT$a..B
 * $u20$as$u20$C$GT$::f::h0123456789abcdef" to "<a::B as C>::f", as
 * inferno does): write it to buf (at least fn bytes) and return its
 * length, or return 0 when fp[0..fn) does not end in a Rust hash.
 */
size_t	 demangle_rust_tidy(const char *fp, size_t fn, char *buf);

#endif
