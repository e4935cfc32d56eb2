/*
 * selfsym.h: function names for addresses in this process, from the ELF
 * symbol tables of the files mapped into it (src/elf/elfsym.h).
 */
#ifndef TR_SELFSYM_H
#define TR_SELFSYM_H

#include <stdint.h>

/*
 * The name of the function at addr, or NULL.  The string lives as long
 * as the process.  Not async-signal-safe; not thread-safe (the writer
 * thread is its only caller).
 */
const char	*selfsym_lookup(uintptr_t addr);

#endif
