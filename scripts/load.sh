#!/usr/bin/env bash
# Loopback load test of the gateway example (tower-toolschema/examples/gateway.rs):
#   - builds and starts the gateway with its local echo upstream in --verify mode (the upstream
#     checks every body it receives: each schema slot passes provider_rules::check for the
#     profile it was sanitized for; the conversation bytes are exactly those the client sent);
#   - drives it with wrk (Debian: apt-get install -y wrk) from scripts/load.lua, posting
#     realistic request bodies built from tests/corpus (scripts/load_bodies.py), on 127.0.0.1;
#   - warm-up, then the measured run; reads VmRSS from /proc after each;
#   - fails unless: zero wrk errors, zero verification failures, every request verified, and
#     RSS at the end within 10 % of RSS after warm-up.
# Stops everything it started (trap). Environment: CONNECTIONS (200), DURATION (60s), WARMUP
# (30s), THREADS (2), BODIES (64).
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=${CONNECTIONS:-200}
DURATION=${DURATION:-60s}
WARMUP=${WARMUP:-30s}
THREADS=${THREADS:-2}
BODIES=${BODIES:-64}

command -v wrk >/dev/null || { echo "load: wrk missing (apt-get install -y wrk)" >&2; exit 1; }
work=$(mktemp -d)
gw_pid=""
sampler=""
cleanup() {
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
    [ -n "$gw_pid" ] && kill "$gw_pid" 2>/dev/null && wait "$gw_pid" 2>/dev/null || true
    [ -n "${KEEP:-}" ] && echo "load: kept $work" || rm -rf "$work"
}
trap cleanup EXIT INT TERM

python3 scripts/load_bodies.py tests/corpus "$work/bodies" "$BODIES"
cargo build --release -q -p tower-toolschema --example gateway
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
"$target_dir/release/examples/gateway" --verify --listen 127.0.0.1:0 >"$work/gateway.log" 2>&1 &
gw_pid=$!
for _ in $(seq 100); do
    grep -q "gateway listening on" "$work/gateway.log" && break
    sleep 0.1
done
url=$(grep -o "gateway listening on http://[0-9.:]*" "$work/gateway.log" | awk '{print $4}')
[ -n "$url" ] || { cat "$work/gateway.log"; echo "load: gateway did not start" >&2; exit 1; }
case "$url" in http://127.0.0.1:*) ;; *) echo "load: not on loopback: $url" >&2; exit 1 ;; esac
rss() { awk '/^VmRSS/ {print $2}' "/proc/$gw_pid/status"; }
echo "load: gateway pid $gw_pid at $url, RSS at start $(rss) kB"

export LOAD_DIR="$work/bodies"
echo "load: warm-up $WARMUP, $CONNECTIONS connections"
timeout 600 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" --timeout 10s -s scripts/load.lua "$url" >"$work/warmup.txt"
sleep 1
rss_warm=$(rss)
echo "load: RSS after warm-up $rss_warm kB"
echo "load: measured run $DURATION, $CONNECTIONS connections, $THREADS threads"
# RSS every 5 s during the run: a plateau, or a leak.
( while kill -0 "$gw_pid" 2>/dev/null; do rss >>"$work/rss.txt" || break; sleep 5; done ) &
sampler=$!
timeout 900 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 10s --latency -s scripts/load.lua "$url" | tee "$work/run.txt"
kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
sampler=""
sleep 1
rss_end=$(rss)
echo "load: RSS samples during the run (kB): $(paste -sd' ' "$work/rss.txt")"
stats=$(curl -s "$url/__stats")
echo "load: RSS at the end $rss_end kB"
echo "load: upstream stats $stats"

fail=0
for f in "$work/warmup.txt" "$work/run.txt"; do
    if grep -q "Socket errors\|Non-2xx" "$f" || ! grep -q "errors connect=0 read=0 write=0 status=0 timeout=0" "$f"; then
        echo "load: wrk reported errors ($f)" >&2; fail=1
    fi
done
completed=$(cat "$work/warmup.txt" "$work/run.txt" | sed -n 's/^load: requests=\([0-9]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')
python3 - "$stats" "$rss_warm" "$rss_end" "$completed" <<'PY' || fail=1
import json, sys
s = json.loads(sys.argv[1]); warm, end, completed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ok = True
for k in ("body_errors", "invalid_json", "check_failures", "conversation_mismatches"):
    if s[k]:
        print(f"load: {k} = {s[k]}", file=sys.stderr); ok = False
# Every request wrk saw answered was verified upstream (requests cut off when wrk stops at the
# end of a run reach the upstream but are never answered).
print(f"load: {completed} requests answered, {s['conversations_checked']} verified upstream")
if s["conversations_checked"] < completed:
    print("load: not every answered request was verified", file=sys.stderr); ok = False
growth = (end - warm) / warm * 100
print(f"load: RSS growth after warm-up {growth:+.1f} %")
if abs(growth) > 10:
    print("load: RSS moved more than 10 % after warm-up", file=sys.stderr); ok = False
sys.exit(0 if ok else 1)
PY
kill "$gw_pid"; wait "$gw_pid" 2>/dev/null || true; gw_pid=""
grep "upstream stats" "$work/gateway.log" || true
if [ "$fail" = 0 ]; then echo "load: PASS"; else echo "load: FAIL" >&2; fi
exit "$fail"
