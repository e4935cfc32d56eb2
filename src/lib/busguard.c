/*
 * busguard: see busguard.h for the design note.
 */
#include <sys/mman.h>

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "busguard.h"

/*
 * The mappings guarded now, in blocks of SLOTS that are linked once made
 * and never freed, so that the handler can walk them while a slot is
 * being filled: base is set last and cleared first (atomically), so the
 * handler never sees a half-made slot.  A reader of files keeps a few
 * mapped (one a block), trace-record's report some per library.
 */
#define SLOTS 64

struct slot {
	_Atomic(char *) base;
	size_t len;
	atomic_int hit;		/* pages past the file's end became zeros */
};

struct block {
	struct slot s[SLOTS];
	_Atomic(struct block *) next;
};

static struct block first;
static struct sigaction old_bus;
static size_t bus_page;

/*
 * Zeros to map over lost pages: anonymous memory where the system has it
 * (every one we know; POSIX.1-2008 alone does not name it), else
 * /dev/zero, opened when the handler is installed.
 */
#if defined(MAP_ANONYMOUS)
#define MAP_ZEROS MAP_ANONYMOUS
static const int zero_fd = -1;
#elif defined(MAP_ANON)
#define MAP_ZEROS MAP_ANON
static const int zero_fd = -1;
#else
#define MAP_ZEROS 0
#define ZERO_FD_OPENED
static int zero_fd = -1;
#endif

/* Zeros over the lost pages of the guarded mapping holding a, from
 * its page on: 1, or 0 when a is in none. */
static int
zeroed(char *a)
{
	for (struct block *k = &first; k;
	    k = atomic_load_explicit(&k->next, memory_order_acquire))
		for (int i = 0; i < SLOTS; i++) {
			struct slot *s = &k->s[i];
			char *b = atomic_load_explicit(&s->base, memory_order_acquire);
			char *from;

			if (b == NULL || a < b || a >= b + s->len)
				continue;
			from = b + (size_t)(a - b) / bus_page * bus_page;
			if (mmap(from, (size_t)(b + s->len - from), PROT_READ,
			    MAP_PRIVATE | MAP_ZEROS | MAP_FIXED, zero_fd, 0) == MAP_FAILED)
				return 0;
			atomic_store_explicit(&s->hit, 1, memory_order_release);
			return 1;
		}
	return 0;
}

/*
 * A page of a mapping past the end of a file that shrank: the pages from
 * it to the mapping's end become anonymous zeros, and the access that
 * faulted is made again and reads 0.  mmap is not on POSIX's list of
 * async-signal-safe calls, but it is one system call on the systems we
 * build for.  A fault that is not ours goes to the handler there was
 * before, by putting it back and letting it fault again.
 */
static void
on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	if (!zeroed(si->si_addr))
		sigaction(SIGBUS, &old_bus, NULL);
}

static struct slot *
slot(int handle)
{
	struct block *k = &first;

	for (int i = handle / SLOTS; i > 0; i--)
		k = atomic_load_explicit(&k->next, memory_order_relaxed);
	return &k->s[handle % SLOTS];
}

int
busguard_add(const void *p, size_t len)
{
	static int installed;
	struct block *k = &first, *next;
	int n = 0;

	if (!installed) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		bus_page = (size_t)sysconf(_SC_PAGESIZE);
#ifdef ZERO_FD_OPENED
		if (zero_fd < 0 &&
		    (zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
#endif
		if (sigaction(SIGBUS, &sa, &old_bus) < 0)
			return -1;
		installed = 1;
	}
	for (;; n += SLOTS) {
		for (int i = 0; i < SLOTS; i++)
			if (atomic_load_explicit(&k->s[i].base,
			    memory_order_relaxed) == NULL) {
				k->s[i].len = len;
				atomic_store_explicit(&k->s[i].hit, 0,
				    memory_order_relaxed);
				atomic_store_explicit(&k->s[i].base, (char *)p,
				    memory_order_release);
				return n + i;
			}
		next = atomic_load_explicit(&k->next, memory_order_relaxed);
		if (next == NULL) {
			if (n + 2 * SLOTS > INT32_MAX || (next = calloc(1, sizeof *next)) == NULL)
				return -1;
			atomic_store_explicit(&k->next, next, memory_order_release);
		}
		k = next;
	}
}

void
busguard_remove(int handle)
{
	if (handle >= 0)
		atomic_store_explicit(&slot(handle)->base, NULL, memory_order_release);
}

int
busguard_hit(int handle)
{
	return handle >= 0 &&
	    atomic_load_explicit(&slot(handle)->hit, memory_order_acquire);
}
