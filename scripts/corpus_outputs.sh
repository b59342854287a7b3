#!/usr/bin/env bash
# Writes what the CLI prints for the bundled MCP corpus, for every built-in profile, into DIR:
# `sanitize` (with its JSON report), `check`, `diff` and the `matrix`. Two trees whose DIRs are
# equal behave the same on the corpus (see scripts/same_output.sh).
#
#   scripts/corpus_outputs.sh DIR [TOOLSCHEMA_BINARY]
set -euo pipefail
out=${1:?usage: corpus_outputs.sh DIR [TOOLSCHEMA_BINARY]}
bin=${2:-target/debug/toolschema}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$root" # relative input paths: outputs do not depend on where the tree is
export NO_COLOR=1 COLUMNS=200
profiles=$("$bin" providers | awk '{print $1}')
"$bin" providers >"$out/providers.txt"
for file in tests/corpus/mcp/*.json; do
  name=$(basename "$file" .json)
  for p in $profiles; do
    "$bin" --color never sanitize --provider "$p" --report "$out/$name.$p.report.json" "$file" \
      >"$out/$name.$p.json" 2>"$out/$name.$p.stderr" || echo "exit $?" >>"$out/$name.$p.stderr"
    "$bin" --color never check --provider "$p" "$file" >"$out/$name.$p.check" 2>&1 || echo "exit $?" >>"$out/$name.$p.check"
    "$bin" --color never diff --provider "$p" "$file" >"$out/$name.$p.diff" 2>&1 || echo "exit $?" >>"$out/$name.$p.diff"
  done
done
"$bin" --color never matrix tests/corpus/mcp/*.json >"$out/matrix.txt" 2>&1 || echo "exit $?" >>"$out/matrix.txt"
echo "$(ls "$out" | wc -l) files in $out"
