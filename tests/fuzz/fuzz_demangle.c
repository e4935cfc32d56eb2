/*
 * Fuzz target for the demangler (src/lib/demangle.c) that trace-record's
 * reports and stackcollapse's Rust frames use: the input is one symbol
 * name, demangled in both forms (the name alone, and with parameters),
 * and tidied as a half demangled Rust name.  A result must be a string no longer than
 * DEMANGLE_MAX; the bounds on recursion and output are what keep a
 * hostile name ("_Z" then a million "P", substitutions that refer to
 * substitutions, Rust backrefs in a loop) from taking the stack or time.
 *
 *   make fuzz && build/fuzz/fuzz_demangle tests/fuzz/corpus/demangle
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/demangle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf;

	for (int flags = 0; flags <= DEMANGLE_PARAMS; flags++) {
		char *r = demangle((const char *)data, size, flags);

		if (r && strlen(r) > DEMANGLE_MAX)
			abort();
		free(r);
	}
	if ((buf = malloc(size + 1)) == NULL)
		return 0;
	if (demangle_rust_tidy((const char *)data, size, buf) > size)
		abort();
	free(buf);
	return 0;
}
