#!/bin/sh
# How tests/data/uftrace-*.json.gz were made: two real programs built with
# -pg and recorded by uftrace (apt-get install uftrace), exported with
# `uftrace dump --chrome`; then the expected layouts, which are kept only
# after tests/spanlayout/check.awk finds no overlap, no child above its
# parent and every span once.  Not part of `make test`: run it by hand and
# review the diff.
#
#   PIGZ_SRC=<pigz checkout> LUA_SRC=<lua 5.4 src> sh tests/record-uftrace.sh
#
# pigz (multi-threaded: -p 2 starts compression threads) compresses its
# own sources; lua runs a small script (fib, string.format, table.sort).
set -eu
: "${PIGZ_SRC:?set PIGZ_SRC to a pigz checkout (github.com/madler/pigz)}"
: "${LUA_SRC:?set LUA_SRC to Lua 5.4 sources (a directory of l*.c)}"
top=$(cd "$(dirname "$0")/.." && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

cp -r "$PIGZ_SRC" "$w/pigz"
make -C "$w/pigz" CFLAGS="-O2 -pg -fno-omit-frame-pointer" LDFLAGS=-pg
cat "$w/pigz/pigz.c" "$w/pigz/yarn.c" > "$w/in.txt"
(cd "$w" && uftrace record -d pigz.data ./pigz/pigz -p 2 -b 32 -k -c in.txt > /dev/null &&
    uftrace dump -d pigz.data --chrome | gzip -9n > "$top/tests/data/uftrace-pigz.json.gz")

cc -O2 -pg -fno-omit-frame-pointer -DLUA_USE_LINUX -o "$w/lua" \
    $(ls "$LUA_SRC"/*.c | grep -v -e luac.c -e onelua.c -e ltests.c) -lm -ldl
cat > "$w/t.lua" <<'LUA'
local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end
local t = {}
for i = 1, 40 do t[#t+1] = string.format("%05d", (i * 7919) % 1000) end
table.sort(t)
print(fib(6), #table.concat(t, ","))
LUA
(cd "$w" && uftrace record -d lua.data ./lua t.lua &&
    uftrace dump -d lua.data --chrome | gzip -9n > "$top/tests/data/uftrace-lua.json.gz")

for b in pigz lua; do
	"$top/bin/spanlayout" "$top/tests/data/uftrace-$b.json.gz" > "$w/$b.lay"
	awk -F '\t' -v tmp="$w/sort" -f "$top/tests/spanlayout/check.awk" "$w/$b.lay"
	gzip -9n < "$w/$b.lay" > "$top/tests/data/uftrace-$b.lay.gz"
done
