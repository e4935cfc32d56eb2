/*
 * symtab.h: address-to-name tables that are not ELF files: the kernel's
 * (/proc/kallsyms) and a JIT's (/tmp/perf-PID.map).
 */
#ifndef TR_SYMTAB_H
#define TR_SYMTAB_H

#include <stdint.h>
#include <sys/types.h>

struct symtab;

/* The kernel's symbols; NULL when hidden (kptr_restrict) or unreadable. */
struct symtab	*symtab_kernel(void);

/*
 * /tmp/perf-PID.map, read once per pid; NULL when there is none, or when
 * it is refused (said on stderr): not a regular file owned by root, by
 * this user or by the one symtab_perfmap_owner names.
 */
struct symtab	*symtab_perfmap(uint32_t pid);

/* The sampled process's user (-p): its perf maps are trusted too. */
void		 symtab_perfmap_owner(uid_t uid);

/* The symbol holding addr, or NULL; *symoff is addr's distance into it. */
const char	*symtab_lookup(const struct symtab *t, uint64_t addr,
		    uint64_t *symoff);

/* The file it came from, for perf script's "(dso)". */
const char	*symtab_path(const struct symtab *t);

#endif
