#!/usr/bin/env bash
# The CLI as a whole process: `toolschema sanitize` on the 20 MB agent body (500 corpus tools +
# 20 MB of conversation, the `agent` bench's largest case) against a process that round-trips
# the same body through serde_json::Value (crates/tower-toolschema/examples/value_roundtrip.rs).
# Both read the file and write the result to /dev/null. Target: ratio <= 0.3. Then the same on
# one tools/list of every corpus MCP tool (target: ratio <= 2).
# Prints `RATIO cli_sanitize_vs_value_roundtrip <x>` and `RATIO cli_tools_list_vs_value_roundtrip
# <x>` (mean times with hyperfine if installed, else the best of a loop of runs timed with
# `date +%s%N`). PROVIDER=gemini for the issue's target profile.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-10}
BODY=${BODY:-${TMPDIR:-/tmp}/toolschema-bench-20m.json}
PROVIDER=${PROVIDER:-openai}

cargo build --release -q -p toolschema
cargo build --release -q -p tower-toolschema --example value_roundtrip
if [ ! -s "$BODY" ]; then
  TS_BENCH_WRITE_BODY="20m:$BODY" cargo bench -q -p tower-toolschema --bench agent >/dev/null
fi
CLI=target/release/toolschema
VR=target/release/examples/value_roundtrip
TOOLS=${TOOLS:-${TMPDIR:-/tmp}/toolschema-bench-tools-list.json}
if [ ! -s "$TOOLS" ]; then
  # One tools/list result holding every corpus MCP tool.
  jq -s '{tools: (map(.tools // []) | add)}' tests/corpus/mcp/*.json > "$TOOLS"
fi

# measure NAME FILE CLI-ARGS...: the CLI on FILE against the Value round trip of FILE.
measure() {
  local name=$1 file=$2
  shift 2
  echo "$name: $file ($(stat -c %s "$file") bytes), $RUNS runs: toolschema $*"
  # Both must succeed on this input.
  "$CLI" "$@" "$file" >/dev/null
  "$VR" "$file" >/dev/null
  if command -v hyperfine >/dev/null; then
    local json
    json=$(mktemp)
    hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$json" \
      -n cli "$CLI $* $file" \
      -n value_roundtrip "$VR $file" >&2
    python3 - "$json" "$name" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
cli, vr, name = r["cli"], r["value_roundtrip"], sys.argv[2]
print(f"cli sanitize: mean {cli['mean']*1e3:.1f} ms, min {cli['min']*1e3:.1f} ms")
print(f"value round trip: mean {vr['mean']*1e3:.1f} ms, min {vr['min']*1e3:.1f} ms")
print(f"(ratio of minima: {cli['min']/vr['min']:.3f})")
print(f"RATIO {name} {cli['mean']/vr['mean']:.3f}")
PY
    rm -f "$json"
  else
    best() {
      local best=
      for _ in $(seq "$RUNS"); do
        local t0 t1
        t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
        local d=$(( (t1 - t0) / 1000 ))
        if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
      done
      echo "$best"
    }
    local c v
    c=$(best "$CLI" "$@" "$file")
    v=$(best "$VR" "$file")
    echo "cli sanitize: best ${c} µs; value round trip: best ${v} µs"
    python3 -c "print(f'RATIO $name {$c/$v:.3f}')"
  fi
}

measure cli_sanitize_vs_value_roundtrip "$BODY" sanitize --provider "$PROVIDER" --api openai-chat
measure cli_tools_list_vs_value_roundtrip "$TOOLS" sanitize --provider "$PROVIDER"
