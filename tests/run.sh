#!/bin/sh
# make test: the deterministic suite: unit tests, golden cases, peer
# conformance suites, fuzz-corpus replay, the demangler's references and
# man page EXAMPLES.  Nothing here depends on the machine's speed or load;
# the statistical sampling checks, the browser suites and the other
# builds are tests/check.sh's (make check).  Prints a diff for each
# failure and ends with "N passed, N failed" (tests/lib.sh).
. "$(dirname "$0")/lib.sh"

section "unit tests (src/lib)"
if "$BUILD/unit" > "$tmp/unit" 2>&1; then :; fi
results unit "$tmp/unit"

section "golden cases (tests/cases)"
goldens "" "$BIN"

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
			if [ -z "${3:-}" ]; then clock_unit "$in"; fi > "$tmp/exp"
			gzip -dc "$exp" >> "$tmp/exp"
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
		{ clock_unit "$@"; cat "$CORPUS/$exp"; } > "$tmp/exp"
		check "inferno $exp" "$tmp/exp" "$tmp/out"
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

section "stackcollapse transforms against a reference (transform-ref.awk)"
# Issue 34's 8 chains on real captures: stackcollapse's transforms against
# tests/stackcollapse/transform-ref.awk, written from the issue's text and
# run on the untransformed stacks, compared sorted, stack for stack.  The
# perf captures go through perf's own driver, the other formats' through
# the sink; then every output is the transformed stacks': --no-aggregate
# merged again, --to=table, --to=pprof, --to=speedscope and --diff equal
# those of the transformed folded file.  Each chain must change something
# on at least one capture, or it tests nothing.
xf_chain() {
	case $1 in
	1) set -- --show-from='main$' --collapse-recursion --invert ;;
	2) set -- --hide='^\[unknown\]$' --focus='alloc|malloc|free' ;;
	3) set -- --focus='^main$' --hide='^_' ;;
	4) set -- --ignore='^\[' --prune-from='^(main|_start)$' ;;
	5) set -- --invert --show-from='fault|Eval|Exec|parse' ;;
	6) set -- --collapse-recursion --hide='^[a-z_]+$' --invert ;;
	7) set -- --prune-from='^_' --ignore='^(Py|Perl|lua)' ;;
	8) set -- --recursive --focus='libc_start|start_thread|swapper' \
	    --show-from='^_' --hide='[0-9]' ;;
	esac
	xf_args=$(printf '%s\n' "$@")
	# the reference's steps: "--hide=RE" is "hide<TAB>RE"
	XF_STEPS=$(printf '%s\n' "$@" | sed 's/^--recursive$/--collapse-recursion/;
	    s/^--//; s/=/	/')
	export XF_STEPS
}
for c in 1 2 3 4 5 6 7 8; do
	xf_chain $c
	changed=0
	for in in "$top"/tests/data/*.perf.txt.gz "$CORPUS"/captures/*.perf.txt.gz \
	    "$top"/tests/data/formats/*; do
		[ -f "$in" ] || continue
		case $in in *.folded) continue ;; esac
		name="chain $c on $(basename "$in")"
		"$BIN/stackcollapse" "$in" > "$tmp/plain" 2>/dev/null
		awk -f "$top/tests/stackcollapse/transform-ref.awk" "$tmp/plain" 2>/dev/null |
		    LC_ALL=C sort > "$tmp/exp"
		printf '%s\n' "$xf_args" | tr '\n' '\0' |
		    xargs -0 "$BIN/stackcollapse" "$in" > "$tmp/xf" 2>/dev/null
		LC_ALL=C sort "$tmp/xf" > "$tmp/out"
		check "$name" "$tmp/exp" "$tmp/out"
		cmp -s "$tmp/plain" "$tmp/xf" || changed=1
	done
	[ $changed = 1 ] && pass || fail "chain $c changed no capture: $xf_args"
done
# Every output, on two captures (perf's driver and the sink): the
# transformed run's output is that of its transformed folded stacks.
xf_chain 1
for in in "$top/tests/data/demo-python-dwarf.perf.txt.gz" \
    "$top/tests/data/formats/gdb-xz.txt"; do
	b=$(basename "$in")
	printf '%s\n' "$xf_args" | tr '\n' '\0' |
	    xargs -0 "$BIN/stackcollapse" "$in" > "$tmp/xf.folded" 2>/dev/null
	for to in table pprof speedscope; do
		# no --unit: the folded text carries the perf event's
		"$BIN/stackcollapse" --format=folded --to=$to "$tmp/xf.folded" > "$tmp/exp" 2>&1
		printf '%s\n' --to=$to "$xf_args" | tr '\n' '\0' |
		    xargs -0 "$BIN/stackcollapse" "$in" > "$tmp/out" 2>&1
		check "chain 1 --to=$to on $b" "$tmp/exp" "$tmp/out"
	done
	printf '%s\n' --no-aggregate "$xf_args" | tr '\n' '\0' |
	    xargs -0 "$BIN/stackcollapse" "$in" 2>/dev/null |
	    "$BIN/stackcollapse" --format=folded > "$tmp/out" 2>&1
	# --no-aggregate writes no unit line (folded(5))
	sed '1{/^# unit: /d;}' "$tmp/xf.folded" > "$tmp/exp"
	check "chain 1 --no-aggregate on $b, merged" "$tmp/exp" "$tmp/out"
done
xf_chain 3
for to in folded table; do
	for f in before after; do
		printf '%s\n' "$xf_args" | tr '\n' '\0' |
		    xargs -0 "$BIN/stackcollapse" --format=folded \
		    "$top/tests/data/diff-$f.folded" > "$tmp/$f" 2>/dev/null
	done
	"$BIN/stackcollapse" --diff --to=$to "$tmp/before" "$tmp/after" > "$tmp/exp" 2>&1
	printf '%s\n' "$xf_args" | tr '\n' '\0' |
	    xargs -0 "$BIN/stackcollapse" --diff --to=$to \
	    "$top/tests/data/diff-before.folded" "$top/tests/data/diff-after.folded" \
	    > "$tmp/out" 2>&1
	check "chain 3 --diff --to=$to" "$tmp/exp" "$tmp/out"
done
unset XF_STEPS

section "pprof: stackcollapse beside go tool pprof"
# The Go profiles of tests/data/pprof-go listed again by `go tool pprof
# -traces` (tests/pprof-expect.sh), every sample type, and folded by
# stackcollapse: the same stacks and values.  The golden case
# sc-pprof-go-traces checks the recorded lists without go.  Then the other way:
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
	# std::vector::push_back).  The perf capture's cpu-clock makes its
	# values nanoseconds, which pprof lists whole with -unit=ns.
	for in in "$top/tests/data/demo-python-dwarf.perf.txt.gz" \
	    "$pg/cpu-cpu.folded"; do
		"$BIN/stackcollapse" "$in" > "$tmp/want" 2>&1
		"$BIN/stackcollapse" --to=pprof "$in" > "$tmp/p.pb.gz" 2>&1
		{ HOME=$tmp go tool pprof -raw "$tmp/p.pb.gz" 2> "$tmp/err" |
		    awk -f "$top/tests/pprof-unit.awk"
		HOME=$tmp go tool pprof -traces -unit=ns "$tmp/p.pb.gz" 2> "$tmp/err" |
		    awk -f "$top/tests/pprof-traces.awk"; } > "$tmp/out"
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
	results speedscope "$tmp/ss.out"
fi

section "flamebearer: stackcollapse --to=flamebearer against @pyroscope/models"
# Pyroscope's npm package (.ci/run installs it beside speedscope's):
# tests/flamebearer/check.js validates our JSON with its
# FlamebearerProfileSchema, decodes it with decodeFlamebearer and rebuilds
# the stacks from the decoded levels: the folded stacks of the same input,
# and a --diff's both sides.  Then the JSON read back is the input.
if [ ! -f "$PYROSCOPE_DIR/package.json" ] || ! command -v node > /dev/null 2>&1; then
	printf 'SKIP flamebearer schema: needs node and %s (npm install @pyroscope/models)\n' "$PYROSCOPE_DIR"
else
	mkdir -p "$tmp/fb"
	set --
	for in in "$top"/tests/data/*.collapsed-default.txt.gz "$top"/tests/data/*.collapsed-kernel.txt.gz; do
		b=$tmp/fb/$(basename "$in" .txt.gz)
		"$BIN/stackcollapse" "$in" > "$b.folded" 2>/dev/null
		"$BIN/stackcollapse" --to=flamebearer "$in" > "$b.json" 2>/dev/null
		set -- "$@" "$(basename "$in")" "$b.json" "$b.folded"
	done
	d=$top/tests/data
	"$BIN/stackcollapse" --diff "$d/diff-before.folded" "$d/diff-after.folded" > "$tmp/fb/diff.folded"
	"$BIN/stackcollapse" --diff --to=flamebearer "$d/diff-before.folded" "$d/diff-after.folded" > "$tmp/fb/diff.json"
	set -- "$@" diff "$tmp/fb/diff.json" "$tmp/fb/diff.folded"
	node "$top/tests/flamebearer/check.js" "$PYROSCOPE_DIR" "$@" > "$tmp/fb.out" 2>&1
	results flamebearer "$tmp/fb.out"
	while [ $# -gt 0 ]; do
		"$BIN/stackcollapse" "$2" > "$tmp/out" 2>&1
		check "flamebearer $1 read back" "$3" "$tmp/out"
		shift 3
	done
fi

section "svg: flame graphs read back"
# Real profiles drawn with --minwidth 0 read back: flamegraph-svg's and
# inferno's exactly; flamegraph.pl's with the exact total and at least 99%
# of the weight on the right stacks (tests/svgread/score.awk).
# flamegraph-svg's default graph read back and drawn again draws the same
# frames (titles: names, counts, rows): frames too narrow to draw come
# back as the root's self, the empty stack, which is drawn first, so
# positions and the rounding of widths may move by a tenth of a pixel.
for in in "$top"/tests/data/*.collapsed-default.txt.gz "$top"/tests/data/*.collapsed-kernel.txt.gz \
    "$CORPUS"/captures/*.collapsed-default.txt.gz; do
	[ -f "$in" ] || continue
	b=$(basename "$in" .txt.gz)
	"$BIN/stackcollapse" "$in" > "$tmp/exp" 2>/dev/null
	"$BIN/flamegraph-svg" --minwidth 0 "$tmp/exp" > "$tmp/g.svg"
	"$BIN/stackcollapse" "$tmp/g.svg" > "$tmp/out" 2>&1
	check "svg $b: flamegraph-svg's, exact" "$tmp/exp" "$tmp/out"
	"$BIN/flamegraph-svg" "$tmp/exp" | sed 's/id="fg[0-9a-f]*/id="fg/g' > "$tmp/g1.svg"
	"$BIN/flamegraph-svg" "$tmp/exp" | "$BIN/stackcollapse" --format=svg 2>/dev/null |
	    "$BIN/flamegraph-svg" | sed 's/id="fg[0-9a-f]*/id="fg/g' > "$tmp/g2.svg"
	grep '<title>' "$tmp/g1.svg" | sed 's/<rect [^>]*>//g; s/<text [^<]*<.text>//g' > "$tmp/exp"
	grep '<title>' "$tmp/g2.svg" | sed 's/<rect [^>]*>//g; s/<text [^<]*<.text>//g' > "$tmp/out"
	check "svg $b: default graph redrawn, same frames" "$tmp/exp" "$tmp/out"
done
# flamegraph.pl's SVGs, recorded by tests/record-svgread.sh (FlameGraph
# is not on a fresh machine), against the folded files they were drawn
# from (the corpus captures' are read from $CORPUS).
for svg in "$top"/tests/svgread/flamegraph-pl/*.svg.gz; do
	b=$(basename "$svg" .svg.gz)
	in=$top/tests/data/$b.txt.gz
	[ -f "$in" ] || in=$CORPUS/captures/$b.txt.gz
	if [ ! -f "$in" ]; then
		printf 'SKIP svg %s: flamegraph.pl'"'"'s: %s not found\n' "$b" "$in"
		continue
	fi
	gzip -dc "$in" > "$tmp/exp"
	if gzip -dc "$svg" | "$BIN/stackcollapse" --format=svg > "$tmp/out" 2> "$tmp/err" &&
	    awk -f "$top/tests/svgread/score.awk" "$tmp/exp" "$tmp/out" > "$tmp/score"; then
		pass
	else
		awk -f "$top/tests/svgread/score.awk" "$tmp/exp" "$tmp/out" >> "$tmp/err"
		fail "svg $b: flamegraph.pl's, 99% right, total exact" "$tmp/err"
	fi
done
# inferno's, drawn live: inferno-flamegraph from INFERNO_DIR (as make
# bench finds it; tests/build-inferno.sh builds it offline) or PATH.
# inferno drops a frame's trailing blanks and its _[k] annotation from
# what it draws: compared on the kernel-less inputs, blanks cut.
inferno=
if [ -n "${INFERNO_DIR:-}" ] && [ -x "$INFERNO_DIR/inferno-flamegraph" ]; then
	inferno=$INFERNO_DIR/inferno-flamegraph
elif command -v inferno-flamegraph > /dev/null 2>&1; then
	inferno=inferno-flamegraph
fi
if [ -z "$inferno" ]; then
	printf 'SKIP svg: inferno'"'"'s: no inferno-flamegraph in INFERNO_DIR or PATH (tests/build-inferno.sh)\n'
else
	for in in "$top"/tests/data/*.collapsed-default.txt.gz "$CORPUS"/captures/*.collapsed-default.txt.gz; do
		[ -f "$in" ] || continue
		b=$(basename "$in" .txt.gz)
		"$BIN/stackcollapse" "$in" 2>/dev/null | sed 's/ *;/;/g; s/ * \([0-9]*\)$/ \1/' |
		    "$BIN/stackcollapse" --format=folded > "$tmp/exp"
		"$inferno" --minwidth 0 "$tmp/exp" > "$tmp/i.svg" 2>/dev/null
		"$BIN/stackcollapse" "$tmp/i.svg" > "$tmp/out" 2>&1
		check "svg $b: inferno's, exact" "$tmp/exp" "$tmp/out"
	done
fi

section "trace-record and libtracerecord"
mkdir -p "$tmp/trace"
sh "$top/tests/trace/run.sh" "$BIN" "$BUILD" "$tmp/trace" > "$tmp/trace.out" 2>&1
results trace "$tmp/trace.out"

section "spanlayout: random trees and real traces"
# prop.c lays out 200 seeded random trees (make check: 2000) and checks every output (no
# overlap on a row, children below parents, each span once, the same
# bytes twice, the article's rows wherever its layout has no overlap);
# the uftrace captures must give their recorded layouts and pass the
# invariants in every band mode.
random_trees 200
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
# The second reference: C++ symbols of a whole Debian system as
# libstdc++'s __cxa_demangle writes them with parameters, recorded by
# tests/record-demangle-cxa.sh; where ours differs on purpose,
# tests/demangle/cxa-known.txt says why and pins what ours prints.  At
# most 2% may stay mangled: the file holds every hard name beside a
# one-in-8 sample (of all 126,605 symbols, 0.47% stay mangled).
gzip -dc "$top/tests/data/demangle-cxa.tsv.gz" > "$tmp/dmcxa.tsv"
if [ ! -x "$tmp/dmcheck" ]; then
	fail "demangler (cxa): building tests/demangle/check.c" "$tmp/err"
elif "$tmp/dmcheck" "$tmp/dmcxa.tsv" 20 "$top/tests/demangle/cxa-known.txt" \
    > "$tmp/dmcxa.out" 2>&1; then
	pass
	printf 'note: demangler (cxa): %s\n' "$(tail -n 1 "$tmp/dmcxa.out")"
else
	fail "demangler (cxa): $(tail -n 1 "$tmp/dmcxa.out")" "$tmp/dmcxa.out"
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

finish
