#!/bin/sh
# make check: what make test leaves out because it depends on the machine:
# the filters built for C11 and POSIX alone and with the SSE2 and
# byte-order fast paths compiled out (each passes every golden case), the
# aarch64 cross build, the browser suites (headless Chromium) and the
# statistical sampling checks of trace-record --sample, which bound their
# own tolerances.  Ends with "N passed, N failed" (tests/lib.sh).
. "$(dirname "$0")/lib.sh"

# The filters claim C11 and POSIX.1-2008 alone (make PORTABLE=1): built so,
# with clang where it is installed, they must pass the unit tests and every
# golden case (trace-record, Linux-only, stays bin/'s).
# other_build LABEL DIR MAKE-ARGS...: the filters and the unit tests built
# into build/DIR with MAKE-ARGS, then the unit tests and every golden case.
other_build() {
	label=$1 dir=$2
	shift 2
	if make -C "$top" -s STRICT=1 BUILD="build/$dir" "$@" filters \
	    "build/$dir/unit" > "$tmp/$dir.log" 2>&1; then
		pass
		"$top/build/$dir/unit" > "$tmp/$dir.unit" 2>&1
		results "$label unit" "$tmp/$dir.unit"
		goldens "$label: " "$top/build/$dir/bin:$BIN"
	else
		fail "$label build" "$tmp/$dir.log"
	fi
}
section "portability: the filters built with -std=c11 -D_POSIX_C_SOURCE=200809L"
other_build portable port PORTABLE=1 CC="$(command -v clang || echo "${CC:-cc}")" \
    CFLAGS=-O1

# The fast paths (SSE2 scans, words read little-endian) have plain C
# fallbacks, which other processors run: compiled out here, so that x86
# runs them too.
section "fallbacks: the filters built without the SSE2 and byte-order paths"
other_build fallbacks generic BINDIR_B=build/generic/bin \
    CFLAGS="-O1 -U__SSE2__ -U__BYTE_ORDER__ -Wno-builtin-macro-redefined"

# Linux on another processor (no TSC, no __int128 guarantees of x86):
# everything, trace-record and its libraries too, must build for aarch64
# when a cross compiler is installed (.ci/run installs one).
section "cross build: aarch64"
if command -v aarch64-linux-gnu-gcc > /dev/null 2>&1; then
	if make -C "$top" -s CC=aarch64-linux-gnu-gcc ZLIB=0 STRICT=1 \
	    CFLAGS=-O1 BUILD=build/a64 BINDIR_B=build/a64/bin all \
	    > "$tmp/a64.log" 2>&1; then
		pass
	else
		fail "aarch64 build" "$tmp/a64.log"
	fi
else
	echo "SKIP aarch64 build: no aarch64-linux-gnu-gcc (apt-get install gcc-aarch64-linux-gnu)"
fi

section "browser tests (headless Chromium)"
# tests/browser drives Chromium over the DevTools protocol (no npm
# packages): hover, zoom, search, URL state, hostile names, screenshots;
# for timelines also wheel, drags, selection and the linked views; and
# stackcollapse --to=speedscope's file and spanlayout --to=chrome's trace
# opened in speedscope's own app.
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ] || ! command -v node > /dev/null 2>&1; then
	printf 'SKIP browser tests: needs node and chromium (apt-get install chromium)\n'
else
	mkdir -p "$tmp/browser"
	# Each suite prints "ok NAME" or "FAIL NAME: why" a check, then "done".
	# deep.test.js's graphs, 100,000 frames deep, take minutes to open on
	# a busy machine: ten minutes before a suite is taken to hang.
	browser_suite() {
		suite=$1
		shift
		timeout 600 node "$top/tests/browser/$suite" "$@" > "$tmp/browser.out" 2>&1
		results "browser $suite" "$tmp/browser.out"
	}
	browser_suite flamegraph.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite views.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite xform.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite layout.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite search.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite deep.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite diff.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite timeline.test.js "$BIN" "$tmp/browser" \
	    "$top/tests/inputs/timeline" "$CHROMIUM"
	# A span profile's flame graphs: the hand-made profile, and a real
	# recording of tests/sample/spanprof.c where trace-record samples.
	rec=
	if "$BIN/trace-record" --sample --spans -o /dev/null -- true 2> /dev/null &&
	    ${CC:-cc} -O1 -g -fno-omit-frame-pointer -I"$top/src/libtracerecord" \
	    -o "$tmp/browser/spanprof" "$top/tests/sample/spanprof.c" \
	    "$BUILD/libtracerecord.a" -lpthread 2> /dev/null &&
	    "$BIN/trace-record" --sample -g -F 999 --spans -o "$tmp/browser/sp.spans" -- \
	    "$tmp/browser/spanprof" 300 2> /dev/null &&
	    "$BIN/spanlayout" "$tmp/browser/sp.spans" > "$tmp/browser/sp.layout"; then
		rec=$tmp/browser/sp.layout
	else
		printf 'SKIP spanprof.test.js recording: trace-record --sample --spans does not run here\n'
	fi
	browser_suite spanprof.test.js "$BIN" "$tmp/browser" \
	    "$top/tests/inputs/spanprof.spans" "$CHROMIUM" $rec
	if [ -f "$SPEEDSCOPE_DIR/dist/release/index.html" ]; then
		browser_suite speedscope.test.js "$BIN" "$tmp/browser" \
		    "$SPEEDSCOPE_DIR" "$top/tests/inputs/timeline" "$CHROMIUM"
	else
		printf 'SKIP speedscope app: needs %s (npm install speedscope)\n' "$SPEEDSCOPE_DIR"
	fi
fi

section "trace-record at scale: the clock, thread stress, crash races"
mkdir -p "$tmp/trace"
sh "$top/tests/trace/run.sh" "$BIN" "$BUILD" "$tmp/trace" stress > "$tmp/trace.out" 2>&1
results "trace stress" "$tmp/trace.out"

section "spanlayout: 2000 random trees"
random_trees 2000

section "trace-record --sample"
mkdir -p "$tmp/sample"
sh "$top/tests/sample/run.sh" "$BIN" "$tmp/sample" "$BUILD" > "$tmp/sample.out" 2>&1
results sample "$tmp/sample.out"

finish
