"""In-process comparison with the Python peers over the corpus MCP tools (one CPython process).

    python crates/toolschema-py/bench/compare.py [--reps N] [--rounds R]

For every corpus tool (tests/corpus/mcp/*.json, each tool's inputSchema) and every method, the
time per call is the best of R rounds of N back-to-back calls; the figure is the median over
the tools. Methods:

- toolschema.sanitize(dict, "gemini").schema: dict in, dict out (the conversions included)
- toolschema.sanitize_json(text, "gemini"): JSON text in, JSON text out
- pydantic-ai GoogleJsonSchemaTransformer(dict).walk(): dict in, dict out (it deep-copies)
- toolschema.sanitize(dict, "openai-strict").schema, and sanitize_json with openai-strict
- openai-agents ensure_strict_json_schema(dict): mutates its argument, so each call gets a
  fresh deep copy made outside the timed region

Prints one table row per method and RATIO lines (peer median / toolschema median).
"""

import argparse
import copy
import json
import pathlib
import platform
import statistics
import sys
import time

import toolschema

ROOT = pathlib.Path(__file__).resolve().parents[3]


def corpus():
    tools = []
    for f in sorted((ROOT / "tests" / "corpus" / "mcp").glob("*.json")):
        for t in json.loads(f.read_text(encoding="utf-8"))["tools"]:
            tools.append(t["inputSchema"])
    return tools


def per_call(fn, arg_for, reps, rounds):
    """Best-of-rounds mean time of one call, in microseconds; None when fn raises."""
    best = float("inf")
    for _ in range(rounds):
        args = [arg_for() for _ in range(reps)]
        t0 = time.perf_counter_ns()
        for a in args:
            fn(a)
        best = min(best, (time.perf_counter_ns() - t0) / reps)
    return best / 1000.0


def measure(name, fn, schemas, reps, rounds, fresh=False):
    times, failed = [], 0
    for s in schemas:
        arg_for = (lambda s=s: copy.deepcopy(s)) if fresh else (lambda s=s: s)
        try:
            fn(arg_for())
        except Exception:
            failed += 1
            continue
        times.append(per_call(fn, arg_for, reps, rounds))
    med = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1]
    print(f"| {name} | {len(times)} | {failed} | {med:.2f} | {p90:.2f} |")
    return med


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    from agents.strict_schema import ensure_strict_json_schema
    from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer

    schemas = corpus()
    texts = [json.dumps(s, ensure_ascii=False) for s in schemas]
    import importlib.metadata as md

    print(f"python {platform.python_version()} on {platform.machine()}; {len(schemas)} schemas; "
          f"pydantic-ai-slim {md.version('pydantic-ai-slim')}, openai-agents {md.version('openai-agents')}, "
          f"toolschema {md.version('toolschema')}; best of {args.rounds} x {args.reps} calls per schema")
    print()
    print("| method | schemas | raised | median µs | p90 µs |")
    print("|---|--:|--:|--:|--:|")
    g_ts = measure("toolschema.sanitize(dict, gemini).schema", lambda s: toolschema.sanitize(s, "gemini").schema, schemas, args.reps, args.rounds)
    g_js = measure("toolschema.sanitize_json(text, gemini)", lambda t: toolschema.sanitize_json(t, "gemini"), texts, args.reps, args.rounds)
    g_pa = measure("pydantic-ai GoogleJsonSchemaTransformer(dict).walk()", lambda s: GoogleJsonSchemaTransformer(s).walk(), schemas, args.reps, args.rounds)
    o_ts = measure("toolschema.sanitize(dict, openai-strict).schema", lambda s: toolschema.sanitize(s, "openai-strict").schema, schemas, args.reps, args.rounds)
    o_js = measure("toolschema.sanitize_json(text, openai-strict)", lambda t: toolschema.sanitize_json(t, "openai-strict"), texts, args.reps, args.rounds)
    o_oa = measure("openai-agents ensure_strict_json_schema(dict)", ensure_strict_json_schema, schemas, args.reps, args.rounds, fresh=True)
    print()
    print(f"RATIO pydantic-ai gemini / toolschema dict: {g_pa / g_ts:.1f}x (target >= 10)")
    print(f"RATIO pydantic-ai gemini / toolschema sanitize_json: {g_pa / g_js:.1f}x (target >= 20)")
    print(f"RATIO openai-agents strict / toolschema dict: {o_oa / o_ts:.1f}x (target >= 10)")
    print(f"RATIO openai-agents strict / toolschema sanitize_json: {o_oa / o_js:.1f}x (target >= 20)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
