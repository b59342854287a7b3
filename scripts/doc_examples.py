#!/usr/bin/env python3
"""Counts the public items of crates that carry a runnable example in their docs.

    scripts/doc_examples.py [--missing] CRATE_DIR...

An item is a `pub` (not `pub(crate)` / `pub(super)` / `pub(in ..)`) `fn`, `struct`, `enum`,
`trait`, `type`, `const`, `static` or `mod` declared in `CRATE_DIR/src`, outside private inline
modules (`mod tests { .. }`, `mod sealed { .. }`) and not `#[doc(hidden)]`; it has an example when its doc comment (the `///` lines and attributes right above
it; for `pub mod x;`, the `//!` header of the module's file) holds a fenced block. Items
inside private modules count too (they are reached through re-exports and methods); fields
and variants do not. `--missing` lists the items without one.
"""

import re
import sys
from pathlib import Path

ITEM = re.compile(
    r"^\s*pub\s+(?:const\s+fn|async\s+fn|unsafe\s+fn|fn|struct|enum|trait|type|const|static|mod)\s+(\w+)"
)
MOD_DECL = re.compile(r"^\s*pub\s+mod\s+(\w+)\s*;")
# `mod tests {`, `mod sealed {`: what is inside is not public.
PRIVATE_MOD = re.compile(r"^\s*mod\s+\w+\s*\{")


def module_file(src: Path, name: str):
    for cand in (src.parent / f"{name}.rs", src.parent / name / "mod.rs",
                 src.parent / src.stem / f"{name}.rs", src.parent / src.stem / name / "mod.rs"):
        if cand.exists():
            return cand
    return None


def has_fence(lines):
    return any(l.lstrip("/!").strip().startswith("```") for l in lines)


def items(path: Path):
    lines = path.read_text().splitlines()
    out = []
    skip_depth = None  # brace depth at which a private inline module (tests, sealed) opened
    depth = 0
    for i, line in enumerate(lines):
        if skip_depth is None:
            if PRIVATE_MOD.match(line):
                skip_depth = depth
            m = ITEM.match(line)
            if m:
                docs = []
                j = i - 1
                while j >= 0 and lines[j].strip().startswith(("///", "#[")):
                    docs.append(lines[j].strip())
                    j -= 1
                hidden = any(d.startswith("#[doc(hidden)]") for d in docs)
                ok = has_fence(docs)
                d = MOD_DECL.match(line)
                if d and not ok:
                    f = module_file(path, d.group(1))
                    if f:
                        header = [l for l in f.read_text().splitlines() if l.strip().startswith("//!")]
                        ok = has_fence(header)
                if not hidden:
                    out.append((f"{path}:{i + 1}", m.group(1), ok))
        code = line.split("//")[0]
        depth += code.count("{") - code.count("}")
        if skip_depth is not None and depth <= skip_depth:
            skip_depth = None
    return out


def main(argv):
    missing = "--missing" in argv
    crates = [a for a in argv if a != "--missing"]
    if not crates:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for crate in crates:
        found = []
        for f in sorted(Path(crate, "src").rglob("*.rs")):
            found.extend(items(f))
        with_ex = sum(1 for _, _, ok in found if ok)
        total = len(found)
        pct = 100.0 * with_ex / total if total else 100.0
        print(f"{crate}: {with_ex} of {total} public items have an example ({pct:.0f} %)")
        if missing:
            for where, name, ok in found:
                if not ok:
                    print(f"  {where}: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
