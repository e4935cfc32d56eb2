/*
 * dlmove.h: dlclose that makes the library's next dlopen land at a new
 * address, for the test programs that load a library in a loop
 * (dlloop.c, hostile.c's dlloop): the span the library took is mapped
 * again, without access, once it is closed, so the loader cannot reuse
 * it.  Included by one C file of a program; needs <dlfcn.h>, <link.h>
 * and <sys/mman.h> (_GNU_SOURCE).
 */

/* The span of the library loaded at base: its segments' end. */
struct span {
	uintptr_t	 base;
	size_t		 len;
};

static int
span_of(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct span *s = ctx;

	(void)size;
	if (info->dlpi_addr != s->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD &&
		    info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz > s->len)
			s->len = info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
	return 1;
}

/*
 * dlclose(h); with move, its span kept from reuse.  0, or -1 when
 * dlclose failed, -2 when the span could not be mapped again.
 */
static int
dlclose_moving(void *h, int move)
{
	struct link_map *lm = NULL;
	struct span sp = { 0, 0 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (move && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0) {
		sp.base = lm->l_addr;
		dl_iterate_phdr(span_of, &sp);
		sp.len = (sp.len + page - 1) & ~(page - 1);
	}
	if (dlclose(h) != 0)
		return -1;
	if (sp.len && mmap((void *)sp.base, sp.len, PROT_NONE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED)
		return -2;
	return 0;
}
