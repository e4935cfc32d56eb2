/*
 * sampler.c: the in-process stack sampler trace-record preloads
 * (LD_PRELOAD) where perf_event_open is not allowed.
 *
 * Each thread gets a timer on its own CPU-time clock (timer_create with
 * CLOCK_THREAD_CPUTIME_ID and SIGEV_THREAD_ID), so a thread is sampled
 * for the CPU it uses, as perf's cpu-clock does, and the signal lands on
 * the thread that used it.  The handler walks the frame pointers
 * from the interrupted registers, reading only inside the thread's
 * stack, between the interrupted stack pointer and the stack's top, and
 * only upwards: a frame pointer that is garbage (code built without
 * them) ends the walk instead of faulting.  The sample goes into the
 * shared ring of sring.h: no locks, no allocation, and no system call
 * (the pid, tid and thread name are kept from outside the handler; the
 * clock is read from the TSC or the vDSO), so that a thread in seccomp
 * strict mode, allowed only read, write, exit and sigreturn, is sampled
 * too.
 *
 * The signal is the last real-time one (SIGRTMAX), not SIGPROF: SIGPROF
 * is the program's (its own profiler, setitimer), and a program that
 * resets every signal to SIG_DFL, as daemons do, must not be killed by
 * the next tick.  So sigaction and signal are wrapped for that signal:
 * the program's disposition is kept aside, reported back to it, and
 * followed for every such signal that is not one of our ticks (its
 * handler called, the signal ignored, or the process ended by it as
 * SIG_DFL would).  What a program sets with the rt_sigaction system call
 * itself, past libc, is not seen (see BUGS in trace-record(1)).
 *
 * With --call-graph=dwarf the handler walks with DWARF CFI instead
 * (src/elf/cfi.c, linked in): the tables of every file mapped
 * executable are loaded and indexed before sampling starts, and again
 * after each dlopen (a new table published with an atomic store; the
 * old one freed once no handler is walking it), so the handler only
 * searches them; its reads are bounded to the thread's stack as above,
 * and a walk ends where a table or the stack does.
 *
 * Threads are found by wrapping pthread_create; a forked child gets a
 * timer again (timers are not inherited) and tells the reader whose
 * memory map it starts from; an exec'd program loads this library again
 * through the inherited environment.  The memory map (for symbols) is
 * sent at start and after each dlopen that changed it: the handler
 * cannot read it.
 *
 * The program is to see the user's LD_PRELOAD, and what it executes
 * after trace-record is gone must not be told to preload a /proc/PID/fd
 * path that names nothing (ld.so complains in every such program): so
 * once loaded, the sampler takes its own path out of LD_PRELOAD, and
 * the exec and posix_spawn functions put it back in the environment
 * they pass on, if that environment still carries TRACE_RECORD_SAMPLE,
 * while trace-record still reads the ring (built in room_for's buffer).
 * system() and popen() spawn inside libc, past these wrappers: what
 * they run is not followed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#include "../elf/cfi.h"
#include "sampler.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define EXPORT __attribute__((visibility("default")))

enum { CLK_TSC, CLK_TSCP, CLK_MONO };

static struct sr_ring *ring;
static unsigned char *data;
static uint64_t mask;
static int clk = CLK_MONO;
static pthread_key_t timer_key;
static const char *self;		/* our path in LD_PRELOAD, from SR_ENV */

static __thread uintptr_t stack_lo, stack_hi;

/* Counted by the handler, so that wall.c can take a call's CPU time out
 * of its wall time: what the cpu-clock samples already show. */
__thread uint64_t sampler_periods __attribute__((tls_model("initial-exec")));
static __thread uint64_t rng __attribute__((tls_model("initial-exec")));
static __thread timer_t timer;

/*
 * The handler's own stack, per thread (its top; NULL once the thread is
 * ending): a walk takes 8 to 16 KiB, which a program's stack may not have
 * to spare (deep recursion near its limit), and sigaltstack is the
 * program's to set.  So the handler leaves only the kernel's signal
 * frame and its own few words on the interrupted stack, and runs the
 * sample on this one, with a guard page below.
 */
#define TICK_STACK	(64u << 10)
static __thread unsigned char *tick_stack;

/* The exec and posix_spawn wrappers' buffer (room_for). */
static __thread char *env_room;
static __thread size_t env_room_len;

/* The tick's signal, and the program's own disposition of it. */
static int tick_sig;
static struct sigaction prog_sa;
static __typeof__(&sigaction) real_sigaction;
static __typeof__(&pthread_sigmask) real_pthread_sigmask;

/*
 * What a sample names, kept for the handler, which makes no system call:
 * the process and thread ids, and the thread's name, read again in the
 * handler only after a rename through the wrappers below (names_gen
 * moved), and never once the thread has entered seccomp (sealed).
 */
static uint32_t self_pid;
static unsigned names_gen;
static __thread uint32_t self_tid;
static __thread char comm[16];
static __thread unsigned comm_gen;
static __thread int sealed;
static __thread int had_sample;	/* else its CPU time is sent at its end */

/*
 * A thread that can read no clock: seccomp strict mode allows no
 * clock_gettime, and on some kernels disables the TSC (the vDSO's clock
 * reads it too), as prctl(PR_SET_TSC, PR_TSC_SIGSEGV) does; a read is a
 * SIGSEGV.  Its samples carry the time it entered that state, one more
 * unit each, so that they keep their order.
 */
static __thread int noclock;
static __thread uint64_t frozen;

/*
 * --call-graph=dwarf: a file's CFI, its sections copied into memory of
 * ours, and its PT_LOAD headers (file offsets to addresses).  No mapping
 * of the file is kept: a library rewritten in place after dlclose (as cp
 * does: same inode, shorter) would make the handler's reads of it fault
 * with SIGBUS.
 */
struct ufile {
	struct cfi	 cfi;
	unsigned char	*sec[3];	/* the copies: .eh_frame, its header, .debug_frame */
	Elf64_Phdr	*load;
	size_t		 nload;
	int		 ok;
	/* Which file, in which version: a file rewritten in place (cp)
	 * keeps its inode, its size and times change. */
	char		*path;
	struct stat	 st;
	int		 used;		/* by the current table (reclaim) */
};

/* The executable mappings and their CFI, by address. */
struct umap {
	uintptr_t	 start, end, pgoff;
	struct ufile	*f;
};
struct utab {
	struct umap	*v;
	size_t		 n;
	struct utab	*next;		/* in retired */
};
static struct utab *utab;	/* NULL: walk frame pointers */

/*
 * Handlers between taking utab and done with it.  A table replaced, and
 * the files only it used, are freed once none is (no handler can hold
 * them then: one that starts later takes the new table).  A handler
 * cannot be stopped midway by the program's signals (it blocks them
 * all), so one is seen soon; until then they wait in retired.
 */
static unsigned busy;
static struct utab *retired;

#if defined(__x86_64__)
/* What the CFI walk may read: the thread's stack above the interrupted sp. */
struct uwalk {
	const struct utab	*t;
	uintptr_t		 lo, hi;
};

static int
uread(void *ctx, uint64_t addr, uint64_t *v)
{
	const struct uwalk *w = ctx;

	if (addr < w->lo || addr > w->hi - 8)
		return -1;
	memcpy(v, (const void *)(uintptr_t)addr, 8);
	return 0;
}

static const struct cfi *
ufind(void *ctx, uint64_t pc, uint64_t *va)
{
	const struct utab *t = ((const struct uwalk *)ctx)->t;
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].end <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->n || t->v[lo].start > pc || !t->v[lo].f->ok)
		return NULL;
	const struct ufile *f = t->v[lo].f;
	uint64_t off = pc - t->v[lo].start + t->v[lo].pgoff;

	for (size_t i = 0; i < f->nload; i++)
		if (f->load[i].p_offset <= off && off - f->load[i].p_offset < f->load[i].p_filesz) {
			*va = f->load[i].p_vaddr + (off - f->load[i].p_offset);
			return &f->cfi;
		}
	return NULL;
}
#endif

static uint64_t
now(uint32_t *cpu)
{
	*cpu = UINT32_MAX;
	if (noclock)
		return ++frozen;
#ifdef HAVE_TSC
	if (clk == CLK_TSC)
		return __rdtsc();
	if (clk == CLK_TSCP) {
		unsigned aux;
		uint64_t t = __rdtscp(&aux);

		*cpu = aux & 0xfff;
		return t;
	}
#endif
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Room for len bytes at *at, or 0 (the sample is counted as lost). */
static int
reserve(uint64_t len, uint64_t *at)
{
	uint64_t h = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);

	do {
		if (h + len - __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) > ring->size) {
			__atomic_fetch_add(&ring->lost, 1, __ATOMIC_RELAXED);
			return 0;
		}
	} while (!__atomic_compare_exchange_n(&ring->head, &h, h + len, 1,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	*at = h;
	return 1;
}

static void
put(uint64_t at, const void *p, size_t n)
{
	size_t o = (size_t)(at & mask), first = ring->size - o;

	if (first >= n) {
		memcpy(data + o, p, n);
	} else {
		memcpy(data + o, p, first);
		memcpy(data, (const char *)p + first, n - first);
	}
}

/* Write a record: header (its len still 0), body, then publish. */
static void
emit(struct sr_rec *h, const void *body, size_t n)
{
	uint64_t at, len = (sizeof *h + n + 7) & ~(uint64_t)7;
	uint32_t l = (uint32_t)len;

	if (ring == NULL || len > ring->size / 4 || !reserve(len, &at))
		return;
	h->len = 0;
	h->size = l;
	put(at, h, sizeof *h);
	put(at + sizeof *h, body, n);
	__atomic_store_n((uint32_t *)(void *)(data + (at & mask)), l, __ATOMIC_RELEASE);
}

void
sampler_emit(struct sr_rec *h, const void *body, size_t n)
{
	emit(h, body, n);
}

uint64_t
sampler_now(uint32_t *cpu)
{
	return now(cpu);
}

int64_t
sampler_exp(double mean)
{
	if (rng == 0) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		rng = ((uint64_t)gettid() << 32) ^ (uint64_t)ts.tv_nsec ^
		    (uint64_t)(uintptr_t)&rng;
		rng |= 1;
	}
	/* xorshift64*: 53 bits make u, in (0, 1]. */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	double u = (double)(((rng * 0x2545f4914f6cdd1dull) >> 11) + 1) / 9007199254740992.0;
	double d = -log(u) * mean;

	return d < 1 ? 1 : d > 4e18 ? (int64_t)4e18 : (int64_t)d;
}

/*
 * The return addresses of the frame-pointer chain from bp, each frame
 * above the last and below hi, after fr's first n; the new count.
 */
static uint32_t
fp_walk(uintptr_t bp, uintptr_t sp, uintptr_t hi, uint64_t *fr, uint32_t n,
    uint32_t max)
{
	for (uintptr_t lo = sp; n < max && bp >= lo && bp <= hi - 16 && (bp & 7) == 0;) {
		const uintptr_t *f = (const uintptr_t *)bp;
		uintptr_t next = f[0], r = f[1];

		if (r < 4096)
			break;
		fr[n++] = r;
		if (next <= bp)
			break;
		lo = bp + 16;
		bp = next;
	}
	return n;
}

uint32_t
sampler_walk(uintptr_t ret, uintptr_t sp, uintptr_t bp, uintptr_t hi, uint64_t *fr,
    uint32_t max)
{
	uint32_t n = 0;

	if (max == 0)
		return 0;
	if (hi == 0 || sp >= hi) {
		fr[0] = ret;
		return 1;
	}
#if defined(__x86_64__)
	__atomic_add_fetch(&busy, 1, __ATOMIC_SEQ_CST);
	const struct utab *t = __atomic_load_n(&utab, __ATOMIC_SEQ_CST);

	if (t) {
		uint64_t regs[CFI_NREGS] = { 0 };
		struct uwalk w = { t, sp, hi };
		struct cfi_mem m = { uread, ufind, &w };

		regs[CFI_RA] = ret;
		regs[CFI_SP] = sp;
		regs[CFI_BP] = bp;
		n = (uint32_t)cfi_walk(&m, regs, 1u << CFI_RA | 1u << CFI_SP | 1u << CFI_BP,
		    fr, max);
	}
	__atomic_sub_fetch(&busy, 1, __ATOMIC_SEQ_CST);
	if (t)
		return n;
#endif
	fr[n++] = ret;
	return fp_walk(bp, sp, hi, fr, n, max);
}

void
sampler_header(struct sr_rec *h, uint32_t type)
{
	unsigned g = __atomic_load_n(&names_gen, __ATOMIC_RELAXED);

	memset(h, 0, sizeof *h);
	/* A thread not started through our pthread_create wrapper yet. */
	if (self_tid == 0) {
		self_tid = (uint32_t)gettid();
		comm_gen = g + 1;
	}
	if (comm_gen != g && !sealed) {
		prctl(PR_GET_NAME, comm, 0, 0, 0);
		comm_gen = g;
	}
	h->type = type;
	h->pid = self_pid;
	h->tid = self_tid;
	h->time = now(&h->cpu);
	memcpy(h->comm, comm, sizeof h->comm);
}

int
sampler_sealed(void)
{
	return sealed;
}

int
sampler_stack(uintptr_t *lo, uintptr_t *hi)
{
	*lo = stack_lo;
	*hi = stack_hi;
	return stack_hi != 0;
}

/*
 * A tick_sig that is not our timer's: what the program asked for.  For
 * SIG_DFL (which ends the process for a real-time signal) the default is
 * put back and the signal raised again: blocked while this handler runs,
 * it ends the process as soon as the handler returns.
 */
static void
pass_on(int sig, siginfo_t *si, void *uc)
{
	struct sigaction a = prog_sa;

	if (a.sa_handler == SIG_IGN)
		return;
	if (a.sa_handler == SIG_DFL) {
		struct sigaction d;

		memset(&d, 0, sizeof d);
		d.sa_handler = SIG_DFL;
		real_sigaction(sig, &d, NULL);
		raise(sig);
		return;
	}
	if (a.sa_flags & SA_RESETHAND) {
		prog_sa.sa_handler = SIG_DFL;
		prog_sa.sa_flags &= ~SA_SIGINFO;
	}
	/* The mask its handler would have run with, where ours blocks all;
	 * the kernel puts the interrupted one back on return. */
	sigset_t m = ((ucontext_t *)uc)->uc_sigmask;

	sigorset(&m, &m, &a.sa_mask);
	if (!(a.sa_flags & SA_NODEFER))
		sigaddset(&m, sig);
	real_pthread_sigmask(SIG_SETMASK, &m, NULL);
	if (a.sa_flags & SA_SIGINFO)
		a.sa_sigaction(sig, si, uc);
	else
		a.sa_handler(sig);
}

struct tick {
	const siginfo_t		*si;
	const ucontext_t	*uc;
};

/* Take one sample: run on tick_stack. */
static __attribute__((noinline)) void
sample(void *p)
{
	const siginfo_t *si = ((const struct tick *)p)->si;
	const ucontext_t *uc = ((const struct tick *)p)->uc;
	uint64_t fr[SR_MAXFRAMES];
	uint32_t n = 0;
	struct sr_rec h = { .type = SR_SAMPLE };

#if defined(__x86_64__)
	uintptr_t ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
	uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	__atomic_add_fetch(&busy, 1, __ATOMIC_SEQ_CST);
	const struct utab *t = __atomic_load_n(&utab, __ATOMIC_SEQ_CST);

	if (t && stack_hi && sp >= stack_lo && sp < stack_hi) {
		/* gregs' order (REG_R8 first) to DWARF's numbers. */
		static const int dw[CFI_NREGS] = {
			REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP,
			REG_RSP, REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13,
			REG_R14, REG_R15, REG_RIP,
		};
		uint64_t regs[CFI_NREGS];
		struct uwalk w = { t, sp, stack_hi };
		struct cfi_mem m = { uread, ufind, &w };

		for (int i = 0; i < CFI_NREGS; i++)
			regs[i] = (uint64_t)uc->uc_mcontext.gregs[dw[i]];
		n = (uint32_t)cfi_walk(&m, regs, (1u << CFI_NREGS) - 1, fr, SR_MAXFRAMES);
	} else {
		fr[n++] = ip;
	}
	if (!t && stack_hi && sp >= stack_lo && sp < stack_hi)
		n = fp_walk(fp, sp, stack_hi, fr, n, SR_MAXFRAMES);
	__atomic_sub_fetch(&busy, 1, __ATOMIC_SEQ_CST);
#else
	(void)uc;
#endif
	sampler_periods += si->si_overrun > 0 ? (uint64_t)si->si_overrun + 1 : 1;
	if (n > 0) {
		unsigned g = __atomic_load_n(&names_gen, __ATOMIC_RELAXED);

		if (comm_gen != g && !sealed) {
			prctl(PR_GET_NAME, comm, 0, 0, 0);
			comm_gen = g;
		}
		h.pid = self_pid;
		h.tid = self_tid;
		h.time = now(&h.cpu);
		h.n = n;
		h.periods = si->si_overrun > 0 ? (uint32_t)si->si_overrun + 1 : 1;
		memcpy(h.comm, comm, sizeof h.comm);
		emit(&h, fr, n * sizeof *fr);
		had_sample = 1;
	}
}

#if defined(__x86_64__)
/* fn(arg) with the stack pointer at top (16-byte aligned). */
static void
on_stack(void (*fn)(void *), void *arg, unsigned char *top)
{
	__asm__ volatile(
	    "mov %%rsp, %%rbx\n\t"
	    "mov %[top], %%rsp\n\t"
	    "call *%[fn]\n\t"
	    "mov %%rbx, %%rsp"
	    : "+D"(arg)
	    : [fn] "r"(fn), [top] "r"(top)
	    : "rbx", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory", "cc",
	      "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
	      "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}
#endif

/* Every signal is blocked while this runs (see sampler_init). */
static void
on_tick(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	struct tick t = { si, uc };
	unsigned char *top = tick_stack;

	if (si->si_code != SI_TIMER || si->si_value.sival_ptr != &timer_key)
		pass_on(sig, si, uc);
	else if (top)
#if defined(__x86_64__)
		on_stack(sample, &t, top);
#else
		sample(&t);
#endif
	errno = saved;
}

void
sampler_aside(void (*fn)(void *), void *arg)
{
#if defined(__x86_64__)
	unsigned char *top = tick_stack;
	sigset_t all, was;

	/* A sealed thread may not change its mask: the walk stays here. */
	if (top && utab && !sealed) {
		sigfillset(&all);
		if (real_pthread_sigmask(SIG_BLOCK, &all, &was) == 0) {
			on_stack(fn, arg, top);
			real_pthread_sigmask(SIG_SETMASK, &was, NULL);
			return;
		}
	}
#endif
	fn(arg);
}

/* The executable file mappings, as /proc/self/maps lines, unless they
 * are those last sent. */
static void
send_maps(void)
{
	static char *last_maps;
	static size_t last_len;

	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 16, len = 0, keep = 0;
	char *buf = malloc(cap);
	ssize_t r;

	if (fd < 0 || buf == NULL)
		goto out;
	while ((r = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)r;
		if (len == cap) {
			char *nb = realloc(buf, cap * 2);

			if (nb == NULL)
				goto out;
			buf = nb;
			cap *= 2;
		}
	}
	/* Keep "start-end r-xp off dev inode /path" lines: code in files,
	 * and the vDSO's, which trace-record names from its own. */
	for (size_t i = 0; i < len;) {
		char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) + 1 : len;
		char *sp = memchr(buf + i, ' ', e - i);

		if (sp && sp + 3 < buf + e && sp[3] == 'x' && (memchr(buf + i, '/', e - i) ||
		    (e - i > 8 && memcmp(buf + e - 6 - (nl != NULL), "[vdso]", 6) == 0))) {
			memmove(buf + keep, buf + i, e - i);
			keep += e - i;
		}
		i = e;
	}
	/* A dlopen of a library already loaded, or loaded again where it
	 * was, changes nothing: trace-record keeps every map it is sent. */
	if (last_maps && keep == last_len && memcmp(buf, last_maps, keep) == 0)
		goto out;
	struct sr_rec h = { .type = SR_MAPS, .n = (uint32_t)keep };

	h.pid = self_pid;
	h.tid = (uint32_t)gettid();
	h.time = now(&h.cpu);
	emit(&h, buf, keep);
	free(last_maps);
	last_maps = buf;
	last_len = keep;
	buf = NULL;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
}

/* A section of img by name, copied, or none (p NULL). */
static struct cfi_sec
copy_section(const struct elfimg *img, const char *name, unsigned char **copy)
{
	const Elf64_Shdr *s = elfimg_section_name(img, name);
	const void *p;
	struct cfi_sec r = { NULL, 0, 0 };

	*copy = NULL;
	if (s == NULL || s->sh_type == SHT_NOBITS || s->sh_size == 0 ||
	    (p = elfimg_data(img, s)) == NULL || (*copy = malloc(s->sh_size)) == NULL)
		return r;
	memcpy(*copy, p, s->sh_size);
	r.p = *copy;
	r.len = s->sh_size;
	r.addr = s->sh_addr;
	return r;
}

static void
ufile_free(struct ufile *f)
{
	cfi_free(&f->cfi);
	for (int i = 0; i < 3; i++)
		free(f->sec[i]);
	free(f->load);
	free(f->path);
	free(f);
}

/*
 * The CFI of the file at path, or of the image at p, len (the vDSO):
 * .eh_frame and .debug_frame, or the debug file's .debug_frame when the
 * file has neither, as cfi_file_open finds them; copied, and the files
 * unmapped again.  f->ok is 0 when nothing was found.
 */
static void
ufile_load(struct ufile *f, const char *path, const void *p, size_t len)
{
	struct elfimg img, debug;
	struct cfi_sec eh, hdr, dbg;

	memset(f, 0, sizeof *f);
	memset(&debug, 0, sizeof debug);
	if (path ? elfimg_open(&img, path) != 0 : elfimg_init(&img, p, len) != 0)
		return;
	eh = copy_section(&img, ".eh_frame", &f->sec[0]);
	hdr = copy_section(&img, ".eh_frame_hdr", &f->sec[1]);
	dbg = copy_section(&img, ".debug_frame", &f->sec[2]);
	if (eh.p == NULL && dbg.p == NULL && path && elfimg_open_build_id(&debug, &img) == 0)
		dbg = copy_section(&debug, ".debug_frame", &f->sec[2]);
	if ((f->load = malloc(img.nph * sizeof *f->load + 1)) != NULL)
		for (size_t i = 0; i < img.nph; i++)
			if (img.ph[i].p_type == PT_LOAD)
				f->load[f->nload++] = img.ph[i];
	elfimg_close(&debug);
	elfimg_close(&img);
	if (cfi_init(&f->cfi, eh, hdr, dbg) == 0)
		f->ok = f->load && (f->cfi.table != NULL || f->cfi.nidx > 0);
}

static struct ufile **files;	/* every version of every file loaded */
static size_t nfiles;

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	    a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * The tables for the mapping [a, b) of path, inode ino by
 * /proc/self/maps: those loaded before from the same file in the same
 * version, else loaded now.  Not by path alone: a library replaced at
 * its path (a new inode, or rewritten in place) and loaded again has
 * tables of its own.  Where path names another file than the one mapped
 * (replaced while mapped), the tables last loaded by that path.
 */
static struct ufile *
file_for(const char *path, unsigned long long ino, uintptr_t a, uintptr_t b)
{
	struct stat st;
	struct ufile *f, **nf;
	size_t i;

	memset(&st, 0, sizeof st);
	if (path[0] == '/' && stat(path, &st) != 0)
		return NULL;
	if (path[0] != '/' || (unsigned long long)st.st_ino != ino) {
		for (i = nfiles; i-- > 0;)
			if (strcmp(files[i]->path, path) == 0)
				return files[i];
	} else {
		for (i = 0; i < nfiles; i++)
			if (strcmp(files[i]->path, path) == 0 && same_file(&files[i]->st, &st))
				return files[i];
	}
	if ((nf = realloc(files, (nfiles + 1) * sizeof *nf)) == NULL)
		return NULL;
	files = nf;
	if ((f = malloc(sizeof *f)) == NULL)
		return NULL;
	if (path[0] == '/')
		ufile_load(f, path, NULL, 0);
	else	/* the vDSO, where it is mapped here */
		ufile_load(f, NULL, (const void *)a, (size_t)(b - a));
	f->st = st;
	if ((f->path = strdup(path)) == NULL) {
		ufile_free(f);
		return NULL;
	}
	return files[nfiles++] = f;
}

/*
 * Free the retired tables and the files cur does not use, once no
 * handler is walking: a few tries, else at the next load.
 */
static void
reclaim(const struct utab *cur)
{
	int idle = 0;

	for (int i = 0; i < 100 && !(idle = __atomic_load_n(&busy, __ATOMIC_SEQ_CST) == 0); i++)
		sched_yield();
	if (!idle)
		return;
	while (retired) {
		struct utab *next = retired->next;

		free(retired->v);
		free(retired);
		retired = next;
	}
	for (size_t i = 0; i < nfiles; i++)
		files[i]->used = 0;
	for (size_t i = 0; i < cur->n; i++)
		cur->v[i].f->used = 1;
	size_t k = 0;

	for (size_t i = 0; i < nfiles; i++)
		if (files[i]->used)
			files[k++] = files[i];
		else
			ufile_free(files[i]);
	nfiles = k;
}

/*
 * --call-graph=dwarf: index the CFI of each executable file mapping and
 * publish the table.  Not in the handler: this reads files and
 * allocates.
 */
static void
load_cfi(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	FILE *fp;
	char line[4352], path[4097];
	struct utab *t;
	size_t cap = 0;

	if ((t = calloc(1, sizeof *t)) == NULL)
		return;
	pthread_mutex_lock(&lock);
	if ((fp = fopen("/proc/self/maps", "re")) == NULL) {
		pthread_mutex_unlock(&lock);
		free(t);
		return;
	}
	while (fgets(line, sizeof line, fp)) {
		unsigned long long a, b, off, ino;
		char perm[8];
		struct ufile *f;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %llu %4096[^\n]", &a, &b, perm,
		    &off, &ino, path) != 6 || perm[2] != 'x')
			continue;
		/* This library, a memory file mapped as "/memfd:... (deleted)",
		 * read through its path: the wrappers' frames (malloc, read)
		 * are in samples taken inside them, and the walk goes on past
		 * them only with their CFI. */
		if (self && (uintptr_t)a <= (uintptr_t)&load_cfi && (uintptr_t)&load_cfi <
		    (uintptr_t)b && strlen(self) < sizeof path)
			strcpy(path, self);
		if ((path[0] != '/' && strcmp(path, "[vdso]") != 0) ||
		    (f = file_for(path, ino, (uintptr_t)a, (uintptr_t)b)) == NULL)
			continue;
		if (t->n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct umap *v = realloc(t->v, ncap * sizeof *v);

			if (v == NULL)
				break;
			t->v = v;
			cap = ncap;
		}
		t->v[t->n++] = (struct umap){ (uintptr_t)a, (uintptr_t)b, (uintptr_t)off, f };
	}
	fclose(fp);
	/* /proc/PID/maps is sorted by address: ufind's binary search. */
	struct utab *old = __atomic_exchange_n(&utab, t, __ATOMIC_SEQ_CST);

	if (old) {
		old->next = retired;
		retired = old;
	}
	reclaim(t);
	pthread_mutex_unlock(&lock);
}

/*
 * A thread that blocks tick_sig is not sampled while it does: counted,
 * once a thread, for trace-record to say.  Only where seen: at its
 * start, and when blocked through libc's functions.
 */
static void
note_blocked(const sigset_t *set)
{
	static __thread int said;

	if (ring && !said && sigismember(set, tick_sig) == 1) {
		said = 1;
		__atomic_fetch_add(&ring->blocked, 1, __ATOMIC_RELAXED);
	}
}

static void
timer_gone(void *p)
{
	unsigned char *top = tick_stack;

	(void)p;
	wall_thread_end();
	/* No sample on it from here on: the handler runs on this thread. */
	tick_stack = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	timer_delete(timer);
	if (!had_sample && !sealed) {
		struct sr_rec h = { .type = SR_TASKTIME, .n = 1 };
		struct timespec ts;
		uint64_t ns;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		h.pid = self_pid;
		h.tid = self_tid;
		h.time = now(&h.cpu);
		memcpy(h.comm, comm, sizeof h.comm);
		emit(&h, &ns, sizeof ns);
	}
	munmap(top - TICK_STACK - (size_t)getpagesize(), TICK_STACK + (size_t)getpagesize());
	if (env_room)
		munmap(env_room, env_room_len);
}

/* Start sampling the calling thread. */
static void
thread_start(void)
{
	pthread_attr_t a;
	void *addr;
	size_t size;
	struct sigevent sev;
	struct itimerspec it;

	if (ring == NULL)
		return;
	sigset_t now_blocked;

	if (real_pthread_sigmask(SIG_BLOCK, NULL, &now_blocked) == 0)
		note_blocked(&now_blocked);
	self_tid = (uint32_t)gettid();
	comm_gen = __atomic_load_n(&names_gen, __ATOMIC_RELAXED);
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	if (pthread_getattr_np(pthread_self(), &a) == 0) {
		if (pthread_attr_getstack(&a, &addr, &size) == 0) {
			stack_lo = (uintptr_t)addr;
			stack_hi = (uintptr_t)addr + size;
		}
		pthread_attr_destroy(&a);
	}
	if (ring->period == 0)		/* --alloc: no timer */
		return;
	if (tick_stack == NULL) {	/* (a forked child keeps its parent's) */
		size_t page = (size_t)getpagesize();
		unsigned char *m = mmap(NULL, TICK_STACK + page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

		if (m == MAP_FAILED)
			return;
		mprotect(m, page, PROT_NONE);
		tick_stack = m + page + TICK_STACK;
	}
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = tick_sig;
	sev.sigev_value.sival_ptr = &timer_key;		/* ours, not the program's */
	sev.sigev_notify_thread_id = (pid_t)self_tid;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &timer) != 0)
		return;
	it.it_interval.tv_sec = (time_t)(ring->period / 1000000000u);
	it.it_interval.tv_nsec = (long)(ring->period % 1000000000u);
	it.it_value = it.it_interval;
	timer_settime(timer, 0, &it, NULL);
	/* timer_gone, which says when it ends, runs only once this is set. */
	if (pthread_setspecific(timer_key, (void *)1) == 0)
		wall_thread_start(self_tid, comm, stack_hi);
}

static void
after_fork(void)
{
	struct sr_rec h = { .type = SR_FORK };

	self_pid = (uint32_t)getpid();
	h.pid = self_pid;
	/* The one thread here is not in the handler; another was, maybe. */
	busy = 0;
	__atomic_fetch_add(&ring->started, 1, __ATOMIC_RELAXED);
	h.tid = (uint32_t)getppid();
	h.time = now(&h.cpu);
	emit(&h, "", 0);
	wall_after_fork();
	thread_start();
}

struct start {
	void	*(*fn)(void *);
	void	*arg;
};

static void *
trampoline(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	thread_start();
	return s.fn(s.arg);
}

EXPORT int
pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	struct start *s;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	if (real == NULL)
		return EAGAIN;
	if (ring == NULL || (s = malloc(sizeof *s)) == NULL)
		return real(t, a, fn, arg);
	s->fn = fn;
	s->arg = arg;
	int r = real(t, a, trampoline, s);

	if (r != 0)
		free(s);
	return r;
}

EXPORT void *
dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "dlopen");
	if (real == NULL)
		return NULL;
	void *h = real(file, mode);

	if (h && ring) {
		send_maps();
		if (ring->unwind)
			load_cfi();
	}
	return h;
}

#define PRELOAD		"LD_PRELOAD="
#define PRELOAD_LEN	(sizeof PRELOAD - 1)

/*
 * For an environment about to be passed on: 0 when it goes unchanged
 * (trace-record is done, or the environment is not ours), else the
 * sizes with_us needs: *n entries, *len bytes for LD_PRELOAD.
 */
static int
preload_room(char *const *envp, size_t *n, size_t *len)
{
	const char *old = NULL;
	int ours = 0;

	if (ring == NULL || self == NULL || envp == NULL ||
	    __atomic_load_n(&ring->closed, __ATOMIC_ACQUIRE) || access(self, R_OK) != 0)
		return 0;
	for (*n = 0; envp[*n]; ++*n)
		if (strncmp(envp[*n], SR_ENV "=", sizeof SR_ENV) == 0)
			ours = 1;
		else if (old == NULL && strncmp(envp[*n], PRELOAD, PRELOAD_LEN) == 0)
			old = envp[*n] + PRELOAD_LEN;	/* the first, as getenv */
	*n += 2;
	*len = PRELOAD_LEN + strlen(self) + (old ? strlen(old) + 1 : 0) + 1;
	return ours;
}

/*
 * envp with our path first in its first LD_PRELOAD (a later one, which
 * getenv would not see either, is left out), in v and buf, of
 * preload_room's sizes nv and len: within them even if another thread
 * changed the environment meanwhile.
 */
static char *const *
with_us(char *const *envp, char **v, size_t nv, char *buf, size_t len)
{
	size_t k = 0, n = PRELOAD_LEN + strlen(self);
	int put = 0;

	memcpy(buf, PRELOAD, PRELOAD_LEN);
	memcpy(buf + PRELOAD_LEN, self, n - PRELOAD_LEN + 1);
	for (size_t i = 0; envp[i] && k < nv - 2; i++)
		if (strncmp(envp[i], PRELOAD, PRELOAD_LEN) == 0) {
			if (!put && len >= n + 2) {
				const char *old = envp[i] + PRELOAD_LEN;
				size_t m = strnlen(old, len - n - 2);

				buf[n] = ':';
				memcpy(buf + n + 1, old, m);
				buf[n + 1 + m] = '\0';
				v[k++] = buf;
				put = 1;
			}
		} else {
			v[k++] = envp[i];
		}
	if (!put)
		v[k++] = buf;
	v[k] = NULL;
	return v;
}

/*
 * The real functions, looked up by sampler_init: the first exec may come
 * in a vfork child, where dlsym (the loader's lock, maybe malloc) must
 * not run.  Looked up here only if called before sampler_init.
 */
static __typeof__(&execve) real_execve;
static __typeof__(&execvpe) real_execvpe;
static __typeof__(&fexecve) real_fexecve;
static __typeof__(&posix_spawn) real_posix_spawn;
static __typeof__(&posix_spawnp) real_posix_spawnp;

/* The real function, or -1 with ENOSYS. */
#define REAL(name) \
	if (real_##name == NULL) \
		*(void **)&real_##name = dlsym(RTLD_NEXT, #name); \
	__typeof__(&name) real = real_##name; \
	if (real == NULL) \
		return errno = ENOSYS, -1

/*
 * Room for an environment passed on, per thread, grown as needed and
 * kept: not on the stack, which may be small (a thread's of 64 KiB,
 * where the environment may hold 20,000 variables); not from malloc,
 * as an exec may come in a vfork child; and not a mapping per call,
 * which an exec in a vfork child would leave in its parent's memory,
 * which it shares.  (That child runs on its parent's thread, stopped
 * meanwhile: the same buffer, which nothing else uses then.)
 */
static char *
room_for(size_t n)
{
	if (n > env_room_len) {
		size_t len = (n + 65535) & ~(size_t)65535;
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);

		if (m == MAP_FAILED)
			return NULL;
		if (env_room)
			munmap(env_room, env_room_len);
		env_room = m;
		env_room_len = len;
	}
	return env_room;
}

/* Call real with the environment e fixed, args before and after it;
 * unchanged (what it runs is not sampled) when there is no room. */
#define WITH_ENV(e, call) do { \
	size_t n_, len_; \
	char **v_; \
	if (preload_room(e, &n_, &len_) && \
	    (v_ = (char **)(void *)room_for(n_ * sizeof *v_ + len_)) != NULL) { \
		char *const *env_ = with_us(e, v_, n_, (char *)(v_ + n_), len_); \
		return call; \
	} else { \
		char *const *env_ = e; \
		return call; \
	} \
} while (0)

EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve);
	WITH_ENV(envp, real(path, argv, env_));
}

EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(execvpe);
	WITH_ENV(envp, real(file, argv, env_));
}

EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	REAL(fexecve);
	WITH_ENV(envp, real(fd, argv, env_));
}

EXPORT int
execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

EXPORT int
execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* execl, execle, execlp: the arguments as an array, on the stack. */
#define LIST_ARGS(first, ap, argv) \
	size_t argc_ = 1; \
	va_start(ap, first); \
	while (va_arg(ap, char *) != NULL) \
		argc_++; \
	va_end(ap); \
	char *argv[argc_ + 1]; \
	va_start(ap, first); \
	argv[0] = (char *)first; \
	for (size_t i_ = 1; i_ <= argc_; i_++) \
		argv[i_] = va_arg(ap, char *)

EXPORT int
execl(const char *path, const char *arg, ...)
{
	va_list ap;

	LIST_ARGS(arg, ap, argv);
	va_end(ap);
	return execve(path, argv, environ);
}

EXPORT int
execlp(const char *file, const char *arg, ...)
{
	va_list ap;

	LIST_ARGS(arg, ap, argv);
	va_end(ap);
	return execvpe(file, argv, environ);
}

EXPORT int
execle(const char *path, const char *arg, ...)
{
	va_list ap;

	LIST_ARGS(arg, ap, argv);
	char *const *envp = va_arg(ap, char *const *);

	va_end(ap);
	return execve(path, argv, envp);
}

EXPORT int
posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
    const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(posix_spawn);
	WITH_ENV(envp, real(pid, path, fa, attr, argv, env_));
}

EXPORT int
posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
    const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(posix_spawnp);
	WITH_ENV(envp, real(pid, file, fa, attr, argv, env_));
}

/*
 * tick_sig is ours while we sample: the program's settings of it are
 * kept aside and followed by pass_on, and reported back as it made them.
 */
EXPORT int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	int r;

	REAL(sigaction);
	if (wall_sigaction(sig, act, old, &r))
		return r;
	if (ring == NULL || sig != tick_sig)
		return real(sig, act, old);
	struct sigaction was = prog_sa;

	if (act)
		prog_sa = *act;
	if (old)
		*old = was;
	return 0;
}

EXPORT int
pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	if (real_pthread_sigmask == NULL)
		*(void **)&real_pthread_sigmask = dlsym(RTLD_NEXT, "pthread_sigmask");
	if (real_pthread_sigmask == NULL)
		return ENOSYS;
	int r = real_pthread_sigmask(how, set, old);

	if (r == 0 && set && how != SIG_UNBLOCK)
		note_blocked(set);
	return r;
}

EXPORT int
sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	static int (*real)(int, const sigset_t *, sigset_t *);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "sigprocmask");
	if (real == NULL)
		return errno = ENOSYS, -1;
	int r = real(how, set, old);

	if (r == 0 && set && how != SIG_UNBLOCK)
		note_blocked(set);
	return r;
}

/* glibc's signal calls its sigaction inside libc, past the wrapper; and
 * wall.c keeps the ending signals' under --wall. */
EXPORT void
(*signal(int sig, void (*fn)(int)))(int)
{
	static void (*(*real)(int, void (*)(int)))(int);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "signal");
	/* BSD semantics, as glibc's signal. */
	struct sigaction a, was;
	int r;

	memset(&a, 0, sizeof a);
	a.sa_handler = fn;
	a.sa_flags = SA_RESTART;
	if (wall_sigaction(sig, &a, &was, &r))
		return r == 0 ? was.sa_handler : SIG_ERR;
	if (ring == NULL || sig != tick_sig) {
		if (real == NULL)
			return errno = ENOSYS, SIG_ERR;
		return real(sig, fn);
	}
	void (*prev)(int) = prog_sa.sa_handler;

	prog_sa = a;
	return prev;
}

/*
 * What a prctl or seccomp call op (with its first argument arg) is about
 * to do to the calling thread: enter seccomp (*seal), lose its clock
 * (returns 1: strict mode, or PR_TSC_SIGSEGV) or get the TSC back (0).
 */
static int
clock_change(long op, unsigned long arg, int *seal)
{
	*seal = 0;
	if (op == PR_SET_SECCOMP) {
		*seal = 1;
		return arg == SECCOMP_MODE_STRICT ? 1 : -1;
	}
	if (op == PR_SET_TSC)
		return arg == PR_TSC_SIGSEGV ? 1 : arg == PR_TSC_ENABLE ? 0 : -1;
	return -1;
}

/* Before the call: the name read while it can be, the clock frozen. */
static void
before(int seal, int change, long (*getname)(char *))
{
	uint32_t cpu;

	if (seal && ring && !sealed) {
		getname(comm);
		sealed = 1;
	}
	if (change == 1 && !noclock) {
		frozen = now(&cpu);
		noclock = 1;
	} else if (change == 0) {
		noclock = 0;
	}
}

static int (*real_prctl)(int, ...);
static long (*real_syscall)(long, ...);

static long
prctl_name(char *c)
{
	return real_prctl(PR_GET_NAME, c, 0, 0, 0);
}

static long
syscall_name(char *c)
{
	return real_syscall(SYS_prctl, PR_GET_NAME, c, 0, 0, 0);
}

/*
 * A rename: the handlers read the thread's name again (once).  Entering
 * seccomp: the thread's handler makes no system call from then on, so
 * its name is read now.  Strict mode, or the TSC taken away: no clock.
 */
EXPORT int
prctl(int op, ...)
{
	va_list ap;
	unsigned long a[4];
	int seal, change, was = noclock;

	if (real_prctl == NULL)
		*(void **)&real_prctl = dlsym(RTLD_NEXT, "prctl");
	if (real_prctl == NULL)
		return errno = ENOSYS, -1;
	/* prctl takes at most four more arguments, unused ones ignored. */
	va_start(ap, op);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	change = clock_change(op, a[0], &seal);
	before(seal, change, prctl_name);
	int r = real_prctl(op, a[0], a[1], a[2], a[3]);

	if (r != 0)
		noclock = was;
	if (op == PR_SET_NAME && r == 0)
		__atomic_fetch_add(&names_gen, 1, __ATOMIC_RELAXED);
	return r;
}

/* A futex operation that waits (--wall times it, wall.c). */
static int
futex_waits(long nr, long op)
{
#ifdef SYS_futex_waitv
	if (nr == SYS_futex_waitv)
		return 1;
#endif
	if (nr != SYS_futex)
		return 0;
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_REQUEUE_PI:
#ifdef FUTEX_LOCK_PI2
	case FUTEX_LOCK_PI2:
#endif
		return 1;
	}
	return 0;
}

/*
 * The same, for prctl and seccomp called through syscall(2); and a futex
 * wait timed, for --wall.  Six arguments are passed on, the most a
 * system call takes, as libc's syscall does.
 */
EXPORT long
syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	int seal = 0, change = -1, was = noclock;

	if (real_syscall == NULL)
		*(void **)&real_syscall = dlsym(RTLD_NEXT, "syscall");
	if (real_syscall == NULL)
		return errno = ENOSYS, -1;
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_prctl)
		change = clock_change(a[0], (unsigned long)a[1], &seal);
#ifdef SYS_seccomp
	else if (nr == SYS_seccomp && (a[0] == SECCOMP_SET_MODE_STRICT ||
	    a[0] == SECCOMP_SET_MODE_FILTER)) {
		seal = 1;
		change = a[0] == SECCOMP_SET_MODE_STRICT ? 1 : -1;
	}
#endif
	before(seal, change, syscall_name);
	struct wcall c;
	int timed = futex_waits(nr, a[1]) &&
	    wall_enter(&c, (void *)real_syscall, __builtin_frame_address(0));
	long r = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);

	if (timed)
		wall_leave(&c);

	if (r != 0 && (seal || change >= 0))
		noclock = was;
	if (nr == SYS_prctl && a[0] == PR_SET_NAME && r == 0)
		__atomic_fetch_add(&names_gen, 1, __ATOMIC_RELAXED);
	return r;
}

EXPORT int
pthread_setname_np(pthread_t t, const char *name)
{
	static int (*real)(pthread_t, const char *);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_setname_np");
	if (real == NULL)
		return ENOSYS;
	int r = real(t, name);

	if (r == 0)
		__atomic_fetch_add(&names_gen, 1, __ATOMIC_RELAXED);
	return r;
}

/*
 * Take our path out of LD_PRELOAD: "SELF" was an unset variable,
 * "SELF:VALUE" the user's VALUE (empty too).
 */
static void
unpreload(const char *path)
{
	const char *v = getenv("LD_PRELOAD");
	size_t n = strlen(path);

	if (v == NULL || strncmp(v, path, n) != 0)
		return;
	if (v[n] == '\0')
		unsetenv("LD_PRELOAD");
	else if (v[n] == ':')
		setenv("LD_PRELOAD", v + n + 1, 1);
}

__attribute__((constructor)) static void
sampler_init(void)
{
	const char *env = getenv(SR_ENV);
	struct sigaction sa;
	char ringpath[64];
	int fd;

	*(void **)&real_sigaction = dlsym(RTLD_NEXT, "sigaction");
	*(void **)&real_pthread_sigmask = dlsym(RTLD_NEXT, "pthread_sigmask");
	*(void **)&real_execve = dlsym(RTLD_NEXT, "execve");
	*(void **)&real_execvpe = dlsym(RTLD_NEXT, "execvpe");
	*(void **)&real_fexecve = dlsym(RTLD_NEXT, "fexecve");
	*(void **)&real_posix_spawn = dlsym(RTLD_NEXT, "posix_spawn");
	*(void **)&real_posix_spawnp = dlsym(RTLD_NEXT, "posix_spawnp");
	if (env == NULL)
		return;
	/* The path, before unpreload changes the environment env is in. */
	const char *sp = strrchr(env, ' ');

	if (sp && sp[1] == '/' && (self = strdup(sp + 1)) != NULL)
		unpreload(self);
	/*
	 * The ring by its path in trace-record's /proc/PID/fd, not by an
	 * inherited descriptor: a program may close or dup2 over any it did
	 * not open (Python's subprocess closes them all before exec), and
	 * what it executes then is to be sampled all the same.
	 */
	size_t plen = strcspn(env, " ");
	const char *mode = env + plen;

	if (plen >= sizeof ringpath)
		return;
	memcpy(ringpath, env, plen);
	ringpath[plen] = '\0';
	while (*mode == ' ')
		mode++;
	if (strncmp(mode, "tscp", 4) == 0)
		clk = CLK_TSCP;
	else if (strncmp(mode, "tsc", 3) == 0)
		clk = CLK_TSC;
	if ((fd = open(ringpath, O_RDWR | O_CLOEXEC)) < 0)
		return;
	struct sr_ring *r = mmap(NULL, SR_HEAD, PROT_READ, MAP_SHARED, fd, 0);
	uint64_t size = 0;

	if (r != MAP_FAILED) {
		size = r->magic == SR_MAGIC ? r->size : 0;
		munmap(r, SR_HEAD);
	}
	r = MAP_FAILED;
	if (size != 0 && (size & (size - 1)) == 0)
		r = mmap(NULL, SR_HEAD + size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (r == MAP_FAILED || (r->period == 0 && r->alloc_interval == 0))
		return;
	data = (unsigned char *)r + SR_HEAD;
	mask = size - 1;
	if (pthread_key_create(&timer_key, timer_gone) != 0)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_tick;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	/* None of the program's signals lands on tick_stack. */
	sigfillset(&sa.sa_mask);
	tick_sig = SIGRTMAX;
	self_pid = (uint32_t)getpid();
	if (real_sigaction == NULL || real_pthread_sigmask == NULL ||
	    real_sigaction(tick_sig, NULL, &prog_sa) != 0 ||
	    real_sigaction(tick_sig, &sa, NULL) != 0)
		return;
	ring = r;
	__atomic_fetch_add(&ring->started, 1, __ATOMIC_RELAXED);
	send_maps();
	if (r->unwind)
		load_cfi();
	pthread_atfork(NULL, NULL, after_fork);
	wall_init(r);
	thread_start();
	alloc_init(r);
}
