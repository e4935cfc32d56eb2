#!/bin/sh
# How tests/data/demangle-cxa.tsv.gz was made: real symbols, each line
# "MANGLED<TAB>WHOLE", what libstdc++'s abi::__cxa_demangle makes of it
# (the form with parameters; MANGLED again when it declines).  The second
# reference beside libiberty's (tests/record-demangle.sh): the same
# demangler as GCC's, but every C++ symbol of a whole Debian system
# rather than a few libraries.
# The symbols: the defined dynamic "_Z" symbols of every shared library
# under /usr/lib (nm -D), less their versions, once each; of those
# (126,605 on Debian 12 with the build tools, LLVM 14 and 15, clang,
# ICU, fmt, protobuf, grpc, boost...) every 8th, and every one whose
# name has what is rare and hard to print: a local name or lambda, an
# unnamed type, a default argument's scope, an array of arrays, a
# declarator inside another (a pointer to an array of pointers, a
# function returning a pointer to a function), an empty pack, or that
# __cxa_demangle declines.  Chosen by the reference's text, not by what
# ours prints, so that a name stays in after it is fixed.  Then every
# line of tests/demangle/extra-cxa.txt (hand-made names: each fix's
# regression).  Not part of `make test`: run it by hand (it takes
# minutes) and review the diff.
#
#   sh tests/record-demangle-cxa.sh     (needs c++, nm, libstdc++)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

cat > "$w/ref.cc" <<'CC'
#include <cxxabi.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
int main() {
	static char line[1 << 20];
	while (fgets(line, sizeof line, stdin)) {
		size_t n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		int st;
		char *d = abi::__cxa_demangle(line, 0, 0, &st);
		printf("%s\t%s\n", line, d ? d : line);
		free(d);
	}
	return 0;
}
CC
c++ -O1 -o "$w/ref" "$w/ref.cc"

find /usr/lib -type f -name '*.so*' | sort | while read -r f; do
	nm -D --defined-only "$f" 2> /dev/null | awk '$NF ~ /^_Z/ { print $NF }' || true
done | sed 's/@.*//' | LC_ALL=C sort -u > "$w/all"
rare='\{default arg|\{unnamed type|\{lambda|\)::|\]\[|[*&] ?[\[(]|, ,|<,|\(,'
"$w/ref" < "$w/all" | awk -F '\t' -v re="$rare" 'NR % 8 == 0 || $1 == $2 || $2 ~ re' > "$w/sel"
"$w/ref" < "$top/tests/demangle/extra-cxa.txt" >> "$w/sel"
LC_ALL=C sort -u "$w/sel" | gzip -9n > "$top/tests/data/demangle-cxa.tsv.gz"
printf '%s symbols, %s lines\n' "$(wc -l < "$w/all")" "$(gzip -dc "$top/tests/data/demangle-cxa.tsv.gz" | wc -l)"
