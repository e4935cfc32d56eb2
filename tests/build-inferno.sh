#!/bin/sh
# build-inferno.sh SRC DIR: build inferno (inferno-flamegraph and
# inferno-collapse-perf) offline for make bench's INFERNO_DIR columns, from
# SRC, a checkout of inferno v0.11.15 (git archive v0.11.15 of
# https://github.com/jonhoo/inferno), and Debian bookworm's crates
# (apt-get install cargo librust-ahash-dev librust-crossbeam-channel-dev
# librust-crossbeam-utils-dev librust-dashmap-dev librust-itoa-dev
# librust-log-dev librust-num-format-dev librust-once-cell-dev
# librust-quick-xml-dev librust-rgb-dev librust-clap-dev
# librust-env-logger-dev librust-indexmap-dev), into DIR/target/release.
# v0.11.15 is the release whose dependencies Debian has, nearly: its
# Cargo.toml is relaxed to Debian's ahash 0.7, env_logger 0.9 and
# num-format 0.4.0 (the APIs inferno uses are the same), is-terminal (not
# packaged) is replaced by the standard library's IsTerminal (Rust 1.70 or
# later), and str_stack (not packaged) by tests/inferno/str_stack.rs, a
# stand-in written from the calls inferno makes.  Dev-dependencies and
# benches go: they are not packaged and not needed.
set -eu
src=$1 dir=$2
top=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir"
mkdir -p "$dir/str_stack/src"
cp -R "$src/." "$dir/"
rm -rf "$dir/benches" "$dir/tests" "$dir/Cargo.lock" "$dir/.git"
cp "$top/tests/inferno/str_stack.rs" "$dir/str_stack/src/lib.rs"
printf '[package]\nname = "str_stack"\nversion = "0.1.0"\nedition = "2021"\n' \
    > "$dir/str_stack/Cargo.toml"
awk '/^\[dev-dependencies\]/ || /^\[\[bench\]\]/ { skip = 1; next }
    /^\[/ { skip = 0 } !skip' "$src/Cargo.toml" |
    sed -e 's/^ahash = "0.8"/ahash = "0.7"/' -e '/^is-terminal =/d' \
	-e 's/^\(env_logger = { version = \)"0.10"/\1"0.9"/' \
	-e 's/^\(num-format = { version = \)"0.4.3"/\1"0.4"/' \
	-e 's|^str_stack = "0.1"|str_stack = { path = "str_stack" }|' > "$dir/Cargo.toml"
grep -rl 'is_terminal::IsTerminal' "$dir/src" |
    xargs sed -i 's/use is_terminal::IsTerminal;/use std::io::IsTerminal;/'
mkdir -p "$dir/.cargo"
cat > "$dir/.cargo/config.toml" <<'CFG'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
CFG
cd "$dir"
CARGO_HOME="$dir/.cargo-home" cargo build --release --offline \
    --bin inferno-flamegraph --bin inferno-collapse-perf
