#!/usr/bin/env python3
"""Counts the LLVM IR lines of the functions whose (v0-demangled) name mentions one of the 50
generated types, or an item a derive declares beside its impl (in the anonymous `const _` it
wraps its code in: `arena_types::_::__Field`): `ir_lines.py FILE.ll`. A function is its `define ... {` line to its closing `}`,
as cargo-llvm-lines counts it; its name includes generic arguments (v0 mangling), so
`serde_json::Deserializer::deserialize_struct::<...Struct07...>` counts for Struct07.

Prints the lines, the functions, and the lines of those that are arena-core's `ArenaSeed` (the
outermost-call wrapper, instantiated once per type read at the top level: here all 50)."""

import re
import subprocess
import sys

TYPE = re.compile(r"\b(Struct\d\d|Enum\d\d)\b")
# Items a derive declares beside its impl, in its `const _: () = { ... };` (a struct's field
# identifier): their names do not mention the type, only the anonymous const.
BESIDE = re.compile(r"\b(serde|arena)_types(\[[0-9a-f]+\])?::_::")
SEED = re.compile(r"^<?arena_core\[[0-9a-f]+\]::seed::ArenaSeed<")
DEFINE = re.compile(r'^define [^@]*@("?)(.+?)\1\(')


def functions(path):
    """(mangled name, line count) of every function defined in the file."""
    name, lines = None, 0
    with open(path) as ll:
        for line in ll:
            if name is None:
                if match := DEFINE.match(line):
                    name, lines = match.group(2), 1
            else:
                lines += 1
                if line.startswith("}"):
                    yield name, lines
                    name = None


def main():
    funcs = list(functions(sys.argv[1]))
    demangled = subprocess.run(
        ["c++filt"],
        input="\n".join(name for name, _ in funcs) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(demangled) == len(funcs), "c++filt must give one name per line"
    named = [
        (d, n) for d, (_, n) in zip(demangled, funcs) if TYPE.search(d) or BESIDE.search(d)
    ]
    types = {m for d, _ in named for m in TYPE.findall(d)}
    assert len(types) == 50, f"expected functions naming 50 types, found {len(types)}"
    seed = sum(n for d, n in named if SEED.match(d))
    print(sum(n for _, n in named), len(named), seed)


if __name__ == "__main__":
    main()
