#!/bin/sh
# The one test runner: unit tests, golden cases, peer conformance suites,
# fuzz-corpus replay and man page EXAMPLES.  Prints a diff for each failure
# and ends with "N passed, N failed".  Exit status 1 when anything failed.
#
# Environment: BIN (programs), BUILD (unit and replay binaries),
# CORPUS (peer corpus, default ../shared/corpus next to the checkout).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(cd "$top/${BIN:-bin}" && pwd)
BUILD="$top/${BUILD:-build/rel}"
CORPUS=${CORPUS:-$top/../shared/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0 failed=0

pass() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	printf 'FAIL %s\n' "$1"
	[ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -n 40
	return 0
}

# section NAME: a heading, so a failure is easy to place
section() { printf '== %s\n' "$1"; }

# check NAME EXPECTED ACTUAL: byte comparison with a diff on failure
check() {
	if cmp -s "$2" "$3"; then
		pass
	else
		diff -u "$2" "$3" | cut -c1-300 > "$tmp/diff"
		fail "$1" "$tmp/diff"
	fi
}

# status_ok NAME STATUS: a crash (128 or more) always fails
crashed() { [ "$2" -ge 128 ] && [ "$2" -ne 141 ]; }

# unit_results LABEL FILE: a unit runner's "ok NAME" and "FAIL NAME" lines
unit_results() {
	while read -r verdict name; do
		case $verdict in
		ok) pass ;;
		FAIL) fail "$1: $name" ;;
		esac
	done < "$2"
	grep -q '^done$' "$2" || fail "$1: runner did not finish" "$2"
}

section "unit tests (src/lib)"
if "$BUILD/unit" > "$tmp/unit" 2>&1; then :; fi
unit_results unit "$tmp/unit"

# src/musl, when flamegraph-svg is linked with musl (make MUSL=1)
section "unit tests (src/musl)"
if [ -n "${MUSL_UNIT:-}" ]; then
	if "$top/$MUSL_UNIT" > "$tmp/munit" 2>&1; then :; fi
	unit_results "musl unit" "$tmp/munit"
else
	echo "SKIP src/musl: flamegraph-svg is linked with glibc here (MUSL=0: no musl-gcc, from musl-tools, or SANITIZE=1, PORTABLE=1, STATIC=0)"
fi

# A case that hangs (h-pal-concurrent's FIFO, if its reader died) fails
# after five minutes instead of holding the whole run; timeout(1) where
# there is one.
limit=
command -v timeout > /dev/null 2>&1 && limit="timeout 300"

# goldens PREFIX DIRS: every case of tests/cases with DIRS first on PATH,
# failures named with PREFIX.
goldens() {
	for dir in "$top"/tests/cases/*/; do
		name=$(basename "$dir")
		want_status=0
		[ -f "$dir/status" ] && want_status=$(cat "$dir/status")
		( cd "$dir" && PATH="$2:$PATH" $limit sh ./cmd > "$tmp/out" 2> "$tmp/err" )
		st=$?
		if crashed "$name" "$st"; then
			fail "$1$name: crashed with status $st" "$tmp/err"
			continue
		fi
		if [ "$st" -ne "$want_status" ]; then
			fail "$1$name: exit status $st, want $want_status" "$tmp/err"
			continue
		fi
		if [ -f "$dir/out" ]; then
			check "$1$name: stdout" "$dir/out" "$tmp/out"
		fi
		# A case without an err file expects silence on stderr.
		experr=/dev/null
		[ -f "$dir/err" ] && experr="$dir/err"
		sed "s|$2/||g; s|$BIN/||g" "$tmp/err" > "$tmp/err2"
		check "$1$name: stderr" "$experr" "$tmp/err2"
	done
}

section "golden cases (tests/cases)"
goldens "" "$BIN"

# The filters claim C11 and POSIX.1-2008 alone (make PORTABLE=1): built so,
# with clang where it is installed, they must pass the unit tests and every
# golden case (trace-record, Linux-only, stays bin/'s).  Once, not again
# under the sanitizers.
if [ -z "${SANITIZE:-}" ]; then
	section "portability: the filters built with -std=c11 -D_POSIX_C_SOURCE=200809L"
	pcc=$(command -v clang || echo "${CC:-cc}")
	if make -C "$top" -s PORTABLE=1 CC="$pcc" STRICT=1 CFLAGS=-O1 \
	    filters build/port/unit > "$tmp/port.log" 2>&1; then
		pass
		"$top/build/port/unit" 2>/dev/null | sed -n 's/^FAIL /FAIL portable unit: /p' > "$tmp/pu"
		if [ -s "$tmp/pu" ]; then fail "portable unit tests" "$tmp/pu"; else pass; fi
		goldens "portable: " "$top/build/port/bin:$BIN"
	else
		fail "portable build with $pcc" "$tmp/port.log"
	fi
fi

# Linux on another processor (no TSC, no __int128 guarantees of x86):
# everything, trace-record and its libraries too, must build for aarch64
# when a cross compiler is installed (.ci/run installs one).
if [ -z "${SANITIZE:-}" ]; then
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
fi

# captures LABEL DIR [OPTION]: every DIR/NAME.perf.txt.gz against
# DIR/NAME.collapsed-OPT.txt.gz, made by stackcollapse-perf.pl.
captures() {
	for in in "$2"/*.perf.txt.gz; do
		b=$(basename "$in" .perf.txt.gz)
		for o in default pid tid kernel jit all addrs; do
			exp="$2/$b.collapsed-$o.txt.gz"
			[ -f "$exp" ] || continue
			opt=--$o
			[ $o = default ] && opt=
			gzip -dc "$exp" > "$tmp/exp"
			"$BIN/stackcollapse" ${3:-} $opt "$in" > "$tmp/out" 2>/dev/null
			check "$1 $b ${3:-} $opt" "$tmp/exp" "$tmp/out"
		done
	done
}

section "own captures (tests/data), default mode and --perl"
captures "own" "$top/tests/data"
captures "own" "$top/tests/data" --perl

section "peer conformance (../shared/corpus)"
if [ ! -d "$CORPUS" ]; then
	printf 'SKIP peer conformance: %s not found (the suites need shared/corpus)\n' "$CORPUS"
else
	# FlameGraph's own regression suite: 13 captures x 6 option sets.
	# Its results were recorded by stackcollapse-perf.pl, hence --perl.
	for in in "$CORPUS"/flamegraph/test/perf-*.txt; do
		b=$(basename "$in" .txt)
		for o in pid tid kernel jit all addrs; do
			exp="$CORPUS/flamegraph/test/results/$b-collapsed-$o.txt"
			[ -f "$exp" ] || continue
			"$BIN/stackcollapse" --perl --$o "$in" > "$tmp/out" 2>/dev/null
			check "flamegraph $b --$o" "$exp" "$tmp/out"
		done
	done
	# Real captures with stackcollapse-perf.pl's output: 9 x 7.
	captures "capture" "$CORPUS/captures" --perl
	# inferno's cases, with exactly the options its MANIFEST names.
	grep -v '^#' "$CORPUS/inferno/MANIFEST.tsv" |
	awk -F'\t' '$1 == "perf" { print ($2 == "" ? "-" : $2) "\t" $3 "\t" $4 }' \
	    > "$tmp/manifest"
	while IFS='	' read -r opt inputs exp; do
		[ "$opt" = - ] && opt=
		set --
		for i in $inputs; do set -- "$@" "$CORPUS/$i"; done
		"$BIN/stackcollapse" $opt "$@" > "$tmp/out" 2>/dev/null
		check "inferno $exp" "$CORPUS/$exp" "$tmp/out"
	done < "$tmp/manifest"
	# Folded input (--recursive) and --diff.  Diff output has no defined
	# order in the peers (hash order), so it is compared sorted; an
	# expected file without a last newline gets one (folded(5) lines end
	# in one).
	grep -v '^#' "$CORPUS/inferno/MANIFEST.tsv" |
	awk -F'\t' '$1 == "folded" || $1 == "diff" { print $1 "\t" $2 "\t" $3 "\t" $4 }' \
	    > "$tmp/manifest"
	while IFS='	' read -r fmt opt inputs exp; do
		set --
		for i in $inputs; do set -- "$@" "$CORPUS/$i"; done
		{ cat "$CORPUS/$exp"; [ -n "$(tail -c 1 "$CORPUS/$exp")" ] && echo; } > "$tmp/exp"
		if [ "$fmt" = diff ]; then
			"$BIN/stackcollapse" $opt "$@" 2>/dev/null | sort > "$tmp/out"
			sort "$tmp/exp" > "$tmp/exp.sorted"
			mv "$tmp/exp.sorted" "$tmp/exp"
		else
			"$BIN/stackcollapse" --format=folded $opt "$@" > "$tmp/out" 2>/dev/null
		fi
		check "inferno $exp" "$tmp/exp" "$tmp/out"
	done < "$tmp/manifest"
	# Every other format, named and recognized.  inferno compares lines
	# with their ends trimmed; some of its result files have CRLF.
	grep -v '^#' "$CORPUS/inferno/MANIFEST.tsv" |
	awk -F'\t' '$1 !~ /^(perf|folded|diff|flamegraph)$/ { print $1 "\t" ($2 == "" ? "-" : $2) "\t" $3 "\t" $4 }' \
	    > "$tmp/manifest"
	while IFS='	' read -r fmt opt inputs exp; do
		[ "$opt" = - ] && opt=
		{ tr -d '\r' < "$CORPUS/$exp"; [ -n "$(tail -c 1 "$CORPUS/$exp")" ] && echo; } > "$tmp/exp"
		for how in --format=$fmt auto; do
			[ $how = auto ] && how=
			( cd "$CORPUS" && "$BIN/stackcollapse" $how $opt $inputs ) > "$tmp/out" 2>/dev/null
			check "inferno $exp ${how:-recognized}" "$tmp/exp" "$tmp/out"
		done
	done < "$tmp/manifest"
	# inferno's broken inputs: status and message.
	grep -v '^#' "$top/tests/stackcollapse/corpus-bad.tsv" > "$tmp/bad"
	while IFS='	' read -r fmt input want msg; do
		( cd "$CORPUS" && "$BIN/stackcollapse" --format=$fmt "$input" ) > /dev/null 2> "$tmp/err"
		st=$?
		printf '%s\n' "$msg" > "$tmp/experr"
		if [ $st -ne "$want" ]; then
			fail "inferno $input: status $st, want $want" "$tmp/err"
		else
			check "inferno $input: message" "$tmp/experr" "$tmp/err"
		fi
	done < "$tmp/bad"
fi

section "stackcollapse formats: real captures (tests/data/formats)"
# Each capture against the FlameGraph script's output for its format
# (stackcollapse-gdb.pl, -jstack.pl, -bpftrace.pl, -go.pl; the Node.js
# profile against an independent fold of its JSON), recognized and named,
# with nothing on stderr (a real capture has no line to skip); and
# --no-aggregate, merged again, gives the same stacks.
for in in "$top"/tests/data/formats/*; do
	case $in in *.folded) continue ;; esac
	b=${in%.*}
	case $(basename "$in") in
	node-*) fmt=chrome ;;
	*) fmt=$(basename "$in" | sed 's/-.*//') ;;
	esac
	for how in "--format=$fmt" ""; do
		"$BIN/stackcollapse" $how "$in" > "$tmp/out" 2> "$tmp/err"
		check "$(basename "$in") ${how:-recognized}" "$b.folded" "$tmp/out"
		check "$(basename "$in") ${how:-recognized}: stderr" /dev/null "$tmp/err"
	done
	"$BIN/stackcollapse" --no-aggregate "$in" 2>/dev/null |
	    "$BIN/stackcollapse" --format=folded > "$tmp/out" 2>/dev/null
	check "$(basename "$in") --no-aggregate, merged" "$b.folded" "$tmp/out"
done

section "pprof: stackcollapse beside go tool pprof"
# The Go profiles of tests/data/pprof-go listed again by `go tool pprof
# -traces` (tests/pprof-expect.sh), every sample type, and folded by
# stackcollapse: the same stacks and values.  The golden case
# p20-pprof-go checks the recorded lists without go.  Then the other way:
# what --to=pprof writes, listed by pprof, is the input's folded stacks.
if command -v go > /dev/null 2>&1; then
	pg=$top/tests/data/pprof-go
	mkdir "$tmp/pprof"
	if sh "$top/tests/pprof-expect.sh" "$pg" "$tmp/pprof" 2> "$tmp/err"; then
		for e in "$tmp"/pprof/*.folded; do
			b=$(basename "$e" .folded)
			"$BIN/stackcollapse" --sample-type="${b#*-}" "$pg/${b%%-*}.pb.gz" \
			    > "$tmp/out" 2>&1
			check "pprof: $b against go tool pprof -traces" "$e" "$tmp/out"
		done
	else
		fail "pprof: go tool pprof -traces" "$tmp/err"
	fi
	# stackcollapse --to=pprof read by pprof: the input's stacks and
	# counts (inputs without C++ templates, whose names pprof shortens
	# for display: std::vector<int>::push_back shows as
	# std::vector::push_back).
	for in in "$top/tests/data/demo-python-dwarf.perf.txt.gz" \
	    "$pg/cpu-cpu.folded"; do
		"$BIN/stackcollapse" "$in" > "$tmp/want" 2>&1
		"$BIN/stackcollapse" --to=pprof "$in" > "$tmp/p.pb.gz" 2>&1
		HOME=$tmp go tool pprof -traces "$tmp/p.pb.gz" 2> "$tmp/err" |
		    awk -f "$top/tests/pprof-traces.awk" | LC_ALL=C sort > "$tmp/out"
		check "pprof: go tool pprof -traces on --to=pprof of $(basename "$in")" \
		    "$tmp/want" "$tmp/out"
	done
else
	echo "SKIP pprof against go tool pprof: go not installed (apt-get install golang-go)"
fi

section "flamegraph-svg against flamegraph.pl (frames)"
# tests/flamegraph/expected holds the frames of flamegraph.pl's SVGs for the
# cases in tests/flamegraph/cases.tsv (tests/record-flamegraph.sh made them).
if [ ! -d "$CORPUS" ]; then
	printf 'SKIP flamegraph-svg conformance: %s not found\n' "$CORPUS"
else
	grep -v '^#' "$top/tests/flamegraph/cases.tsv" > "$tmp/fgcases"
	while IFS='	' read -r name opts inputs; do
		[ "$opts" = - ] && opts=
		set --
		for i in $inputs; do set -- "$@" "$CORPUS/$i"; done
		"$BIN/flamegraph-svg" $opts "$@" 2>/dev/null |
		    sh "$top/tests/flamegraph/frames.sh" > "$tmp/out"
		check "flamegraph-svg $name" "$top/tests/flamegraph/expected/$name.frames" "$tmp/out"
	done < "$tmp/fgcases"
fi

section "speedscope: stackcollapse --to=speedscope against speedscope's schema"
# speedscope's npm package ships the schema of its file format and the
# built app (.ci/run installs it outside the checkout; SPEEDSCOPE_DIR
# names the package's folder).  tests/speedscope/check.js validates our
# files against the schema and decodes their samples back to the folded
# stacks of the same input: real captures of every driver and format,
# and hostile names.
SPEEDSCOPE_DIR=${SPEEDSCOPE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/flametools-npm/node_modules/speedscope}
schema=$SPEEDSCOPE_DIR/dist/release/file-format-schema.json
if [ ! -f "$schema" ] || ! command -v node > /dev/null 2>&1; then
	printf 'SKIP speedscope schema: needs node and %s (npm install speedscope)\n' "$schema"
else
	mkdir -p "$tmp/ss"
	set --
	for in in "$top"/tests/inputs/*.perf.txt "$top"/tests/inputs/folded/*.folded \
	    "$top"/tests/data/*.perf.txt.gz "$top"/tests/data/formats/*; do
		case $in in *formats/*.folded) continue ;; esac
		b=$tmp/ss/$(basename "$in")
		# an input stackcollapse refuses (host2's format cannot be told) has neither
		"$BIN/stackcollapse" "$in" > "$b.folded" 2>/dev/null || continue
		"$BIN/stackcollapse" --to=speedscope "$in" > "$b.json" 2>/dev/null
		set -- "$@" "$(basename "$in")" "$b.json" "$b.folded"
	done
	printf 'a;"q\\\\";</script><script>alert(1) 1\nn\000ul;e\033[1m\177;t\tab;]]> 2\n' > "$tmp/ss/hostile"
	"$BIN/stackcollapse" --to=speedscope --unit=nanoseconds "$tmp/ss/hostile" > "$tmp/ss/hostile.json"
	"$BIN/stackcollapse" "$tmp/ss/hostile" > "$tmp/ss/hostile.folded"
	set -- "$@" hostile "$tmp/ss/hostile.json" "$tmp/ss/hostile.folded"
	node "$top/tests/speedscope/check.js" "$schema" "$@" > "$tmp/ss.out" 2>&1
	while read -r verdict name; do
		case $verdict in
		ok) pass ;;
		FAIL) fail "$name" ;;
		esac
	done < "$tmp/ss.out"
	grep -q '^done$' "$tmp/ss.out" || fail "speedscope: check.js did not finish" "$tmp/ss.out"
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
		while read -r verdict name; do
			case $verdict in
			ok) pass ;;
			FAIL) fail "browser: $name" ;;
			esac
		done < "$tmp/browser.out"
		grep -q '^done$' "$tmp/browser.out" ||
		    fail "browser: $suite did not finish" "$tmp/browser.out"
	}
	browser_suite flamegraph.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite views.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite deep.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite diff.test.js "$BIN" "$tmp/browser" "$CHROMIUM"
	browser_suite timeline.test.js "$BIN" "$tmp/browser" \
	    "$top/tests/inputs/timeline" "$CHROMIUM"
	if [ -f "$SPEEDSCOPE_DIR/dist/release/index.html" ]; then
		browser_suite speedscope.test.js "$BIN" "$tmp/browser" \
		    "$SPEEDSCOPE_DIR" "$top/tests/inputs/timeline" "$CHROMIUM"
	else
		printf 'SKIP speedscope app: needs %s (npm install speedscope)\n' "$SPEEDSCOPE_DIR"
	fi
fi

section "trace-record and libtracerecord"
mkdir -p "$tmp/trace"
sh "$top/tests/trace/run.sh" "$BIN" "$BUILD" "$tmp/trace" > "$tmp/trace.out" 2>&1
while read -r verdict name; do
	case $verdict in
	ok) pass ;;
	FAIL) fail "trace: $name" ;;
	esac
done < "$tmp/trace.out"
grep -q '^done$' "$tmp/trace.out" || fail "trace: the run did not finish" "$tmp/trace.out"

section "trace-record --sample"
mkdir -p "$tmp/sample"
sh "$top/tests/sample/run.sh" "$BIN" "$tmp/sample" > "$tmp/sample.out" 2>&1
while read -r verdict name; do
	case $verdict in
	ok) pass ;;
	FAIL) fail "sample: $name" ;;
	skip) printf 'note: sample: %s\n' "$name" ;;
	esac
done < "$tmp/sample.out"
grep -q '^done$' "$tmp/sample.out" || fail "sample: the run did not finish" "$tmp/sample.out"

section "spanlayout: random trees and real traces"
# prop.c lays out 1000 seeded random trees and checks every output (no
# overlap on a row, children below parents, each span once, the same
# bytes twice, the article's rows wherever its layout has no overlap);
# the uftrace captures must give their recorded layouts and pass the
# invariants in every band mode.
if ${CC:-cc} -O2 -o "$tmp/prop" "$top/tests/spanlayout/prop.c" 2> "$tmp/err"; then
	mkdir -p "$tmp/prop.d"
	"$tmp/prop" "$BIN/spanlayout" "$tmp/prop.d" 1000 > "$tmp/prop.out" 2>&1
	grep '^FAIL' "$tmp/prop.out" | head -n 20 | while read -r line; do
		printf '%s\n' "$line"
	done
	if grep -q '^done$' "$tmp/prop.out" && ! grep -q '^FAIL' "$tmp/prop.out"; then
		pass
	else
		fail "spanlayout: random trees" "$tmp/prop.out"
	fi
else
	fail "spanlayout: building prop.c" "$tmp/err"
fi
for in in "$top"/tests/data/uftrace-*.json.gz; do
	b=$(basename "$in" .json.gz)
	gzip -dc "$top/tests/data/$b.lay.gz" > "$tmp/exp"
	"$BIN/spanlayout" "$in" > "$tmp/out" 2>/dev/null
	check "spanlayout $b" "$tmp/exp" "$tmp/out"
	for o in --by-track --together; do
		if "$BIN/spanlayout" $o "$in" 2>/dev/null |
		    awk -F '\t' -v tmp="$tmp/sort" -f "$top/tests/spanlayout/check.awk" \
		    > "$tmp/ck" 2>&1; then
			pass
		else
			fail "spanlayout $b $o: invariants" "$tmp/ck"
		fi
	done
done

# article.js (the TiDB article's code as published, which make bench
# times) must be the article.c port's algorithm: the same bytes, rows
# included, on gen.c's traces of three seeds, where hundreds of rows
# are not the nesting depth.
if ! command -v node > /dev/null 2>&1; then
	printf 'SKIP article.js against article.c: node not installed (apt-get install nodejs)\n'
elif ${CC:-cc} -O2 -o "$tmp/gen" "$top/tests/spanlayout/gen.c" 2> "$tmp/err" &&
    ${CC:-cc} -O2 -o "$tmp/article" "$top/tests/spanlayout/article.c" 2>> "$tmp/err"; then
	for seed in 1 2 3; do
		"$tmp/gen" 3000 $seed > "$tmp/t.spans"
		"$tmp/article" "$tmp/t.spans" > "$tmp/c.rows" 2> "$tmp/err"
		node "$top/tests/spanlayout/article.js" "$tmp/t.spans" > "$tmp/js.rows" 2>> "$tmp/err"
		check "article.js against article.c, seed $seed" "$tmp/c.rows" "$tmp/js.rows"
	done
else
	fail "spanlayout: building gen.c and article.c" "$tmp/err"
fi

section "fuzz corpus replay"
for r in "$BUILD"/replay_fuzz_*; do
	[ -x "$r" ] || continue
	t=$(basename "$r" | sed 's/^replay_fuzz_//')
	if "$r" "$top/tests/fuzz/corpus/$t"/* > "$tmp/err" 2>&1; then
		pass
	else
		fail "fuzz replay $t" "$tmp/err"
	fi
done

section "demangler against its references (tests/data/demangle.tsv.gz)"
# Real symbols with what libiberty's cplus_demangle makes of them (the
# name as perf prints it, and whole), recorded by tests/record-demangle.sh:
# every name ours gives must be libiberty's; a name may stay mangled, at
# most 1%.
gzip -dc "$top/tests/data/demangle.tsv.gz" > "$tmp/dm.tsv"
# shellcheck disable=SC2086
if ${CC:-cc} -std=c11 -I"$top/src" ${CFLAGS:-} -o "$tmp/dmcheck" "$top/tests/demangle/check.c" \
    "$BUILD/libft.a" ${LDFLAGS:-} 2> "$tmp/err"; then
	if "$tmp/dmcheck" "$tmp/dm.tsv" 10 > "$tmp/dm.out" 2>&1; then
		pass
		printf 'note: demangler: %s\n' "$(tail -n 1 "$tmp/dm.out")"
	else
		fail "demangler: $(tail -n 1 "$tmp/dm.out")" "$tmp/dm.out"
	fi
else
	fail "demangler: building tests/demangle/check.c" "$tmp/err"
fi

section "man page EXAMPLES"
# The lines of a page's EXAMPLES that start with "$ " run in order in one
# fresh directory, with "perf script" standing for "cat" of the bundled
# demo capture, "perf record" lines skipped and mdoc's \e read as a
# backslash.  Each must exit 0 and write
# something: to standard output, or to the file it redirects to.
gzip -dc "$top/tests/data/demo-python-dwarf.perf.txt.gz" > "$tmp/demo.perf.txt"
for page in "$top"/man/man*/*.[135]; do
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" | sed -n 's/^\$ //p' |
	    sed 's/\\e/\\/g' |
	    grep -v '^perf record' > "$tmp/examples"
	rm -rf "$tmp/ex" && mkdir "$tmp/ex"
	n=0
	while read -r cmd; do
		n=$((n + 1))
		cmd=$(printf '%s' "$cmd" | sed "s|perf script|cat $tmp/demo.perf.txt|g")
		( cd "$tmp/ex" && PATH="$BIN:$PATH" sh -c "$cmd" > "$tmp/ex.out" 2> "$tmp/ex.err" )
		st=$?
		target=$(printf '%s' "$cmd" | sed -n 's/.*> *\([^ ]*\)$/\1/p')
		if [ $st -ne 0 ]; then
			fail "$(basename "$page") example $n: status $st: $cmd" "$tmp/ex.err"
		elif [ -n "$target" ] && [ ! -s "$tmp/ex/$target" ]; then
			fail "$(basename "$page") example $n wrote an empty $target: $cmd"
		elif [ -z "$target" ] && [ ! -s "$tmp/ex.out" ]; then
			fail "$(basename "$page") example $n wrote nothing: $cmd"
		else
			pass
		fi
	done < "$tmp/examples"
done
if command -v mandoc > /dev/null 2>&1; then
	for page in "$top"/man/man*/*.[135]; do
		if mandoc -T lint -W warning "$page" > "$tmp/lint" 2>&1; then
			pass
		else
			fail "mandoc lint $(basename "$page")" "$tmp/lint"
		fi
	done
else
	printf 'SKIP mandoc lint: mandoc not installed\n'
fi

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
