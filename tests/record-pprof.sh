#!/bin/sh
# How tests/data/pprof-go/ was made: main.go, a small Go program, writes a
# CPU and a heap profile with runtime/pprof; `go tool pprof -traces` lists
# their samples (every inlined function a frame) and tests/pprof-traces.awk
# turns that listing into the expected folded stacks, one file per sample
# type.  The golden case sc-pprof-go-traces checks stackcollapse against these
# files; tests/run.sh, when go is installed, runs go tool pprof again on
# the same profiles.  Not part of `make test`: run it by hand (needs go:
# apt-get install golang-go) and review the diff.
#
#   sh tests/record-pprof.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
d=$top/tests/data/pprof-go
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export GOCACHE="$w/cache" GOPATH="$w/gopath" GO111MODULE=off GOFLAGS=

cp "$d/main.go" "$w/"
(cd "$w" && go build -o prog main.go && ./prog cpu.pb.gz heap.pb.gz > /dev/null)
cp "$w/cpu.pb.gz" "$w/heap.pb.gz" "$d/"
sh "$top/tests/pprof-expect.sh" "$d"
