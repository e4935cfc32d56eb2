# lib.sh: what tests/run.sh (make test) and tests/check.sh (make check)
# share: the counters, check and fail, and the golden cases' loop.  Each
# runner sources it and ends with finish, whose line is "N passed, N
# failed"; exit status 1 when anything failed.
#
# Environment: BIN (programs), BUILD (unit and replay binaries),
# CORPUS (peer corpus, default ../shared/corpus next to the checkout),
# SPEEDSCOPE_DIR (speedscope's npm package, default
# ~/.cache/flametools-npm/node_modules/speedscope), PYROSCOPE_DIR (the
# same for @pyroscope/models).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(cd "$top/${BIN:-bin}" && pwd)
BUILD="$top/${BUILD:-build/rel}"
CORPUS=${CORPUS:-$top/../shared/corpus}
# speedscope's npm package (its schema and app), where .ci/run installs it
SPEEDSCOPE_DIR=${SPEEDSCOPE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/flametools-npm/node_modules/speedscope}
PYROSCOPE_DIR=${PYROSCOPE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/flametools-npm/node_modules/@pyroscope/models}
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

# clock_unit FILE...: the line stackcollapse writes before the stacks
# of perf script text when it is not stackcollapse-perf.pl (--perl):
# "# unit: ns" when the first sample's event is a clock (cpu-clock,
# task-clock, offcpu-time) and its header has the period (folded(5)).
# Read from the input, so the Perl script's output plus this line is
# the expectation.
clock_unit() {
	gzip -dcf "$@" | awk '
	/^[ \t]*$/ || /^#/ || /^\t/ { next }
	$NF ~ /:$/ {
		ev = $NF; sub(/:.*/, "", ev)
		if ((ev == "cpu-clock" || ev == "task-clock" || ev == "offcpu-time") &&
		    $(NF - 1) ~ /^[0-9]+$/)
			print "# unit: ns"
		exit
	}'
}

# crashed NAME STATUS: a crash (128 or more) always fails
crashed() { [ "$2" -ge 128 ] && [ "$2" -ne 141 ]; }

# results LABEL FILE: a runner's "ok NAME", "FAIL NAME: why" and "skip
# NAME: why" lines, then its "done"
results() {
	while read -r verdict name; do
		case $verdict in
		ok) pass ;;
		FAIL) fail "$1: $name" ;;
		skip) printf 'note: %s: %s\n' "$1" "$name" ;;
		esac
	done < "$2"
	grep -q '^done$' "$2" || fail "$1: the run did not finish" "$2"
}

# goldens PREFIX DIRS: every case of tests/cases with DIRS first on PATH,
# failures named with PREFIX; the cases run as many at a time as there
# are processors (tests/golden.sh), then are compared in order.
goldens() {
	rm -rf "$tmp/g" && mkdir "$tmp/g"
	printf '%s\n' "$top"/tests/cases/*/ |
	    xargs -P "$(nproc 2> /dev/null || echo 2)" -I{} sh "$top/tests/golden.sh" {} "$2" "$tmp/g"
	for dir in "$top"/tests/cases/*/; do
		dir=${dir%/}
		name=${dir##*/}
		want_status=0
		[ -f "$dir/status" ] && read -r want_status < "$dir/status"
		read -r st < "$tmp/g/$name.st"
		if crashed "$name" "$st"; then
			fail "$1$name: crashed with status $st" "$tmp/g/$name.err"
			continue
		fi
		if [ "$st" -ne "$want_status" ]; then
			fail "$1$name: exit status $st, want $want_status" "$tmp/g/$name.err"
			continue
		fi
		if [ -f "$dir/out" ]; then
			check "$1$name: stdout" "$dir/out" "$tmp/g/$name.out"
		fi
		# A case without an err file expects silence on stderr (most:
		# no process to compare an empty file).
		if [ ! -f "$dir/err" ] && [ ! -s "$tmp/g/$name.err" ]; then
			pass
			continue
		fi
		experr=/dev/null
		[ -f "$dir/err" ] && experr="$dir/err"
		sed "s|$2/||g; s|$BIN/||g" "$tmp/g/$name.err" > "$tmp/err2"
		check "$1$name: stderr" "$experr" "$tmp/err2"
	done
}

# random_trees N: prop.c's N seeded random trees through spanlayout,
# every output checked (tests/spanlayout/prop.c)
random_trees() {
	if ${CC:-cc} -O2 -o "$tmp/prop" "$top/tests/spanlayout/prop.c" 2> "$tmp/err"; then
		mkdir -p "$tmp/prop.d"
		"$tmp/prop" "$BIN/spanlayout" "$tmp/prop.d" "$1" > "$tmp/prop.out" 2>&1
		grep '^FAIL' "$tmp/prop.out" | head -n 20
		if grep -q '^done$' "$tmp/prop.out" && ! grep -q '^FAIL' "$tmp/prop.out"; then
			pass
		else
			fail "spanlayout: $1 random trees" "$tmp/prop.out"
		fi
	else
		fail "spanlayout: building prop.c" "$tmp/err"
	fi
}

finish() {
	printf '%d passed, %d failed\n' "$passed" "$failed"
	[ "$failed" -eq 0 ]
}
