#!/bin/sh
# How tests/data/demangle.tsv.gz was made: real symbols, each line
# "MANGLED<TAB>EXPECTED", EXPECTED being what perf prints:
#   - C++: libstdc++'s abi::__cxa_demangle, which perf calls (the helper
#     below is compiled with g++); a name it rejects is expected as it is
#     (it must stay mangled).  c++filt differs only where its default
#     -DMGL_VERBOSE writes std::string and friends in full.
#   - Rust (legacy "_ZN...17h<hash>E" and v0 "_R..."): c++filt (libiberty,
#     binutils), with what its verbose mode adds taken off as perf and
#     rustc-demangle's short form leave it off: the legacy hash
#     ("::h0123456789abcdef"), v0's crate disambiguators ("[1a2b...]") and
#     the type after a constant ("8: usize").
# The symbols: every exported C++ symbol of libstdc++, every 16th of
# libLLVM-15 and of boost's, every 16th v0 symbol of rustc's driver
# library, every legacy symbol of a small Rust program built with rustc
# (stable mangles legacy), and tests/demangle/extra.txt (hand-picked
# features and hostile names).  Sources that are not installed are
# skipped.  Not part of `make test`: run it by hand and review the diff.
#
#   sh tests/record-demangle.sh     (needs g++, nm, c++filt; rustc optional)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
lib=/usr/lib/x86_64-linux-gnu

cat > "$w/ref.cc" <<'CC'
#include <cxxabi.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
int main() {
	static char line[1 << 20];
	while (fgets(line, sizeof line, stdin)) {
		size_t n = strlen(line);
		int st;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		char *r = abi::__cxa_demangle(line, 0, 0, &st);
		printf("%s\t%s\n", line, r ? r : line);
		free(r);
	}
}
CC
g++ -O1 -o "$w/ref" "$w/ref.cc"

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

"$w/ref" < "$w/cxx" > "$w/cxx.tsv"
c++filt < "$w/rust" | sed -E 's/::h[0-9a-f]{16}$//; s/\[[0-9a-f]+\]//g;
    s/(-?[0-9]+|true|false|_|'"'"'.'"'"'): (u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize|bool|char)/\1/g' |
    paste "$w/rust" - > "$w/rust.tsv"
cat "$w/cxx.tsv" "$w/rust.tsv" | gzip -9n > "$top/tests/data/demangle.tsv.gz"
printf '%s lines\n' "$(cat "$w/cxx.tsv" "$w/rust.tsv" | wc -l)"
