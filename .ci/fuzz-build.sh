#!/usr/bin/env bash
# Builds the cargo-fuzz targets in fuzz/ (schema_roundtrip, byte_reader, sanitize, batch, body,
# response) without running them, so CI catches a target that no longer compiles. Called by
# .ci/run.
# Needs a nightly toolchain (libFuzzer + sanitizers); installs cargo-fuzz if it is missing.
# To fuzz: fuzz/seed.sh, then
#   cargo +nightly fuzz run <target> fuzz/corpus/<target> -- -jobs=1 -workers=1 -max_total_time=600
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz-build: a nightly toolchain is needed (rustup toolchain install nightly)" >&2
    exit 1
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "fuzz-build: installing cargo-fuzz"
    cargo install --locked cargo-fuzz
fi
cargo +nightly fuzz build -O
echo "fuzz-build: ok ($(ls fuzz/fuzz_targets | wc -l) targets)"
