/*
 * Fuzz target for what trace-record reads from a traced program: packets
 * (collect_packet) and the shared buffers they point into, both written
 * by the program and so both untrusted.  The input is a list of records,
 * each a byte saying which, two bytes of length, then the bytes:
 *	even: a packet, given to collect_packet as is;
 *	odd:  three bytes of offset, then bytes copied into the buffers
 *	      there (wrapping), as a program would write events.
 * Then the spans are written to /dev/null, as at the end of a run.
 *
 *   make fuzz && build/fuzz/fuzz_packets tests/fuzz/corpus/packets
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "lib/out.h"
#include "libtracerecord/proto.h"
#include "trace-record/clock.h"
#include "trace-record/collect.h"

#define NBUFS	4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	size_t area = (size_t)NBUFS * TR_BUF_SIZE;
	struct tr_shm *shm;
	struct collect *c;
	struct clockcal cal;
	char *none[] = { NULL };

	if (!init) {
		fuzz_quiet();
		out_init();
		init = 1;
	}
	if ((shm = calloc(1, TR_SHM_HEAD + area)) == NULL)
		return 0;
	shm->magic = TR_MAGIC;
	shm->nbufs = NBUFS;
	c = collect_new(shm, NBUFS, 0);
	while (size >= 3) {
		unsigned op = data[0];
		size_t len = (size_t)data[1] | (size_t)data[2] << 8;

		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		if (op & 1) {
			if (len >= 3) {
				size_t at = ((size_t)data[0] | (size_t)data[1] << 8 |
				    (size_t)data[2] << 16) % area;

				for (size_t i = 3; i < len; i++)
					((unsigned char *)shm)[TR_SHM_HEAD + (at + i - 3) % area] = data[i];
			}
		} else {
			collect_packet(c, data, len);
		}
		data += len;
		size -= len;
	}
	memset(&cal, 0, sizeof cal);
	cal.mode = TR_CLOCK_MONO;
	/* A real run's offset, which the program's made-up times are added to. */
	cal.mono_to_real = INT64_C(1700000000000000000);
	collect_write(c, &cal, none, 0, 0);
	out_flush();
	collect_free(c);
	free(shm);
	return 0;
}
