/*
 * busguard: files mapped for reading that may shrink under the mapping.
 *
 * A file that shrinks while mapped (a log rotated, a capture rewritten,
 * a library replaced) raises SIGBUS in whichever thread touches a lost
 * page, which kills the process and everything it had not written yet.
 * A mapping registered here is guarded: a handler (installed with the
 * first) turns the pages from the faulting one to the mapping's end into
 * zeros, so that thread reads 0 and goes on, and the owner asks
 * busguard_hit afterwards and says so.  A reader of such a mapping must
 * then take zeros as it takes any damaged input.  Rejected: sigsetjmp
 * around the reads (each reading thread would need its own, at every
 * place that reads).  Registration is not thread-safe: one thread
 * registers, any may fault.
 */
#ifndef FT_BUSGUARD_H
#define FT_BUSGUARD_H

#include <stddef.h>

/* Guard p[0..len), a mapping of a file: a handle, or -1 (unguarded). */
int busguard_add(const void *p, size_t len);

/* Stop guarding, before the mapping is unmapped. */
void busguard_remove(int handle);

/* 1 when a page of the mapping could not be read and reads as zeros. */
int busguard_hit(int handle);

#endif
