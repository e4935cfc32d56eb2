#!/bin/sh
# How tests/data/demangle.tsv.gz was made: real symbols, each line
# "MANGLED<TAB>NAME<TAB>WHOLE", what libiberty's cplus_demangle (binutils
# and GCC's demangler; apt-get install libiberty-dev) makes of it:
#   NAME   without DMGL_PARAMS, as perf calls it and shows names
#          ("ns::Box<double>::spin"; checked beside perf script on a C++
#          program), Rust without hash or crate disambiguators;
#   WHOLE  with DMGL_PARAMS | DMGL_ANSI: return type, parameters,
#          qualifiers, clone suffixes, as __cxa_demangle writes them too.
# A name libiberty rejects is expected as it is: it must stay mangled.
# c++filt is the same library with DMGL_VERBOSE on, which writes
# std::string in full and keeps Rust's hashes; not what perf shows.
# The symbols: every exported C++ symbol of libstdc++, every 16th of
# libLLVM-15 and of boost's, every 16th v0 symbol of rustc's driver
# library, every legacy symbol of a small Rust program built with rustc,
# and tests/demangle/extra.txt (hand-picked features and hostile names).
# Sources that are not installed are skipped.  Not part of `make test`:
# run it by hand and review the diff.
#
#   sh tests/record-demangle.sh     (needs cc, nm, libiberty-dev; rustc optional)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
lib=/usr/lib/x86_64-linux-gnu

cat > "$w/ref.c" <<'CC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
int main(void) {
	static char line[1 << 20];
	while (fgets(line, sizeof line, stdin)) {
		size_t n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		char *a = cplus_demangle(line, DMGL_NO_OPTS);
		char *b = cplus_demangle(line, DMGL_PARAMS | DMGL_ANSI);
		printf("%s\t%s\t%s\n", line, a ? a : line, b ? b : line);
		free(a);
		free(b);
	}
	return 0;
}
CC
cc -O1 -o "$w/ref" "$w/ref.c" -liberty

# dyn FILE EVERY: defined dynamic symbols, one in EVERY
dyn() { [ -f "$1" ] && nm -D --defined-only "$1" | awk '{ print $3 }' | sed 's/@.*//' |
    sort -u | awk -v k="$2" 'NR % k == 0' || true; }
rust_legacy() { grep -E '^_ZN.*17h[0-9a-f]{16}E' "$@" || true; }
{
	dyn "$lib/libstdc++.so.6" 1 | grep '^_Z'
	dyn "$lib/libLLVM-15.so.1" 16 | grep '^_Z'
	for b in "$lib"/libboost_*.so.*.*.*; do dyn "$b" 16 | grep '^_Z'; done
	grep -v -e '^_R' "$top/tests/demangle/extra.txt" | rust_legacy -v
} | sort -u | grep -vE '^_ZN.*17h[0-9a-f]{16}E' > "$w/cxx"

{
	drv=$(ls "$HOME"/.rustup/toolchains/stable-*/lib/librustc_driver-*.so 2> /dev/null | head -n 1)
	[ -n "$drv" ] && dyn "$drv" 16 | grep '^_R'
	if command -v rustc > /dev/null 2>&1; then
		printf '%s\n' 'use std::collections::HashMap;' \
		    'fn main() { let mut m: HashMap<String, Vec<u32>> = HashMap::new();' \
		    'm.entry("a".into()).or_default().push(1); let c = |x: i32| x + 1;' \
		    'println!("{:?} {}", m, c(2)); }' > "$w/r.rs"
		rustc -C opt-level=0 -C symbol-mangling-version=legacy -o "$w/r" "$w/r.rs" 2> /dev/null ||
		    rustc -C opt-level=0 -o "$w/r" "$w/r.rs"
		nm "$w/r" | awk '{ print $NF }' | rust_legacy
	fi
	grep -e '^_R' "$top/tests/demangle/extra.txt"
	rust_legacy "$top/tests/demangle/extra.txt"
} | sort -u > "$w/rust"

cat "$w/cxx" "$w/rust" | "$w/ref" | gzip -9n > "$top/tests/data/demangle.tsv.gz"
printf '%s lines\n' "$(cat "$w/cxx" "$w/rust" | wc -l)"
