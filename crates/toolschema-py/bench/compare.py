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

toolschema keeps the results of recent calls (`toolschema.cache_info()`): every timed call
after the first for a schema is answered from that cache, as the calls an agent makes with the
same tools on every model request are (a dict is found by identity and checked unchanged
against a snapshot of its shape; text by its hash, compared whole). The same toolschema rows
are then measured again with the cache off (`set_cache_capacity(0)`): every call runs the
engine, as a schema's first call (or one changed since) does.

Prints one table row per method and RATIO lines (peer median / toolschema median).

    python crates/toolschema-py/bench/compare.py --parts [--reps N] [--rounds R]

instead splits toolschema's time per schema into the binding's parts and the engine's (the
result cache off), with CPython's own json module (C) as the yardstick measured in the same
minutes:

- engine: sanitize_json(text) (the engine's parse, rewrite and serialisation, and the call)
- dict -> JSON text: check(dict) minus check(text), per schema (check builds no result)
- JSON text -> dict: the first read of .schema on fresh Sanitized objects (made untimed)
- .changes: the first read of .changes on fresh Sanitized objects
- json.dumps(dict), json.loads(output text): what the same conversions cost CPython
- floor: sanitize_json("{}"), the cost of a call whatever the schema (the call, the profile's
  set-up in the engine, the report and the result)
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


def first_read(make, attr, schemas, reps, rounds):
    """Median over the schemas of the best-of-rounds time of reading attr once on a fresh object."""
    times = []
    for s in schemas:
        best = float("inf")
        for _ in range(rounds):
            objs = [make(s) for _ in range(reps)]
            t0 = time.perf_counter_ns()
            for o in objs:
                getattr(o, attr)
            best = min(best, (time.perf_counter_ns() - t0) / reps)
        times.append(best / 1000.0)
    return times


def parts(schemas, texts, reps, rounds):
    # The engine and the conversions, each call doing them (the result cache off).
    toolschema.set_cache_capacity(0)
    def each(fn, args):
        return [per_call(fn, lambda a=a: a, reps, rounds) for a in args]

    print("| profile | engine: sanitize_json | dict -> text | text -> dict (.schema) | .changes | json.dumps | json.loads(output) | floor: sanitize_json('{}') |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for prov in ["gemini", "openai-strict"]:
        outs = [toolschema.sanitize_json(t, prov) for t in texts]
        engine = each(lambda t: toolschema.sanitize_json(t, prov), texts)
        cd = each(lambda s: toolschema.check(s, prov), schemas)
        ct = each(lambda t: toolschema.check(t, prov), texts)
        to_text = [a - b for a, b in zip(cd, ct)]
        to_dict = first_read(lambda s: toolschema.sanitize(s, prov), "schema", schemas, reps, rounds)
        changes = first_read(lambda s: toolschema.sanitize(s, prov), "changes", schemas, reps, rounds)
        dumps = each(json.dumps, schemas)
        loads = each(json.loads, outs)
        floor = each(lambda t: toolschema.sanitize_json(t, prov), ["{}"] * 5)
        cells = [statistics.median(x) for x in (engine, to_text, to_dict, changes, dumps, loads, floor)]
        print(f"| {prov} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")
    print()
    print("(medians over the schemas, µs per call)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--parts", action="store_true", help="split toolschema's time into the binding's parts and the engine's")
    args = ap.parse_args()
    if args.parts:
        schemas = corpus()
        parts(schemas, [json.dumps(s, ensure_ascii=False) for s in schemas], args.reps, args.rounds)
        return 0

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
    # The same calls with the result cache off: every call runs the engine (a schema seen
    # for the first time, or one changed since).
    capacity = toolschema.set_cache_capacity(0)
    gc_ts = measure("cache off: toolschema.sanitize(dict, gemini).schema", lambda s: toolschema.sanitize(s, "gemini").schema, schemas, args.reps, args.rounds)
    gc_js = measure("cache off: toolschema.sanitize_json(text, gemini)", lambda t: toolschema.sanitize_json(t, "gemini"), texts, args.reps, args.rounds)
    oc_ts = measure("cache off: toolschema.sanitize(dict, openai-strict).schema", lambda s: toolschema.sanitize(s, "openai-strict").schema, schemas, args.reps, args.rounds)
    oc_js = measure("cache off: toolschema.sanitize_json(text, openai-strict)", lambda t: toolschema.sanitize_json(t, "openai-strict"), texts, args.reps, args.rounds)
    toolschema.set_cache_capacity(capacity)
    print()
    print(f"RATIO pydantic-ai gemini / toolschema dict: {g_pa / g_ts:.1f}x (target >= 10)")
    print(f"RATIO pydantic-ai gemini / toolschema sanitize_json: {g_pa / g_js:.1f}x (target >= 20)")
    print(f"RATIO openai-agents strict / toolschema dict: {o_oa / o_ts:.1f}x (target >= 10)")
    print(f"RATIO openai-agents strict / toolschema sanitize_json: {o_oa / o_js:.1f}x (target >= 20)")
    print(f"RATIO cache off: pydantic-ai gemini / toolschema dict: {g_pa / gc_ts:.1f}x")
    print(f"RATIO cache off: pydantic-ai gemini / toolschema sanitize_json: {g_pa / gc_js:.1f}x")
    print(f"RATIO cache off: openai-agents strict / toolschema dict: {o_oa / oc_ts:.1f}x")
    print(f"RATIO cache off: openai-agents strict / toolschema sanitize_json: {o_oa / oc_js:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
