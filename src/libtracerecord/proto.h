/*
 * proto.h: what libtracerecord sends to trace-record.
 *
 * trace-record passes the traced program a SOCK_SEQPACKET socket as file
 * descriptor $TRACE_RECORD_FD.  Every process that links the library and
 * inherits the variable (children, exec'd programs) sends its own stream
 * of packets on it; a packet is one message, so packets of several
 * processes never interleave, and each names its process and thread.
 *
 * A packet is a struct tr_pk header and then `count` records:
 *   TR_PK_HELLO   one struct tr_hello (a process starts recording);
 *   TR_PK_NAMES   names: struct tr_name, then len bytes, padded to 8;
 *   TR_PK_EVENTS  struct tr_ev, one thread's events in the order made;
 *   TR_PK_BYE     none: the process ended recording cleanly.
 * A process sends the names its events use before the events.  Events
 * hold raw clock values (see clock modes); trace-record converts them.
 *
 * An event is a span's begin or end.  The top two bits of id say which;
 * a begin's name is the address of a static string (TR_BEGIN_STR) or of
 * a function (TR_BEGIN_FN, from -finstrument-functions).  Ids are unique
 * within a process: the thread's slot in bits 40-61, then a sequence.
 */
#ifndef TR_PROTO_H
#define TR_PROTO_H

#include <stdint.h>

#define TR_MAGIC	0x31525254u	/* "TRR1" */
#define TR_PACKET_MAX	(64 * 1024)

enum { TR_PK_HELLO = 1, TR_PK_NAMES, TR_PK_EVENTS, TR_PK_BYE };
enum { TR_END = 0, TR_BEGIN_STR = 1, TR_BEGIN_FN = 2 };
enum { TR_CLOCK_TSC = 1, TR_CLOCK_TSCP, TR_CLOCK_MONO };

#define TR_KIND(id)	((unsigned)((id) >> 62))
#define TR_ID(id)	((id) & ((UINT64_C(1) << 62) - 1))

struct tr_pk {
	uint32_t	magic;
	uint32_t	kind;
	uint32_t	pid;
	uint32_t	tid;
	uint64_t	dropped;	/* spans this thread dropped so far */
	uint32_t	count;
	uint32_t	pad;
};

struct tr_hello {
	uint32_t	ppid;
	uint32_t	clock;		/* TR_CLOCK_* the process reads */
	char		exe[256];	/* its program, NUL-terminated */
};

struct tr_name {
	uint64_t	key;		/* the address the events carry */
	uint32_t	len;
	uint32_t	pad;
};

struct tr_ev {
	uint64_t	ts;
	uint64_t	name;		/* begin: name's address; end: 0 */
	uint64_t	id;		/* kind in the top two bits */
	uint64_t	parent;		/* begin: parent id or 0 */
};

#endif
