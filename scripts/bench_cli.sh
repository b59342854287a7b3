#!/usr/bin/env bash
# The CLI as a whole process: `toolschema sanitize` on the 20 MB agent body (500 corpus tools +
# 20 MB of conversation, the `agent` bench's largest case) against a process that round-trips
# the same body through serde_json::Value (crates/tower-toolschema/examples/value_roundtrip.rs).
# Both read the file and write the result to /dev/null. Target: ratio <= 0.3.
# Prints `RATIO cli_sanitize_vs_value_roundtrip <x>` (best-of-N mean times; hyperfine if
# installed, else a loop of runs timed with `date +%s%N`).
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
echo "body: $BODY ($(stat -c %s "$BODY") bytes), provider $PROVIDER, $RUNS runs"
# Both must succeed on this body.
"$CLI" sanitize --provider "$PROVIDER" --api openai-chat "$BODY" >/dev/null
"$VR" "$BODY" >/dev/null

if command -v hyperfine >/dev/null; then
  json=$(mktemp)
  hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$json" \
    -n cli "$CLI sanitize --provider $PROVIDER --api openai-chat $BODY" \
    -n value_roundtrip "$VR $BODY" >&2
  python3 - "$json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
cli, vr = r["cli"], r["value_roundtrip"]
print(f"cli sanitize: mean {cli['mean']*1e3:.1f} ms, min {cli['min']*1e3:.1f} ms")
print(f"value round trip: mean {vr['mean']*1e3:.1f} ms, min {vr['min']*1e3:.1f} ms")
print(f"(ratio of minima: {cli['min']/vr['min']:.3f})")
print(f"RATIO cli_sanitize_vs_value_roundtrip {cli['mean']/vr['mean']:.3f}")
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
  c=$(best "$CLI" sanitize --provider "$PROVIDER" --api openai-chat "$BODY")
  v=$(best "$VR" "$BODY")
  echo "cli sanitize: best ${c} µs; value round trip: best ${v} µs"
  python3 -c "print(f'RATIO cli_sanitize_vs_value_roundtrip {$c/$v:.3f}')"
fi
