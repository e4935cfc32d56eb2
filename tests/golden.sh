#!/bin/sh
# golden.sh DIR PATHDIRS OUT: run the golden case DIR (tests/cases/NAME:
# its cmd, with PATHDIRS first on PATH), leaving its standard output,
# standard error and exit status in OUT/NAME.out, .err and .st for
# lib.sh's goldens to compare.  A case that hangs (a FIFO whose reader
# died) is stopped after five minutes.
name=$(basename "$1")
limit=
command -v timeout > /dev/null 2>&1 && limit="timeout 300"
( cd "$1" && PATH="$2:$PATH" $limit sh ./cmd > "$3/$name.out" 2> "$3/$name.err" )
echo $? > "$3/$name.st"
