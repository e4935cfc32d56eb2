/*
 * wallfort.c: the other names of wall.c's calls, for --wall with the
 * signal mechanism.
 *
 * Contract.  A program does not always call read, pread, recv, poll or
 * open by those names: built with _FORTIFY_SOURCE (as Debian's and
 * Fedora's packages are), where the compiler knows the buffer's size it
 * calls glibc's checking forms (__read_chk, __recv_chk, __poll_chk...),
 * and open with flags it cannot see __open_2; built with
 * _FILE_OFFSET_BITS=64 it calls pread64 and pwrite64.  glibc runs those
 * on its internal functions, past wall.c's wrappers, so each is wrapped
 * and timed here as wall.c times the call it stands for (wall.h's
 * macros), and so are the vector forms (preadv, pwritev and their 64
 * and 2 variants; lockf64 is beside lockf in wall.c, which waits only
 * for F_LOCK).  Without this, a fortified program's
 * reads on a pipe were in no sample, told on stderr as time blocked
 * past libc's functions.
 */
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "wall.h"

/* glibc's checking forms: declared by its headers only to fortified
 * programs. */
ssize_t	 __read_chk(int fd, void *b, size_t n, size_t size);
ssize_t	 __pread_chk(int fd, void *b, size_t n, off_t o, size_t size);
ssize_t	 __pread64_chk(int fd, void *b, size_t n, off64_t o, size_t size);
ssize_t	 __recv_chk(int fd, void *b, size_t n, size_t size, int fl);
ssize_t	 __recvfrom_chk(int fd, void *b, size_t n, size_t size, int fl,
	    struct sockaddr *a, socklen_t *al);
int	 __poll_chk(struct pollfd *p, nfds_t n, int ms, size_t size);
int	 __ppoll_chk(struct pollfd *p, nfds_t n, const struct timespec *t,
	    const sigset_t *m, size_t size);
int	 __open_2(const char *path, int fl);
int	 __open64_2(const char *path, int fl);
int	 __openat_2(int dir, const char *path, int fl);
int	 __openat64_2(int dir, const char *path, int fl);

WRAP(ssize_t, __read_chk, (int fd, void *b, size_t n, size_t size), (fd, b, n, size),
    ENOSYS_)
WRAP(ssize_t, __pread_chk, (int fd, void *b, size_t n, off_t o, size_t size),
    (fd, b, n, o, size), ENOSYS_)
WRAP(ssize_t, __pread64_chk, (int fd, void *b, size_t n, off64_t o, size_t size),
    (fd, b, n, o, size), ENOSYS_)
WRAP(ssize_t, __recv_chk, (int fd, void *b, size_t n, size_t size, int fl),
    (fd, b, n, size, fl), ENOSYS_)
WRAP(ssize_t, __recvfrom_chk, (int fd, void *b, size_t n, size_t size, int fl,
    struct sockaddr *a, socklen_t *al), (fd, b, n, size, fl, a, al), ENOSYS_)
WRAP(int, __poll_chk, (struct pollfd *p, nfds_t n, int ms, size_t size), (p, n, ms, size),
    ENOSYS_)
WRAP(int, __ppoll_chk, (struct pollfd *p, nfds_t n, const struct timespec *t,
    const sigset_t *m, size_t size), (p, n, t, m, size), ENOSYS_)
WRAP(int, __open_2, (const char *path, int fl), (path, fl), ENOSYS_)
WRAP(int, __open64_2, (const char *path, int fl), (path, fl), ENOSYS_)
WRAP(int, __openat_2, (int dir, const char *path, int fl), (dir, path, fl), ENOSYS_)
WRAP(int, __openat64_2, (int dir, const char *path, int fl), (dir, path, fl), ENOSYS_)

WRAP(ssize_t, pread64, (int fd, void *b, size_t n, off64_t o), (fd, b, n, o), ENOSYS_)
WRAP(ssize_t, pwrite64, (int fd, const void *b, size_t n, off64_t o), (fd, b, n, o),
    ENOSYS_)
WRAP(ssize_t, preadv, (int fd, const struct iovec *v, int n, off_t o), (fd, v, n, o),
    ENOSYS_)
WRAP(ssize_t, pwritev, (int fd, const struct iovec *v, int n, off_t o), (fd, v, n, o),
    ENOSYS_)
WRAP(ssize_t, preadv64, (int fd, const struct iovec *v, int n, off64_t o), (fd, v, n, o),
    ENOSYS_)
WRAP(ssize_t, pwritev64, (int fd, const struct iovec *v, int n, off64_t o), (fd, v, n, o),
    ENOSYS_)
WRAP(ssize_t, preadv2, (int fd, const struct iovec *v, int n, off_t o, int fl),
    (fd, v, n, o, fl), ENOSYS_)
WRAP(ssize_t, pwritev2, (int fd, const struct iovec *v, int n, off_t o, int fl),
    (fd, v, n, o, fl), ENOSYS_)
