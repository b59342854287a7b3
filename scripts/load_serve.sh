#!/usr/bin/env bash
# Loopback load test of `toolschema serve`:
#   - builds (release) the binary and a loopback upstream (examples/load_upstream.rs), which
#     answers 200 and checks every body it receives: valid JSON, and the conversation bytes
#     exactly those the client sent (x-expect-conversation);
#   - starts `toolschema serve --upstream` in front of it, on 127.0.0.1;
#   - drives serve with wrk (Debian: apt-get install -y wrk) from scripts/load.lua, posting the
#     request bodies scripts/load_bodies.py builds from tests/corpus;
#   - warm-up, then the measured run; reads serve's VmRSS from /proc, every 5 s during the run;
#   - fails unless: zero wrk errors, zero upstream check failures, every answered request checked
#     upstream, no upstream error in serve's /metrics, and RSS at the end within 10 % of RSS
#     after warm-up.
# Stops everything it started (trap). Environment: CONNECTIONS (200), DURATION (60s), WARMUP
# (30s), THREADS (2), BODIES (64), PROFILE (release; `debug` for a quick check of the script).
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=${CONNECTIONS:-200}
DURATION=${DURATION:-60s}
WARMUP=${WARMUP:-30s}
THREADS=${THREADS:-2}
BODIES=${BODIES:-64}
PROFILE=${PROFILE:-release}

command -v wrk >/dev/null || { echo "load_serve: wrk missing (apt-get install -y wrk)" >&2; exit 1; }
work=$(mktemp -d)
up_pid=""
serve_pid=""
sampler=""
cleanup() {
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
    [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
    [ -n "$up_pid" ] && kill "$up_pid" 2>/dev/null && wait "$up_pid" 2>/dev/null || true
    [ -n "${KEEP:-}" ] && echo "load_serve: kept $work" || rm -rf "$work"
}
trap cleanup EXIT INT TERM

wait_for() { # file pattern
    for _ in $(seq 100); do grep -q "$2" "$1" && return 0; sleep 0.1; done
    cat "$1"; echo "load_serve: '$2' never appeared" >&2; exit 1
}

python3 scripts/load_bodies.py tests/corpus "$work/bodies" "$BODIES"
if [ "$PROFILE" = release ]; then release=--release; else release=; fi
cargo build $release -q --bin toolschema --example load_upstream
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')

"$target_dir/$PROFILE/examples/load_upstream" 127.0.0.1:0 >"$work/upstream.log" 2>&1 &
up_pid=$!
wait_for "$work/upstream.log" "upstream on http://"
up=$(grep -o "http://[0-9.:]*" "$work/upstream.log" | head -1)

"$target_dir/$PROFILE/toolschema" serve --listen 127.0.0.1:0 --upstream "$up" --log-format json >"$work/serve.log" 2>&1 &
serve_pid=$!
wait_for "$work/serve.log" "listening on http://"
url=$(grep -o "listening on http://[0-9.:]*" "$work/serve.log" | head -1 | awk '{print $3}')
case "$url" in http://127.0.0.1:*) ;; *) echo "load_serve: not on loopback: $url" >&2; exit 1 ;; esac
rss() { awk '/^VmRSS/ {print $2}' "/proc/$serve_pid/status"; }
echo "load_serve: serve pid $serve_pid at $url -> upstream $up, RSS at start $(rss) kB"

export LOAD_DIR="$work/bodies"
echo "load_serve: warm-up $WARMUP, $CONNECTIONS connections"
timeout 600 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" --timeout 10s -s scripts/load.lua "$url" >"$work/warmup.txt"
sleep 1
rss_warm=$(rss)
echo "load_serve: RSS after warm-up $rss_warm kB"
echo "load_serve: measured run $DURATION, $CONNECTIONS connections, $THREADS threads"
( while kill -0 "$serve_pid" 2>/dev/null; do rss >>"$work/rss.txt" || break; sleep 5; done ) &
sampler=$!
timeout 900 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 10s --latency -s scripts/load.lua "$url" | tee "$work/run.txt"
kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
sampler=""
sleep 1
rss_end=$(rss)
echo "load_serve: RSS samples during the run (kB): $(paste -sd' ' "$work/rss.txt")"
stats=$(curl -s "$up/__stats")
upstream_errors=$(curl -s "$url/metrics" | awk '/^toolschema_serve_upstream_errors_total/ {s+=$2} END {print s+0}')
echo "load_serve: RSS at the end $rss_end kB"
echo "load_serve: upstream stats $stats; serve upstream errors $upstream_errors"

fail=0
for f in "$work/warmup.txt" "$work/run.txt"; do
    if grep -q "Socket errors\|Non-2xx" "$f" || ! grep -q "errors connect=0 read=0 write=0 status=0 timeout=0" "$f"; then
        echo "load_serve: wrk reported errors ($f)" >&2; fail=1
    fi
done
[ "$upstream_errors" = 0 ] || { echo "load_serve: serve counted upstream errors" >&2; fail=1; }
completed=$(cat "$work/warmup.txt" "$work/run.txt" | sed -n 's/^load: requests=\([0-9]*\).*/\1/p' | awk '{s+=$1} END {print s+0}')
python3 - "$stats" "$rss_warm" "$rss_end" "$completed" <<'PY' || fail=1
import json, sys
s = json.loads(sys.argv[1]); warm, end, completed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ok = True
for k in ("body_errors", "invalid_json", "conversation_mismatches"):
    if s[k]:
        print(f"load_serve: {k} = {s[k]}", file=sys.stderr); ok = False
print(f"load_serve: {completed} requests answered, {s['conversations_checked']} checked upstream")
if s["conversations_checked"] < completed:
    print("load_serve: not every answered request was checked", file=sys.stderr); ok = False
growth = (end - warm) / warm * 100
print(f"load_serve: RSS growth after warm-up {growth:+.1f} %")
if abs(growth) > 10:
    print("load_serve: RSS moved more than 10 % after warm-up", file=sys.stderr); ok = False
sys.exit(0 if ok else 1)
PY
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=""
grep -c '"message":"request"' "$work/serve.log" | sed 's/^/load_serve: request log lines /'
if [ "$fail" = 0 ]; then echo "load_serve: PASS"; else echo "load_serve: FAIL" >&2; fi
exit "$fail"
