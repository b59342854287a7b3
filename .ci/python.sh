#!/usr/bin/env bash
# The Python package (crates/toolschema-py): builds the wheel with maturin into a fresh venv
# with the SDKs the README's recipes use, installs it and runs its pytest suite. Offline after
# the pip install; the tests compare against the CLI binary (built here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

VENV="$(realpath -m "${TOOLSCHEMA_PY_VENV:-target/py-venv}")"
TARGET="$(realpath -m "${CARGO_TARGET_DIR:-target}")"

# The CLI the byte-identity tests compare with: the binary `cargo test --workspace
# --all-features` builds (so a no-op after that step of .ci/run).
cargo test --workspace --all-features --no-run
export TOOLSCHEMA_BIN="$TARGET/debug/toolschema"

if [ ! -x "$VENV/bin/python" ] && ! python3 -m venv "$VENV" >/dev/null 2>&1; then
    # Debian ships venv (ensurepip) separately.
    rm -rf "$VENV"
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
"$PY" -m pip install -q --upgrade pip
# The SDKs of the README's recipes and the peers of bench/compare.py; kept lean (no extras).
"$PY" -m pip install -q maturin pytest pydantic-ai-slim openai-agents google-genai openai anthropic mcp

# The binding crate is not a workspace member: its own fmt and clippy. It shares the target
# directory, so the engine crates built above are reused where their features agree.
export CARGO_TARGET_DIR="$TARGET"
manifest="$ROOT/crates/toolschema-py/Cargo.toml"
cargo fmt --manifest-path "$manifest" --check
PYO3_PYTHON="$PY" cargo clippy --manifest-path "$manifest" --all-targets -- -D warnings

# A debug wheel by default (the tests do not time anything; a release build costs minutes of
# CI); TOOLSCHEMA_PY_RELEASE=1 builds the release wheel (what bench/compare.py wants).
profile=()
[ "${TOOLSCHEMA_PY_RELEASE:-0}" = 1 ] && profile=(--release)
wheels="$TARGET/py-wheels"
rm -rf "$wheels"
(cd "$ROOT/crates/toolschema-py" && "$VENV/bin/maturin" build "${profile[@]}" --interpreter "$PY" -o "$wheels")
"$PY" -m pip install -q --force-reinstall --no-deps "$wheels"/toolschema-*.whl
# From outside the source tree, so the installed wheel is what is tested.
(cd "$wheels" && "$PY" -m pytest -q "$ROOT/crates/toolschema-py/tests")
