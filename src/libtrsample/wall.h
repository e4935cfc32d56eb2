/*
 * wall.h: what wall.c's blocking-call wrappers and wallstdio.c's stdio
 * ones share: the macros that look up libc's function and time a call
 * to it (wall_enter and wall_leave, sampler.h).  Internal to
 * libtrsample.so.
 */
#ifndef TR_WALL_H
#define TR_WALL_H

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>

#include "sampler.h"

#define EXPORT	__attribute__((visibility("default")))

/*
 * The wrappers.  WRAP(type, name, params, args, fail): the next name,
 * timed; fail is what to return when there is none.  Each is looked up
 * as the library is loaded, by a constructor of its own: the first call
 * may come from a thread in seccomp strict mode, where dlsym's system
 * calls, if it makes any, would kill it.  A call before that (from
 * another library's constructor) looks it up then; two threads racing
 * to it store the same value.
 */
#define FIND(name) \
	static __typeof__(&name) real_##name; \
	__attribute__((constructor)) static void \
	find_##name(void) \
	{ \
		if (real_##name == NULL) \
			*(void **)&real_##name = dlsym(RTLD_NEXT, #name); \
	}

#define REAL(name, fail) \
	if (real_##name == NULL) \
		find_##name(); \
	__typeof__(&name) real = real_##name; \
	if (real == NULL) \
		return fail

#define TIMED(type, call) \
	struct wcall c_; \
	int on_ = wall_enter(&c_, (void *)real, __builtin_frame_address(0)); \
	type r_ = call; \
	if (on_) \
		wall_leave(&c_); \
	return r_

#define WRAP(type, name, params, args, fail) \
FIND(name) \
EXPORT type \
name params \
{ \
	REAL(name, fail); \
	TIMED(type, real args); \
}

#define ENOSYS_ (errno = ENOSYS, -1)

#endif
