/*
 * report.c: replay a sampling run in time order and name every frame.
 *
 * Addresses are only meaningful against the memory map of their process
 * at the moment of the sample, so the records are replayed in time
 * order while the program runs (replay_settle, a drain or two after they
 * come): a mapping (perf's MMAP record, or the sampler's snapshot of
 * /proc/PID/maps) is added to its process, a fork copies the parent's
 * map, an exec empties it.  Each sample's user addresses are then put
 * with the file each is mapped from and that mapping's base, and the
 * chain so made is kept once however many samples have it (chains.h);
 * the sample keeps its id, and the mapping records are not kept.  The
 * report replays the rest (names, forks, thread times) and names the
 * frames: a user address becomes a file offset through its base, and the
 * ELF file's symbol tables (elfsym.c) give the function; an address in
 * no file mapping is looked up in /tmp/perf-PID.map (JIT code), a kernel
 * address in /proc/kallsyms, a vDSO one in trace-record's own vDSO (the
 * same kernel's, as perf does).  Return addresses are looked up one byte
 * back, so that a call at the very end of a function is not credited
 * to the next one.  Symbols are read only then, not while the program
 * runs.
 *
 * Perf reports no unmapping, so a mapping would stay in the replay's
 * map of its process until another overlaps it or the process execs: a
 * library loaded at a new address each time would add one each time.
 * When a process's map has doubled, the caller is asked to look at what
 * it has mapped (replay_crowded), and the mappings gone are dropped as
 * the replay passes that moment.  The signal sampler's snapshots
 * replace the whole map.
 *
 * A --call-graph=dwarf sample carries registers and a copy of the
 * stack's top instead of user frames: they are unwound as it settles,
 * with the CFI of the files mapped then (src/elf/cfi.c, each file's
 * tables loaded at its first use; the vDSO from trace-record's own, the
 * same kernel's), so that a copy of kilobytes is freed within a drain or
 * two.  A walk ends where the tables or the copy end, so a deep stack
 * past --stack-size is cut.
 *
 * perf script text: "comm pid/tid secs.nanos: period event:", then
 * "\taddr sym+0xoff (dso)" per frame, leaf first, and a blank line; what
 * stackcollapse and FlameGraph's stackcollapse-perf.pl read.  Folded:
 * the same stacks as stackcollapse --kernel makes of that text (comm
 * first, spaces in it as '_', unknown frames as [dso], kernel frames
 * with _[k]), each with the sum of its samples' periods (nanoseconds
 * of CPU time, as stackcollapse-perf.pl counts), sorted bytewise.
 *
 * Names are the program's to choose (a thread names itself, a file is
 * named by whoever made it), so in both forms a control byte in a comm,
 * a symbol or a file is written as \xHH: a newline would end the line
 * and forge samples or frames, a tab would make a header a frame line.
 * A comm's ';' is written ':' (folded(5)'s rule for writers, applied to
 * the text too, since stackcollapse takes the comm as the root frame
 * unchanged), and a blank starting it \x20, since a header starts with
 * a non-blank.
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "../lib/count.h"
#include "../lib/demangle.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/intern.h"
#include "../lib/out.h"
#include "../lib/spans.h"
#include "../elf/cfi.h"
#include "../elf/elfsym.h"
#include "chains.h"
#include "sigsample.h"
#include "spanjoin.h"
#include "symtab.h"

struct map {
	uint64_t	 start, end, pgoff;
	uint32_t	 file;		/* path id in r->chains, index into files */
};

struct proc {
	uint32_t	 pid;
	struct map	*m;
	size_t		 n, cap;
	size_t		 asked;		/* n when replay_crowded last named it */
};

struct thread {
	uint32_t	 tid;
	char		 comm[16];
	int		 sampled;	/* since it started */
	int		 counted;	/* in stats.unsampled */
	int		 forked;	/* a REC_FORK started it: it is the program's */
	int		 out;		/* --wall: off the CPU since a switch (1),
					 * preempted (2) */
	size_t		 offpend;	/* its off-CPU sample not timed yet: r->v
					 * index + 1 */
	int64_t		 offt0;		/* and when it was taken */
	int64_t		 outt;		/* when it last left the CPU */
};

struct file {
	const char	*path;		/* r->chains' */
	struct elffile	*elf;		/* NULL: no symbols ("[heap]") */
	int		 elf_read;	/* elf is loaded, at the first name asked */
	struct cfi_file	*cfi;		/* NULL: not loaded yet */
};

#define MAX_UNWIND	512	/* user frames of a dwarf sample */

struct frame {
	const char	*sym, *dso;	/* sym NULL: unknown */
	uint64_t	 symoff;
	int		 kernel;
	int		 ours;		/* in the signal sampler: not written */
};

struct replay {
	struct proc	*procs;
	size_t		 nprocs, proccap;
	struct thread	*threads;
	size_t		 nthreads, threadcap;
	struct file	*files;		/* by path id in r->chains */
	size_t		 nfiles, filecap;
	/* folded */
	struct folded_sum stacks;
	char		*line;
	size_t		 linecap;
	char		*esc;		/* text_name's */
	size_t		 esccap;
	/* symbols demangled once each: by mangled name, the name shown */
	struct intern	 mangled;
	char		**shown;	/* NULL: shown mangled */
	size_t		 showncap;
	uint64_t	*frames;	/* a dwarf sample's, unwound */
	struct chain_frame *chain;	/* a sample's, settling */
	size_t		 chaincap;
	struct report_stats stats;
	struct recs	*r;		/* where replay_settle puts them, or the
					 * records report_write replays */
	uint64_t	 runnable_ns;	/* --wall: preempted, waiting for a CPU */
};

/*
 * The n bytes of s as they are written: control bytes as \xHH, and for a
 * comm ';' as ':' and a blank at the start as \x20.  dst holds 4 * n
 * bytes.  Returns the length.
 */
static size_t
escape(char *dst, const char *s, size_t n, int comm)
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || (comm && i == 0 && c == ' ')) {
			dst[k++] = '\\';
			dst[k++] = 'x';
			dst[k++] = hex[c >> 4];
			dst[k++] = hex[c & 15];
		} else {
			dst[k++] = comm && c == ';' ? ':' : (char)c;
		}
	}
	return k;
}

/* Perf script text's form of a name (p->esc, valid until the next call). */
static const char *
text_name(struct replay *p, const char *s, size_t n, int comm)
{
	p->esc = xgrow(p->esc, &p->esccap, 4 * n + 1, 1);
	p->esc[escape(p->esc, s, n, comm)] = '\0';
	return p->esc;
}

/* Linear with a move-to-front: a run has few processes and threads, and
 * samples come in runs from one thread. */
static struct proc *
proc_get(struct replay *p, uint32_t pid)
{
	for (size_t i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid) {
			if (i > 0) {
				struct proc t = p->procs[i];

				p->procs[i] = p->procs[0];
				p->procs[0] = t;
			}
			return &p->procs[0];
		}
	p->procs = xgrow(p->procs, &p->proccap, p->nprocs + 1, sizeof *p->procs);
	memset(&p->procs[p->nprocs], 0, sizeof *p->procs);
	p->procs[p->nprocs].pid = pid;
	return &p->procs[p->nprocs++];
}

/*
 * A thread of the program that ended without a sample is counted even
 * when no REC_TASKTIME came: the kernel's record of a thread's CPU time
 * at its exit is not always sent (seen: 310 of 400 on one machine).
 */
static void
thread_end(struct replay *p, struct thread *t)
{
	if (!t->forked || t->sampled || t->counted)
		return;
	p->stats.unsampled++;
	p->stats.untimed++;
	t->counted = 1;
}

static struct thread *
thread_get(struct replay *p, uint32_t tid)
{
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i].tid == tid) {
			if (i > 0) {
				struct thread t = p->threads[i];

				p->threads[i] = p->threads[0];
				p->threads[0] = t;
			}
			return &p->threads[0];
		}
	p->threads = xgrow(p->threads, &p->threadcap, p->nthreads + 1,
	    sizeof *p->threads);
	memset(&p->threads[p->nthreads], 0, sizeof *p->threads);
	p->threads[p->nthreads].tid = tid;
	return &p->threads[p->nthreads++];
}

/* The off-CPU sample r->v[i]: its period, and what to make of it. */
static void
offcpu_set(struct recs *r, size_t i, int64_t period, uint32_t kind)
{
	struct rec_settled *s = (struct rec_settled *)(void *)(r->buf + r->v[i].off);

	s->period = period > 0 ? (uint64_t)period : 0;
	s->kind = period > 0 ? kind : REC_NOSHOW;
}

/* An off-CPU sample e just settled into r as its last record: timed at
 * the thread's switch back in, or dropped if it left preempted (the
 * switch record may come before the sample or after it). */
static void
offcpu_taken(struct replay *p, struct recs *r, const struct rec *e)
{
	struct thread *t = thread_get(p, e->tid);

	if (t->out == 2) {
		offcpu_set(r, r->n - 1, 0, REC_NOSHOW);
		return;
	}
	if (t->offpend)		/* never switched back in: not timed */
		offcpu_set(r, t->offpend - 1, 0, REC_NOSHOW);
	t->offpend = r->n;
	t->offt0 = e->time;
}

/* The vDSO's image in this process: the sampled one's, same kernel. */
static const void *
vdso_image(size_t *len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	size_t end;

	if (eh == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	end = (size_t)eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr);
	ph = (const Elf64_Phdr *)(const void *)((const char *)eh + eh->e_phoff);
	for (size_t i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = (size_t)(ph[i].p_offset + ph[i].p_filesz);
	*len = end;
	return eh;
}

/*
 * The symbols of a mapped file: an ELF file's by its path; the vDSO's
 * from a copy of trace-record's (perf names its functions,
 * "__vdso_clock_gettime", from the same image); none for the rest.
 */
static struct elffile *
file_syms(const char *path)
{
	const void *img;
	size_t len = 0;
	char *copy;

	if (path[0] == '/')
		return elffile_get(path);
	if (strcmp(path, "[vdso]") != 0 || (img = vdso_image(&len)) == NULL)
		return NULL;
	copy = xmalloc(len);
	memcpy(copy, img, len);
	return elffile_parse(copy, len);
}

/* The file of path id, its entry made when first asked for. */
static struct file *
file_at(struct replay *p, uint32_t id)
{
	if (id >= p->nfiles) {
		p->files = xgrow(p->files, &p->filecap, (size_t)id + 1, sizeof *p->files);
		for (size_t i = p->nfiles; i <= id; i++) {
			p->files[i].path = chains_path_str(&p->r->chains, (uint32_t)i);
			p->files[i].elf = NULL;
			p->files[i].elf_read = 0;
			p->files[i].cfi = NULL;
		}
		p->nfiles = (size_t)id + 1;
	}
	return &p->files[id];
}

static uint32_t
file_id(struct replay *p, const char *path)
{
	uint32_t id = chains_path(&p->r->chains, path);

	file_at(p, id);
	return id;
}

/* A file's symbols, read when first needed: a replay that only unwinds
 * (replay_settle, while the program runs) reads none. */
static const struct elffile *
file_elf(struct file *f)
{
	if (!f->elf_read) {
		f->elf = file_syms(f->path);
		f->elf_read = 1;
	}
	return f->elf;
}

/* Map [start, end) to file at pgoff, replacing what it overlaps. */
static void
map_add(struct proc *pr, uint64_t start, uint64_t end, uint64_t pgoff, uint32_t file)
{
	size_t i = 0, j, k;

	if (end <= start)
		return;
	while (i < pr->n && pr->m[i].end <= start)
		i++;
	/* Trim or split the ones overlapping [start, end). */
	for (j = i; j < pr->n && pr->m[j].start < end; j++)
		;
	struct map left = { 0 }, right = { 0 };
	int hasl = 0, hasr = 0;

	if (i < j && pr->m[i].start < start) {
		left = pr->m[i];
		left.end = start;
		hasl = 1;
	}
	if (i < j && pr->m[j - 1].end > end) {
		right = pr->m[j - 1];
		right.pgoff += end - right.start;
		right.start = end;
		hasr = 1;
	}
	size_t add = (size_t)hasl + 1 + (size_t)hasr, removed = j - i;

	pr->m = xgrow(pr->m, &pr->cap, pr->n + add, sizeof *pr->m);
	memmove(&pr->m[i + add], &pr->m[j], (pr->n - j) * sizeof *pr->m);
	pr->n = pr->n - removed + add;
	k = i;
	if (hasl)
		pr->m[k++] = left;
	pr->m[k++] = (struct map){ start, end, pgoff, file };
	if (hasr)
		pr->m[k] = right;
}

static const struct map *
map_find(const struct proc *pr, uint64_t a)
{
	size_t lo = 0, hi = pr->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pr->m[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pr->n && pr->m[lo].start <= a ? &pr->m[lo] : NULL;
}

/*
 * Drop the mappings of pr that overlap none of the n ranges at v (start,
 * end pairs in ascending order, as /proc/PID/maps lists them): gone
 * since, and no later sample can be in them.
 */
static void
map_prune(struct proc *pr, const unsigned char *v, size_t n)
{
	size_t k = 0, j = 0;

	for (size_t i = 0; i < pr->n; i++) {
		uint64_t r[2] = { 0, 0 };

		/* The first range not wholly below this mapping. */
		for (; j < n; j++) {
			memcpy(r, v + j * 16, 16);
			if (r[1] > pr->m[i].start)
				break;
		}
		if (j < n && r[0] < pr->m[i].end)
			pr->m[k++] = pr->m[i];
	}
	pr->n = k;
}

/* The sampler's snapshot: "start-end perms offset dev inode path" lines. */
static void
maps_text(struct replay *p, struct proc *pr, const char *s, size_t n)
{
	pr->n = 0;
	while (n > 0) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;
		char line[4352], path[4097];
		unsigned long long a, b, off;

		if (len < sizeof line) {
			memcpy(line, s, len);
			line[len] = '\0';
			if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4096[^\n]", &a, &b,
			    &off, path) == 4)
				map_add(pr, a, b, off, file_id(p, path));
		}
		len += nl != NULL;
		s += len;
		n -= len;
	}
}

/*
 * A symbol as perf shows it: C++ and Rust names demangled to the name
 * alone (perf's default), once per name; a name the demangler cannot
 * read whole is shown mangled.  Not for perf maps: a JIT writes there
 * the name it wants shown.
 */
static const char *
shown(struct replay *p, const char *sym)
{
	uint32_t id;
	int isnew;

	if (sym == NULL || sym[0] != '_' || (sym[1] != 'Z' && sym[1] != 'R'))
		return sym;
	id = intern_put(&p->mangled, sym, strlen(sym), &isnew);
	if (isnew) {
		p->shown = xgrow(p->shown, &p->showncap, (size_t)id + 1, sizeof *p->shown);
		p->shown[id] = demangle(sym, strlen(sym), 0);
	}
	return p->shown[id] ? p->shown[id] : sym;
}

/* Memory no file backs, where a JIT puts code: perf names it "//anon". */
static int
anon(const char *path)
{
	return strncmp(path, "//anon", 6) == 0 || strncmp(path, "[anon", 5) == 0 ||
	    strncmp(path, "/memfd:", 7) == 0;
}

/* The signal sampler's memory file (sigsample.h). */
static int
ours(const char *path)
{
	return strncmp(path, "/memfd:" SIGSAMPLE_SO " ", sizeof "/memfd:" SIGSAMPLE_SO) == 0;
}

static void
resolve(struct replay *p, uint32_t pid, const struct chain_frame *cf, int kernel,
    int leaf, struct frame *f)
{
	uint64_t a = cf->addr, look = leaf || a == 0 ? a : a - 1;
	const struct symtab *t;

	f->sym = NULL;
	f->symoff = 0;
	f->kernel = kernel;
	f->ours = 0;
	if (kernel) {
		f->dso = "[kernel.kallsyms]";
		f->sym = shown(p, symtab_lookup(symtab_kernel(), look, &f->symoff));
	} else {
struct file *fi = cf->file ? file_at(p, cf->file - 1) : NULL;

		/*
		 * The signal sampler's wrappers (read, pthread_mutex_lock) are
		 * between the program and libc in samples taken inside them:
		 * left out, so that a call's on-CPU stacks are those of its
		 * off-CPU ones (--wall), and those of the perf mechanism.
		 */
		if (fi && ours(fi->path)) {
			f->ours = 1;
			f->dso = fi->path;
		} else if (fi && !anon(fi->path)) {
			f->dso = fi->path;
			f->sym = shown(p, elffile_lookup(file_elf(fi), look - cf->base,
			    &f->symoff));
		} else if ((t = symtab_perfmap(pid)) != NULL &&
		    (f->sym = symtab_lookup(t, look, &f->symoff)) != NULL) {
			f->dso = symtab_path(t);
		} else {
			f->dso = fi ? fi->path : "[unknown]";
		}
	}
	if (f->sym)
		f->symoff += a - look;
}

/* What cfi_walk needs of one sample: its process's map and stack copy. */
struct walk {
	struct replay		*p;
	const struct proc	*pr;
	const unsigned char	*stack;
	uint64_t		 base;
	size_t			 len;
};

static int
walk_read(void *ctx, uint64_t addr, uint64_t *v)
{
	const struct walk *w = ctx;

	if (addr < w->base || addr - w->base > w->len || w->len - (addr - w->base) < 8)
		return -1;
	memcpy(v, w->stack + (addr - w->base), 8);
	return 0;
}

static const struct cfi *
walk_find(void *ctx, uint64_t pc, uint64_t *va)
{
	const struct walk *w = ctx;
	const struct map *m = map_find(w->pr, pc);
	struct file *f;

	if (m == NULL)
		return NULL;
	f = &w->p->files[m->file];
	if (f->cfi == NULL) {
		size_t len = 0;
		const void *img = NULL;

		f->cfi = xmalloc(sizeof *f->cfi);
		if (f->path[0] == '/' && !anon(f->path))
			cfi_file_open(f->cfi, f->path, NULL, 0);
		else if (strcmp(f->path, "[vdso]") == 0 && (img = vdso_image(&len)) != NULL)
			cfi_file_open(f->cfi, NULL, img, len);
		else
			memset(f->cfi, 0, sizeof *f->cfi);
	}
	if (!f->cfi->ok || !cfi_file_vaddr(f->cfi, pc - m->start + m->pgoff, va))
		return NULL;
	return &f->cfi->cfi;
}

/* A dwarf sample's frames: its kernel ones, then the user ones unwound. */
static uint32_t
unwind(struct replay *p, uint32_t pid, const struct rec_sample *s,
    const uint64_t **frames)
{
	const uint64_t *kern = (const uint64_t *)(const void *)(s + 1);
	const unsigned char *u8 = (const unsigned char *)(kern + s->n);
	struct rec_ustack u;
	uint64_t regs[CFI_NREGS];

	memcpy(&u, u8, sizeof u);
	struct walk w = { p, proc_get(p, pid), u8 + sizeof u, u.regs[CFI_SP], u.len };
	struct cfi_mem m = { walk_read, walk_find, &w };

	if (p->frames == NULL)
		p->frames = xmalloc((REC_MAX_CHAIN + MAX_UNWIND) * sizeof *p->frames);
	memcpy(p->frames, kern, (size_t)s->n * 8);
	memcpy(regs, u.regs, sizeof regs);
	*frames = p->frames;
	return s->n + (uint32_t)cfi_walk(&m, regs, u.valid, p->frames + s->n, MAX_UNWIND);
}

static void
script_frame(struct replay *p, uint64_t a, const struct frame *f)
{
	out_fmt("\t%16llx ", (unsigned long long)a);
	if (f->sym)
		out_fmt("%s+0x%llx", text_name(p, f->sym, strlen(f->sym), 0),
		    (unsigned long long)f->symoff);
	else
		out_str("[unknown]");
	out_fmt(" (%s)\n", text_name(p, f->dso, strlen(f->dso), 0));
}

/* Append one folded frame name to p->line at *n. */
static void
fold_frame(struct replay *p, size_t *n, const struct frame *f, int java)
{
	const char *name = f->sym;
	char tmp[256];
	size_t i, len, start;

	if (name == NULL) {
		const char *b = strrchr(f->dso, '/');

		snprintf(tmp, sizeof tmp, "[%s]", strcmp(f->dso, "[unknown]") == 0 ?
		    "unknown" : b ? b + 1 : f->dso);
		name = tmp;
	}
	len = strlen(name);
	p->line = xgrow(p->line, &p->linecap, *n + 4 * len + 8, 1);
	if (*n)
		p->line[(*n)++] = ';';
	if (java && name[0] == 'L' && strchr(name, '/')) {
		name++;
		len--;
	}
	start = *n;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (c != '"' && c != '\'')
			*n += escape(p->line + *n, &c, 1, 0);
	}
	folded_frame_fix(p->line + start, *n - start);
	if (f->kernel) {
		memcpy(p->line + *n, "_[k]", 4);
		*n += 4;
	}
}

static void
sample(struct replay *p, const struct rec *e, const struct rec_settled *s,
    const struct report_opts *o)
{
	struct chain ch;
	struct chain_frame cf;
	struct thread *t = thread_get(p, e->tid);
	const char *comm;
	char cbuf[24];
	uint32_t i, nfr;

	chains_get(&p->r->chains, s->chain, &ch);
	nfr = ch.n;
	comm = ch.comm[0] ? ch.comm : t->comm;

	if (s->kind == REC_NOSHOW)
		return;
	t->sampled = 1;
	if (s->kind == REC_ONCPU)
		p->stats.sampled_ns += s->period;
	if (comm[0] == '\0') {
		snprintf(cbuf, sizeof cbuf, ":%u", e->tid);
		comm = cbuf;
	}
	size_t n = strnlen(comm, 16);

	if (!o->folded && !o->join) {
		out_fmt("%s %u/%u %lld.%09lld: %llu %s: \n", text_name(p, comm, n, 1),
		    e->pid, e->tid,
		    (long long)(e->time / 1000000000), (long long)(e->time % 1000000000),
		    (unsigned long long)s->period,
		    s->kind == REC_OFFCPU ? "offcpu-time" : o->event);
		for (i = 0; i < nfr; i++) {
			struct frame f;

			chains_frame(&ch, i, &cf);
			resolve(p, e->pid, &cf, i < ch.nkernel, i == 0, &f);
			if (!f.ours)
				script_frame(p, cf.addr, &f);
		}
		out_char('\n');
		return;
	}
	int java = n >= 4 && memcmp(comm, "java", 4) == 0;

	p->line = xgrow(p->line, &p->linecap, 4 * n + 1, 1);
	n = escape(p->line, comm, n, 1);
	for (size_t k = 0; k < n; k++)
		if (p->line[k] == ' ')
			p->line[k] = '_';

	for (i = nfr; i-- > 0;) {
		struct frame f;

		chains_frame(&ch, i, &cf);
		resolve(p, e->pid, &cf, i < ch.nkernel, i == 0, &f);
		if (!f.ours)
			fold_frame(p, &n, &f, java);
	}
	if (s->kind == REC_OFFCPU) {
		static const char mark[] = ";" OFFCPU_FRAME;

		p->line = xgrow(p->line, &p->linecap, n + sizeof mark, 1);
		memcpy(p->line + n, mark, sizeof mark - 1);
		n += sizeof mark - 1;
	}
	if (o->join) {
		char track[4 + 10 + 1];
		struct spans_sample x = {
			.id = spanjoin_find(o->join, e->tid, e->time), .time = e->time,
			.track = track, .weight = s->period,
			.event = s->kind == REC_OFFCPU ? "offcpu-time" : o->event,
			.stack = p->line, .nstack = n,
		};

		x.ntrack = (size_t)snprintf(track, sizeof track, "tid:%u", e->tid);
		x.nevent = strlen(x.event);
		spans_put_sample(&x);
		return;
	}
	struct count c = { s->period, 0 };

	if (folded_sum_add(&p->stacks, p->line, n, 0, &c) < 0)
		die(EXIT_INPUT, "a stack's total period does not fit in 64 bits");
}

/*
 * Apply a process event to the replay: a mapping, a name, a fork, an
 * exec, a maps snapshot.  0 when the report needs no more of it: a
 * mapping (the settled samples carry what their frames need of it) or
 * a switch (its off-CPU sample is timed by it).
 */
static int
event(struct replay *p, const struct rec *e, const unsigned char *d)
{
	struct proc *pr;

	switch (e->type) {
	case REC_MMAP: {
		const struct rec_mmap *m = (const struct rec_mmap *)(const void *)d;
		uint32_t file = file_id(p, (const char *)(m + 1));

		map_add(proc_get(p, e->pid), m->start, m->start + m->len, m->pgoff, file);
		return 0;
	}
	case REC_COMM:
		snprintf(thread_get(p, e->tid)->comm, 16, "%s", (const char *)d);
		if (e->flags & REC_EXEC) {
			pr = proc_get(p, e->pid);
			pr->n = 0;
			pr->asked = 0;
		}
		break;
	case REC_FORK: {
		uint32_t par[2];
		struct proc *from, *to;

		memcpy(par, d, sizeof par);
		/* A new thread or process starts with its parent's name. */
		if (par[1] != e->tid) {
			char c[16];
			struct thread *t;

			memcpy(c, thread_get(p, par[1])->comm, 16);
			t = thread_get(p, e->tid);
			memcpy(t->comm, c, 16);
			/* Its tid may be an ended thread's. */
			thread_end(p, t);
			t->sampled = t->counted = 0;
			t->forked = 1;
		}
		if (par[0] == e->pid)
			break;
		from = proc_get(p, par[0]);
		struct map *m = from->m;
		size_t n = from->n, asked = from->asked;

		to = proc_get(p, e->pid);
		to->m = xgrow(to->m, &to->cap, n, sizeof *to->m);
		if (n)
			memcpy(to->m, m, n * sizeof *m);
		to->n = n;
		/* As fresh as its parent's: no look at /proc for each fork. */
		to->asked = asked;
		break;
	}
	case REC_MAPS:
		pr = proc_get(p, e->pid);
		maps_text(p, pr, (const char *)d, e->len);
		return 0;
	case REC_LIVE:
		pr = proc_get(p, e->pid);
		map_prune(pr, d, e->len / 16);
		pr->asked = pr->n;
		return 0;
	case REC_SWITCH: {
		struct thread *t = thread_get(p, e->tid);

		if (e->flags & REC_OUT) {
			t->out = (e->flags & REC_PREEMPT) ? 2 : 1;
			t->outt = e->time;
			if (t->offpend && t->out == 2) {
				offcpu_set(p->r, t->offpend - 1, 0, REC_NOSHOW);
				t->offpend = 0;
			}
		} else {
			if (t->out == 2 && e->time > t->outt)
				p->runnable_ns += (uint64_t)(e->time - t->outt);
			if (t->offpend)
				offcpu_set(p->r, t->offpend - 1, e->time - t->offt0, REC_OFFCPU);
			t->offpend = 0;
			t->out = 0;
		}
		return 0;
	}
	case REC_TASKTIME: {
		struct thread *t = thread_get(p, e->tid);
		uint64_t ns;

		memcpy(&ns, d, 8);
		if (t->sampled)
			break;
		p->stats.unsampled += !t->counted;
		t->counted = 1;
		p->stats.unsampled_ns += ns;
		break;
	}
	}
	return 1;
}

static void
replay_init(struct replay *p)
{
	memset(p, 0, sizeof *p);
	intern_init(&p->mangled);
	folded_sum_init(&p->stacks);
}

static void
replay_fini(struct replay *p)
{
	for (size_t i = 0; i < p->nprocs; i++)
		free(p->procs[i].m);
	free(p->procs);
	free(p->threads);
	for (size_t i = 0; i < p->nfiles; i++) {
		if (p->files[i].cfi) {
			cfi_file_close(p->files[i].cfi);
			free(p->files[i].cfi);
		}
		if (p->files[i].path[0] != '/')	/* file_syms' copy; elffile_get's stay */
			elffile_free(p->files[i].elf);
	}
	free(p->files);
	free(p->frames);
	free(p->chain);
	free(p->line);
	free(p->esc);
	for (size_t i = 0; i < p->mangled.nents; i++)
		free(p->shown[i]);
	free(p->shown);
	intern_free(&p->mangled);
	folded_sum_free(&p->stacks);
}

struct replay *
replay_new(void)
{
	struct replay *p = xmalloc(sizeof *p);

	replay_init(p);
	return p;
}

void
replay_free(struct replay *p)
{
	if (p == NULL)
		return;
	replay_fini(p);
	free(p);
}

/*
 * The chain of a sample taken in process pid: its n frames fr, the
 * first s->nkernel the kernel's, each user one put with its mapping now.
 */
static uint32_t
settle_chain(struct replay *p, uint32_t pid, const struct rec_sample *s,
    const uint64_t *fr, uint32_t n)
{
	const struct proc *pr = proc_get(p, pid);
	uint32_t key = 0;
	char comm[16] = "";

	p->chain = xgrow(p->chain, &p->chaincap, n ? n : 1, sizeof *p->chain);
	for (uint32_t i = 0; i < n; i++) {
		struct chain_frame *c = &p->chain[i];
		const struct map *m;

		c->addr = fr[i];
		c->base = 0;
		c->file = 0;
		if (i < s->nkernel)
			continue;
		if ((m = map_find(pr, fr[i])) != NULL) {
			c->file = m->file + 1;
			c->base = m->start - m->pgoff;
		}
		/* Named from the process's perf map, if at all (the
		 * sampler's frames are left out, not named). */
		if (m == NULL || (anon(p->files[m->file].path) &&
		    !ours(p->files[m->file].path)))
			key = pid;
	}
	/* Whatever follows the name's NUL is no part of it. */
	memcpy(comm, s->comm, strnlen(s->comm, sizeof comm));
	return chains_put(&p->r->chains, key, comm, s->nkernel, n, p->chain);
}

void
replay_settle(struct replay *p, struct recs *pend, struct recs *r, int64_t horizon)
{
	size_t i;

	p->r = r;
	recs_sort(pend);
	for (i = 0; i < pend->n && pend->v[i].time < horizon; i++) {
		const struct rec *e = &pend->v[i];
		const unsigned char *d = pend->buf + e->off;

		if (e->type == REC_SAMPLE) {
			const struct rec_sample *s = (const struct rec_sample *)(const void *)d;
			const uint64_t *fr = (const uint64_t *)(const void *)(s + 1);
			uint32_t n = s->ustack ? unwind(p, e->pid, s, &fr) : s->n;
			struct rec_settled st = { s->period, settle_chain(p, e->pid, s, fr, n),
			    s->kind };
			struct rec_block b = { s->addr, s->size };

			recs_settled(r, e->time, e->pid, e->tid, &st,
			    s->kind == REC_ALLOC ? &b : NULL);
			if (s->kind == REC_OFFCPU && s->period == REC_OFFCPU_UNTIMED)
				offcpu_taken(p, r, e);
		} else if (event(p, e, d)) {
			recs_add(r, e->type, e->time, e->pid, e->tid, e->flags, d, e->len);
		}
	}
	r->lost += pend->lost;
	pend->lost = 0;
	recs_drop(pend, i);
}

uint32_t
replay_crowded(struct replay *p)
{
	for (size_t i = 0; i < p->nprocs; i++) {
		struct proc *pr = &p->procs[i];

		if (pr->n >= 64 && pr->n > 2 * pr->asked) {
			pr->asked = pr->n;
			return pr->pid;
		}
	}
	return 0;
}

uint64_t
replay_finish(struct replay *p, struct recs *r, int64_t end)
{
	for (size_t i = 0; i < p->nthreads; i++) {
		struct thread *t = &p->threads[i];

		if (t->offpend && end > t->offt0)
			offcpu_set(r, t->offpend - 1, end - t->offt0, REC_OFFCPU);
		t->offpend = 0;
	}
	return p->runnable_ns;
}

void
report_write(struct recs *r, const struct report_opts *o, struct report_stats *st)
{
	struct replay p;

	replay_init(&p);
	p.r = r;
	recs_sort(r);
	for (size_t i = 0; i < r->n; i++) {
		const struct rec *e = &r->v[i];
		const unsigned char *d = r->buf + e->off;

		if (e->type == REC_SETTLED)
			sample(&p, e, (const struct rec_settled *)(const void *)d, o);
		else
			event(&p, e, d);
	}
	if (o->folded) {
		/* what the counts are, for flamegraph-svg (folded.h) */
		out_str(FOLDED_UNIT_LINE);
		out_str(strstr(o->event, "_space") ? "bytes" :
		    strstr(o->event, "_objects") ? "objects" : "ns");
		out_char('\n');
		folded_sum_write(&p.stacks);
	}
	for (size_t i = 0; i < p.nthreads; i++)
		thread_end(&p, &p.threads[i]);
	*st = p.stats;
	replay_fini(&p);
}
