#!/bin/sh
# Regenerate the expected output of the golden cases that hold ours against
# a FlameGraph script: every tests/cases/*/perl.sh runs the script (with
# perl, from FLAMEGRAPH_DIR) on that case's inputs and writes its out,
# which the case's cmd must reproduce with our program.  Not part of
# `make test`: run it by hand and review the diff before committing.
#
#   FLAMEGRAPH_DIR=../FlameGraph sh tests/record-options.sh
set -eu
: "${FLAMEGRAPH_DIR:?set FLAMEGRAPH_DIR to a FlameGraph checkout}"
FLAMEGRAPH_DIR=$(cd "$FLAMEGRAPH_DIR" && pwd)
export FLAMEGRAPH_DIR
for ref in "$(dirname "$0")"/cases/*/perl.sh; do
	dir=$(dirname "$ref")
	( cd "$dir" && sh ./perl.sh > out )
done
