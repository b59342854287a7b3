#!/usr/bin/env bash
# Proves a change keeps the CLI's behaviour: builds BASE (default: main) in a temporary worktree,
# runs scripts/corpus_outputs.sh with both binaries and diffs the two output trees.
# Exit 0 when every output is byte-identical.
#
#   scripts/same_output.sh [BASE]
set -euo pipefail
base=${1:-main}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/base" "$base" >/dev/null
cargo build --quiet --bin toolschema
(cd "$tmp/base" && CARGO_TARGET_DIR="$root/target/same-output" cargo build --quiet --bin toolschema)
scripts/corpus_outputs.sh "$tmp/before" "$root/target/same-output/debug/toolschema"
scripts/corpus_outputs.sh "$tmp/after" "$root/target/debug/toolschema"
if diff -r "$tmp/before" "$tmp/after" >"$tmp/diff"; then
  echo "same output as $base on the corpus"
else
  head -100 "$tmp/diff"
  echo "outputs differ from $base ($(grep -c '^diff' "$tmp/diff") files)" >&2
  exit 1
fi
