/*
 * elfsym.c: file offset to function name, from an ELF file's symbols.
 *
 * dladdr only sees dynamic symbols, so the static functions of an
 * executable linked without -rdynamic would stay addresses.  Instead, as
 * perf and uftrace do, read the symbol tables: a mapping's file offset
 * goes through the PT_LOAD segment holding it to the address the symbol
 * table uses (this covers PIE, shared objects and fixed executables
 * alike), and a binary search over the file's function symbols (.symtab,
 * else that of the debug file the build-id names, else .dynsym) finds
 * the name.  libtracerecord (selfsym.c) names its own process's
 * addresses so, trace-record --sample other processes'.
 *
 * Files are mapped once (elfimg.c) and kept for the life of the process:
 * names handed out point into the mappings and stay valid.  Only ELF64
 * of the host's byte order.  Failures just mean "no name".
 */
#include "elfsym.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfimg.h"

/* Out of -finstrument-functions: libtracerecord runs this code. */
#define NOINST	__attribute__((no_instrument_function))

struct sym {
	uint64_t	 addr, size;
	const char	*name;
	int		 rank;		/* among aliases, the highest is named */
	uint32_t	 idx;		/* then the first in the table */
};

struct elffile {
	char		*path;
	char		*owned;		/* elffile_parse's image */
	struct elfimg	 img, debug;	/* names point into one of them */
	struct sym	*syms;
	size_t		 nsyms;
	char		*plt;		/* the "name@plt" strings */
	int		 ok;
};

static struct elffile **files;
static size_t nfiles;

/* v with room for n elements of size sz (*cap grown), or NULL (v freed,
 * *cap 0). */
static NOINST void *
grow(void *v, size_t *cap, size_t n, size_t sz)
{
	void *nv;

	if (n <= *cap)
		return v;
	*cap = n < 16 ? 16 : n * 2;
	if (*cap > SIZE_MAX / sz || (nv = realloc(v, *cap * sz)) == NULL) {
		free(v);
		*cap = 0;
		return NULL;
	}
	return nv;
}

/*
 * Which of several names for one address to show, as perf chooses: one
 * with a size, then not weak, then global, then fewer leading
 * underscores ("malloc", not "__libc_malloc"), then the longer name,
 * then the first in the symbol table.  That last rule picks among
 * glibc's versions of one function, whose names are often as long:
 * "clock_gettime@@GLIBC_2.17" (the default version, listed first) over
 * "clock_gettime@GLIBC_2.2.5", as perf script --no-inline prints them.
 */
static NOINST int
rank(const Elf64_Sym *s, const char *name)
{
	int r = 0, u = 0;

	while (name[u] == '_' && u < 15)
		u++;
	r += s->st_size ? 1 << 12 : 0;
	r += ELF64_ST_BIND(s->st_info) != STB_WEAK ? 1 << 11 : 0;
	r += ELF64_ST_BIND(s->st_info) == STB_GLOBAL ? 1 << 10 : 0;
	r += (15 - u) << 6;
	return r;
}

/* By address; at one address the best name last, where lookups land. */
static NOINST int
by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	size_t nx = strlen(x->name), ny = strlen(y->name);

	if (nx != ny)
		return nx < ny ? -1 : 1;
	return x->idx > y->idx ? -1 : x->idx < y->idx;
}

/* Add the function symbols of table tab of img to f. */
static NOINST int
add_syms(struct elffile *f, const struct elfimg *img, const Elf64_Shdr *tab)
{
	if (tab->sh_link >= img->nsh)
		return -1;
	const Elf64_Shdr *str = &img->sh[tab->sh_link];
	const char *strs = elfimg_data(img, str);

	if (strs == NULL)
		return -1;
	const Elf64_Sym *sy = elfimg_data(img, tab);
	size_t n = tab->sh_size / sizeof *sy;

	f->syms = malloc((n ? n : 1) * sizeof *f->syms);
	if (f->syms == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int type = ELF64_ST_TYPE(sy[i].st_info);

		/* an ifunc's symbol is its resolver, code as any (perf's too) */
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sy[i].st_value == 0 ||
		    sy[i].st_shndx == SHN_UNDEF || sy[i].st_name >= str->sh_size)
			continue;
		const char *name = strs + sy[i].st_name;

		if (memchr(name, '\0', str->sh_size - sy[i].st_name) == NULL)
			continue;
		f->syms[f->nsyms].addr = sy[i].st_value;
		f->syms[f->nsyms].size = sy[i].st_size;
		f->syms[f->nsyms].name = name;
		f->syms[f->nsyms].rank = rank(&sy[i], name);
		f->syms[f->nsyms].idx = (uint32_t)i;
		f->nsyms++;
	}
	qsort(f->syms, f->nsyms, sizeof *f->syms, by_addr);
	return 0;
}

/*
 * A stripped file's full symbol table, in its debug file (elfimg.h).
 * Mapped into f->debug; 0 when its symbols are f's.
 */
static NOINST int
debug_syms(struct elffile *f)
{
	const Elf64_Shdr *tab;

	if (elfimg_open_build_id(&f->debug, &f->img) != 0)
		return -1;
	if ((tab = elfimg_section_type(&f->debug, SHT_SYMTAB)) != NULL &&
	    add_syms(f, &f->debug, tab) == 0)
		return 0;
	elfimg_close(&f->debug);
	return -1;
}

/*
 * PLT stubs, named "name@plt" as perf names them: the stubs have no
 * symbols, but each jumps through a GOT slot that a relocation fills,
 * and the relocation's symbol is the function called.  On x86-64 each
 * stub is decoded: "jmp *slot(%rip)", after an endbr64 and a bnd prefix
 * with IBT, in .plt.sec when the file has one (.plt then only holds the
 * lazy-binding halves), else in .plt (after its header, which does not
 * decode so, or without one, as a static program's); and in .plt.got,
 * the stubs of functions whose address is also taken (filled at load by
 * a .rela.dyn relocation, not lazily), sh_entsize bytes each.  Decoding,
 * not counting: the linker puts IRELATIVE relocations after the others
 * in .rela.plt (libc's do), so the i-th relocation is not the i-th
 * stub's.  AArch64's stubs are not decoded: 32 bytes of header, then 16
 * a stub, in the order of their slots.
 *
 * An IRELATIVE relocation (an ifunc: libc's memcpy, strlen, ...) has no
 * symbol; its addend is the resolver's address, named as perf (6.3 on)
 * names it: the symbol there, "strnlen@plt", else by the stub's file
 * offset, "offset_0x26010@plt".  Read with memcpy: a hostile file's
 * sections need not be aligned.
 */
#define PLT_ENTRY	16

/* The dynamic symbol si's name of table dsym (of img), or NULL. */
static NOINST const char *
dyn_name(const struct elfimg *img, const Elf64_Shdr *dsym, uint64_t si, size_t *len)
{
	const unsigned char *sy = elfimg_data(img, dsym);
	const Elf64_Shdr *dstr;
	const char *str, *nul;
	Elf64_Sym es;

	if (sy == NULL || si == 0 || si >= dsym->sh_size / sizeof es ||
	    dsym->sh_link >= img->nsh)
		return NULL;
	dstr = &img->sh[dsym->sh_link];
	if ((str = elfimg_data(img, dstr)) == NULL)
		return NULL;
	memcpy(&es, sy + si * sizeof es, sizeof es);
	if (es.st_name >= dstr->sh_size ||
	    (nul = memchr(str + es.st_name, '\0', dstr->sh_size - es.st_name)) == NULL ||
	    nul == str + es.st_name)
		return NULL;
	*len = (size_t)(nul - (str + es.st_name));
	return str + es.st_name;
}

static NOINST int
by_offset(const void *a, const void *b)
{
	const Elf64_Rela *x = a, *y = b;

	return x->r_offset < y->r_offset ? -1 : x->r_offset > y->r_offset;
}

struct stub {
	uint64_t	 addr, size;
	const char	*name;		/* NULL: named by its file offset, off */
	size_t		 len;
	uint64_t	 off;
};

/* The relocations of rel (of img), sorted by the slot they fill; NULL if none. */
static NOINST Elf64_Rela *
sorted_relas(const struct elfimg *img, const Elf64_Shdr *rel, uint64_t *nr)
{
	const unsigned char *r;
	Elf64_Rela *ra;

	if (rel == NULL || (r = elfimg_data(img, rel)) == NULL ||
	    rel->sh_link >= img->nsh || (*nr = rel->sh_size / sizeof *ra) == 0 ||
	    (ra = malloc(*nr * sizeof *ra)) == NULL)
		return NULL;
	memcpy(ra, r, *nr * sizeof *ra);
	qsort(ra, *nr, sizeof *ra, by_offset);
	return ra;
}

/* The name of the function ra binds, into st; 0, or -1 when not one. */
static NOINST int
rela_name(const struct elffile *f, const Elf64_Shdr *rel, const Elf64_Rela *ra,
    struct stub *st)
{
	uint32_t type = ELF64_R_TYPE(ra->r_info);
	size_t lo = 0, hi = f->nsyms;

	if ((st->name = dyn_name(&f->img, &f->img.sh[rel->sh_link],
	    ELF64_R_SYM(ra->r_info), &st->len)) != NULL)
		return 0;
	if (!(f->img.eh->e_machine == EM_X86_64 && type == R_X86_64_IRELATIVE) &&
	    !(f->img.eh->e_machine == EM_AARCH64 && type == R_AARCH64_IRELATIVE))
		return -1;
	/* the last symbol at the resolver is its best name (by_addr) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->syms[mid].addr <= (uint64_t)ra->r_addend)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && f->syms[lo - 1].addr == (uint64_t)ra->r_addend) {
		st->name = f->syms[lo - 1].name;
		st->len = strlen(st->name);
	}
	return 0;
}

/* Append st, at addr of sec, to *v; -1 when out of memory (*n then 0). */
static NOINST int
add_stub(struct stub **v, size_t *n, size_t *cap, struct stub st,
    const Elf64_Shdr *sec, uint64_t addr, uint64_t size)
{
	if ((*v = grow(*v, cap, *n + 1, sizeof **v)) == NULL) {
		*n = 0;
		return -1;
	}
	st.addr = addr;
	st.size = size;
	st.off = sec->sh_offset + (addr - sec->sh_addr);
	(*v)[(*n)++] = st;
	return 0;
}

/* x86-64: the ent-byte stubs of sec that jump through a slot rel fills. */
static NOINST void
jmp_stubs(const struct elffile *f, const Elf64_Shdr *sec, uint64_t ent,
    const Elf64_Shdr *rel, struct stub **v, size_t *n, size_t *cap)
{
	const unsigned char *code;
	Elf64_Rela *ra;
	uint64_t nr = 0;

	if (sec == NULL || (code = elfimg_data(&f->img, sec)) == NULL ||
	    (ra = sorted_relas(&f->img, rel, &nr)) == NULL)
		return;
	for (uint64_t o = 0; o + ent <= sec->sh_size; o += ent) {
		const unsigned char *c = code + o, *end = c + ent;
		int32_t disp;
		uint64_t slot;
		size_t lo = 0, hi = nr;
		struct stub st;

		if (end - c >= 4 && memcmp(c, "\xf3\x0f\x1e\xfa", 4) == 0)
			c += 4;		/* endbr64 */
		if (end - c >= 1 && *c == 0xf2)
			c++;		/* bnd */
		if (end - c < 6 || c[0] != 0xff || c[1] != 0x25)
			continue;
		memcpy(&disp, c + 2, 4);
		slot = sec->sh_addr + (uint64_t)(c + 6 - code) + (uint64_t)(int64_t)disp;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (ra[mid].r_offset < slot)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == nr || ra[lo].r_offset != slot ||
		    rela_name(f, rel, &ra[lo], &st) < 0)
			continue;
		if (add_stub(v, n, cap, st, sec, sec->sh_addr + o, ent) < 0)
			break;
	}
	free(ra);
}

/* AArch64: the stubs of .plt, in the order of the slots of .rela.plt. */
static NOINST void
arm_stubs(const struct elffile *f, struct stub **v, size_t *n, size_t *cap)
{
	const Elf64_Shdr *rel = elfimg_section_name(&f->img, ".rela.plt"),
	    *sec = elfimg_section_name(&f->img, ".plt");
	const uint64_t header = 32;
	Elf64_Rela *ra;
	uint64_t k = 0;

	if (sec == NULL || sec->sh_size < header ||
	    (ra = sorted_relas(&f->img, rel, &k)) == NULL)
		return;
	if (k > (sec->sh_size - header) / PLT_ENTRY)
		k = (sec->sh_size - header) / PLT_ENTRY;
	for (uint64_t i = 0; i < k; i++) {
		struct stub st;

		if (rela_name(f, rel, &ra[i], &st) == 0 &&
		    add_stub(v, n, cap, st, sec, sec->sh_addr + header +
		    i * PLT_ENTRY, PLT_ENTRY) < 0)
			break;
	}
	free(ra);
}

/* The stubs of f->img as symbols "name@plt" (their bytes in f->plt). */
static NOINST void
plt_syms(struct elffile *f)
{
	const struct elfimg *img = &f->img;
	struct stub *v = NULL;
	size_t n = 0, cap = 0, bytes = 0, used = 0;
	struct sym *ns;

	if (img->eh->e_machine == EM_X86_64) {
		const Elf64_Shdr *got = elfimg_section_name(img, ".plt.got"),
		    *sec = elfimg_section_name(img, ".plt.sec");

		jmp_stubs(f, sec ? sec : elfimg_section_name(img, ".plt"), PLT_ENTRY,
		    elfimg_section_name(img, ".rela.plt"), &v, &n, &cap);
		if (got)
			jmp_stubs(f, got, got->sh_entsize == 16 ? 16 : 8, elfimg_section_name(img,
			    ".rela.dyn"), &v, &n, &cap);
	} else if (img->eh->e_machine == EM_AARCH64) {
		arm_stubs(f, &v, &n, &cap);
	}
	for (size_t i = 0; i < n; i++) {
		if (v[i].name == NULL)
			v[i].len = (size_t)snprintf(NULL, 0, "offset_%#llx",
			    (unsigned long long)v[i].off);
		bytes += v[i].len + 5;
	}
	if (n == 0 || (f->plt = malloc(bytes)) == NULL ||
	    (ns = realloc(f->syms, (f->nsyms + n) * sizeof *ns)) == NULL) {
		free(f->plt);
		f->plt = NULL;
		free(v);
		return;
	}
	f->syms = ns;
	for (size_t i = 0; i < n; i++) {
		if (v[i].name)
			memcpy(f->plt + used, v[i].name, v[i].len);
		else
			snprintf(f->plt + used, v[i].len + 1, "offset_%#llx",
			    (unsigned long long)v[i].off);
		memcpy(f->plt + used + v[i].len, "@plt", 5);
		f->syms[f->nsyms++] = (struct sym){ v[i].addr, v[i].size, f->plt + used, 0, 0 };
		used += v[i].len + 5;
	}
	free(v);
	qsort(f->syms, f->nsyms, sizeof *f->syms, by_addr);
}

/* The function symbols of f->img, checked already. */
static NOINST void
syms_load(struct elffile *f)
{
	const Elf64_Shdr *tab = elfimg_section_type(&f->img, SHT_SYMTAB);

	if (tab == NULL && debug_syms(f) == 0) {
		f->ok = 1;
	} else {
		if (tab == NULL)
			tab = elfimg_section_type(&f->img, SHT_DYNSYM);
		if (tab && add_syms(f, &f->img, tab) == 0)
			f->ok = 1;
	}
	if (f->ok)
		plt_syms(f);
}

NOINST struct elffile *
elffile_parse(char *p, size_t len)
{
	struct elffile *f = calloc(1, sizeof *f);

	if (f == NULL) {
		free(p);
		return NULL;
	}
	f->owned = p;
	if (elfimg_init(&f->img, p, len) == 0)
		syms_load(f);
	return f;
}

NOINST void
elffile_free(struct elffile *f)
{
	if (f == NULL)
		return;
	elfimg_close(&f->img);
	elfimg_close(&f->debug);
	free(f->owned);
	free(f->syms);
	free(f->plt);
	free(f->path);
	free(f);
}

NOINST struct elffile *
elffile_get(const char *path)
{
	size_t i;
	struct elffile *f, **nf;

	for (i = 0; i < nfiles; i++)
		if (strcmp(files[i]->path, path) == 0)
			return files[i];
	if ((f = calloc(1, sizeof *f)) == NULL || (f->path = strdup(path)) == NULL ||
	    (nf = realloc(files, (nfiles + 1) * sizeof *files)) == NULL) {
		free(f);
		return NULL;
	}
	files = nf;
	files[nfiles++] = f;
	if (elfimg_open(&f->img, path) == 0)
		syms_load(f);
	return f;
}

NOINST const char *
elffile_lookup(const struct elffile *f, uint64_t off, uint64_t *symoff)
{
	const Elf64_Phdr *ph;
	uint64_t va = 0;
	size_t i, lo, hi;
	int found = 0;

	if (f == NULL || !f->ok)
		return NULL;
	for (i = 0, ph = f->img.ph; i < f->img.nph; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset <= off &&
		    off < ph[i].p_offset + ph[i].p_filesz) {
			va = ph[i].p_vaddr + (off - ph[i].p_offset);
			found = 1;
			break;
		}
	if (!found)
		return NULL;
	/* The last symbol at or before va. */
	lo = 0;
	hi = f->nsyms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->syms[mid].addr <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct sym *s = &f->syms[lo - 1];

	if (va >= s->addr + (s->size ? s->size : 1))
		return NULL;
	*symoff = va - s->addr;
	return s->name;
}
