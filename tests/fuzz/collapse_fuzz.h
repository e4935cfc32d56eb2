/*
 * The body of the fuzz targets of stackcollapse's formats (fuzz_dtrace.c,
 * fuzz_sample.c, ...): each defines FUZZ_FORMAT and includes this.  The
 * bytes go through the program's own path: an input opened on a memory
 * file (so mapped, as a regular file is), format detection on its head,
 * then the format's collapse function into an aggregating sink and into
 * a --no-aggregate one, each with a chain of transforms (xform_fuzz.h), with every format option
 * flipped on the second run.  Detection also runs on the fuzzer's own
 * bytes, a heap block of their exact size, where AddressSanitizer sees a
 * read past the end that the memory file's page would hide.  Output goes to /dev/null; the warnings
 * stay on stderr, where the sanitizers report (libFuzzer's
 * -close_fd_mask=2 mutes both).  A target may define FUZZ_ALSO, a
 * function of the path, to read the same bytes another way too.
 *
 *   make fuzz && build/fuzz/fuzz_dtrace tests/fuzz/corpus/dtrace
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_file.h"
#include "lib/input.h"
#include "lib/out.h"
#include "stackcollapse/formats.h"
#include "xform_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const struct format *f, const char *path, int second)
{
	struct fmt_run run = { .noagg = second };
	struct xform xf;
	struct sink sink;
	struct reader r;
	struct input in;
	const char *p;
	size_t n;

	fmt_option_all(f, second);
	if (input_open(&in, path, "\n") < 0)
		return;
	fuzz_xform(&xf, second);
	run.xf = &xf;
	if (input_head(&in, 1u << 16, &p, &n) == 0) {
		(void)fmt_guess_binary(p, n);
		(void)fmt_guess(p, n);
	}
	sink_init(&sink, &run);
	memset(&r, 0, sizeof r);
	r.in = &in;
	r.name = "fuzz";
	r.sink = &sink;
	sink.rd = &r;
	f->collapse(&r);
	sink_finish(&sink, 1);
	out_flush();
	xform_end(&xf);
	input_close(&in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct format *f = fmt_find(FUZZ_FORMAT);
	char path[64];
	int fd;

	fuzz_quiet();
	(void)fmt_guess((const char *)data, size);
	(void)fmt_guess_binary((const char *)data, size);
	if ((fd = fuzz_file(data, size, path)) < 0)
		return 0;
	run(f, path, 0);
	run(f, path, 1);
#ifdef FUZZ_ALSO
	FUZZ_ALSO(path);
#endif
	close(fd);
	return 0;
}
