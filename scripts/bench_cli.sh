#!/usr/bin/env bash
# The CLI as a whole process: `toolschema sanitize` on the 20 MB agent body (500 corpus tools +
# 20 MB of conversation, the `agent` bench's largest case) against a process that round-trips
# the same body through serde_json::Value (crates/tower-toolschema/examples/value_roundtrip.rs).
# Both read the file and write the result to /dev/null. Target: ratio <= 0.3. Then the same on
# one tools/list of every corpus MCP tool (target: ratio <= 2).
# Prints `RATIO cli_sanitize_vs_value_roundtrip <x>` and `RATIO cli_tools_list_vs_value_roundtrip
# <x>` (mean times with hyperfine if installed, else the best of a loop of runs timed with
# `date +%s%N`). PROVIDER=gemini for the issue's target profile.
#
# Then the peak memory of the same two commands against their input's size (target: <= 3x):
# `RATIO cli_memory_<case>_heap_vs_input <x>`: the peak of live heap bytes (valgrind's massif,
# `mem_heap_B`; skipped without valgrind), plus the input itself when the CLI read it into a
# map of its own rather than the heap (a request body of 4 MiB or more: `cli::read_large`),
# over the input's size; `RATIO cli_memory_<case>_rss_vs_input <x>`: the maximum resident set
# (`/usr/bin/time -f %M`, the least of 3 runs) above the same command's on a one-tool input
# (the process's own floor: the binary's pages, libc, the profile tables), over the input's
# size. MEMORY=0 skips them, TIMES=0 the timings; CLI=PATH measures another build of the CLI.
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
CLI=${CLI:-target/release/toolschema}
VR=target/release/examples/value_roundtrip
MEMORY=${MEMORY:-1}
TIMES=${TIMES:-1}
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

if [ "$TIMES" != 0 ]; then
  measure cli_sanitize_vs_value_roundtrip "$BODY" sanitize --provider "$PROVIDER" --api openai-chat
  measure cli_tools_list_vs_value_roundtrip "$TOOLS" sanitize --provider "$PROVIDER"
fi

# memory NAME FILE FLOOR-FILE MAPPED CLI-ARGS...: the CLI's peak memory on FILE over FILE's
# size, as heap (MAPPED=1: FILE is read into a map, not the heap, so its size is added) and as
# resident set above the same command's on FLOOR-FILE.
memory() {
  local name=$1 file=$2 floor_file=$3 mapped=$4
  shift 4
  local n
  n=$(stat -c %s "$file")
  echo "$name: $file ($n bytes): toolschema $*"
  # rss FILE: the least max RSS (KiB) of 3 runs.
  rss() {
    local best= kb t
    t=$(mktemp)
    for _ in 1 2 3; do
      /usr/bin/time -f %M -o "$t" "$CLI" "$@" >/dev/null 2>/dev/null
      kb=$(tail -1 "$t")
      if [ -z "$best" ] || [ "$kb" -lt "$best" ]; then best=$kb; fi
    done
    rm -f "$t"
    echo "$best"
  }
  local peak floor
  peak=$(rss "$@" "$file")
  floor=$(rss "$@" "$floor_file")
  echo "max RSS: ${peak} KiB, floor (one tool): ${floor} KiB"
  python3 -c "print(f'RATIO ${name}_rss_vs_input {($peak - $floor) * 1024 / $n:.3f}')"
  if command -v valgrind >/dev/null; then
    local out heap
    out=$(mktemp)
    valgrind --tool=massif --massif-out-file="$out" "$CLI" "$@" "$file" >/dev/null 2>&1
    heap=$(sed -n 's/^mem_heap_B=//p' "$out" | sort -n | tail -1)
    rm -f "$out"
    echo "heap peak (massif): ${heap} bytes$([ "$mapped" = 1 ] && echo ", the input mapped beside it")"
    python3 -c "print(f'RATIO ${name}_heap_vs_input {($heap + $mapped * $n) / $n:.3f}')"
  fi
}

if [ "$MEMORY" != 0 ]; then
  dir=$(mktemp -d)
  # One tool, in the same shapes: what the process takes whatever its input.
  echo '{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}]}' \
    > "$dir/tool.json"
  echo '{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}]}' \
    > "$dir/body.json"
  # The body is read into huge pages (a map, not the heap) from 4 MiB on: `cli::read_large`.
  mapped=$(( $(stat -c %s "$BODY") >= 4194304 ? 1 : 0 ))
  memory cli_memory_agent_body "$BODY" "$dir/body.json" "$mapped" \
    sanitize --provider "$PROVIDER" --api openai-chat
  memory cli_memory_tools_list "$TOOLS" "$dir/tool.json" 0 sanitize --provider "$PROVIDER"
  rm -rf "$dir"
fi
