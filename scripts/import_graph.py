"""Draw the import graph of the packages and check the core's floors.

    .venv/bin/python scripts/import_graph.py          # docs/import-graph.dot (+ .png)
    .venv/bin/python scripts/import_graph.py --check  # exit 1: a circle, a 2nd upward import

Every import counts, lazy ones inside functions too: a lazy import still ties the modules
together. The core is laid out in floors (`FLOORS`, lowest first); a module may import its
own floor and those below. The surfaces (`langchain_clef`, `clef_mcp`) sit above the core
and import only its public names; the core never imports a surface.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "clef_tools": ROOT / "clef_tools",
    "langchain_clef": ROOT / "adapters" / "langchain_clef",
    "clef_mcp": ROOT / "mcp_server" / "clef_mcp",
}
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "base",
        (
            "clef_tools.decisions",
            "clef_tools._safe_path",
            "clef_tools._version",
            "clef_tools._net",
            "clef_tools._progress",
            "clef_tools._fitting",
            "clef_tools._lru",
        ),
    ),
    ("protocol", ("clef_tools.protocol", "clef_tools._extras", "clef_tools._lazy")),
    (
        "contract",
        (
            "clef_tools.backends.__init__",
            "clef_tools.backends._base",
            "clef_tools.backends._cancel",
            "clef_tools.backends._microbatch",
            "clef_tools.backends._spec",
            "clef_tools.backends._engine_table",
        ),
    ),
    ("local plumbing", ("clef_tools.backends.local",)),
    (
        "engines",
        (
            "clef_tools.backends.readout",
            "clef_tools.backends.embedding",
            "clef_tools.backends.hosted",
            "clef_tools.backends.release",
        ),
    ),
    ("compositions", ("clef_tools.backends.compose",)),
    ("registry", ("clef_tools.backends._registry", "clef_tools.backends._factory")),
    ("testing", ("clef_tools.testing",)),
    ("gate", ("clef_tools.gate",)),
    ("audit", ("clef_tools.audit",)),
    ("evaluation", ("clef_tools.evaluation",)),
    ("hooks", ("clef_tools.hooks",)),
    ("serving", ("clef_tools.serving",)),
    ("cli", ("clef_tools.cli",)),
    ("face", ("clef_tools.__init__",)),
)
"""The core's floors, lowest first: protocol ← contract ← engines ← compositions ←
registry ← gate ← audit ← evaluation ← hooks ← serving ← CLI ← the package face."""
MAX_UPWARD = 1


def modules() -> dict[str, Path]:
    """Dotted name → file; a package is named `pkg.__init__` so it has a floor of its own."""
    found = {}
    for name, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            found[".".join((name, *parts))] = path
    return found


def _target(name: str, mods: dict[str, Path]) -> str | None:
    if name in mods:
        return name
    return f"{name}.__init__" if f"{name}.__init__" in mods else None


def edges(mods: dict[str, Path]) -> set[tuple[str, str]]:
    out = set()
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                # `from pkg import mod` names the module; `from mod import name` the module
                subs = [f"{node.module}.{a.name}" for a in node.names]
                targets = [s for s in subs if _target(s, mods)] or [node.module]
            for t in targets:
                found = _target(t, mods)
                if found is not None and found != name:
                    out.add((name, found))
    return out


def floor_of(module: str) -> int | None:
    best: tuple[int, int] | None = None  # (prefix length, floor)
    for i, (_, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            inside = module == prefix or module.startswith(prefix + ".")
            if inside and (best is None or len(prefix) > best[0]):
                best = (len(prefix), i)
    return None if best is None else best[1]


def circles(graph: set[tuple[str, str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    adj: dict[str, list[str]] = defaultdict(list)
    for a, b in sorted(graph):
        adj[a].append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted({n for e in graph for n in e}):
        if root in index:
            continue
        work = [(root, iter(adj[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(adj[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


@dataclass(frozen=True)
class Report:
    modules: int
    imports: int
    circles: list[list[str]]
    upward: list[tuple[str, str]]
    unplaced: list[str]
    core_to_surface: list[tuple[str, str]]

    @property
    def ok(self) -> bool:
        return not (self.circles or self.unplaced or self.core_to_surface) and (
            len(self.upward) <= MAX_UPWARD
        )


def report(mods: dict[str, Path], graph: set[tuple[str, str]]) -> Report:
    core = {(a, b) for a, b in graph if a.startswith("clef_tools") and b.startswith("clef_tools")}
    floors = {m: floor_of(m) for m in mods if m.startswith("clef_tools")}
    return Report(
        modules=len(mods),
        imports=len(graph),
        circles=circles(core),
        upward=sorted((a, b) for a, b in core if (floors[b] or 0) > (floors[a] or 0)),
        unplaced=sorted(m for m, f in floors.items() if f is None),
        core_to_surface=sorted(
            (a, b)
            for a, b in graph
            if a.startswith("clef_tools") and not b.startswith("clef_tools")
        ),
    )


def _box(module: str) -> str:
    """The box a module is drawn in: its folder (a package's modules are one box), its own
    box for a top-level module, and the backends' own modules by floor (contract, registry)."""
    if not module.startswith("clef_tools"):
        return module.split(".")[0]
    package = module.endswith(".__init__")
    parts = module.removesuffix(".__init__").split(".")
    folder = parts if package or len(parts) == 2 else parts[:-1]
    box = ".".join(folder[:3])
    if box == "clef_tools.backends":
        floor = floor_of(module)
        return f"backends ({FLOORS[floor][0] if floor is not None else '?'})"
    return box


def draw(mods: dict[str, Path], graph: set[tuple[str, str]]) -> Path:
    """The floors, bottom up: one box per folder, an arrow per folder that imports another
    (labelled with how many imports)."""
    boxes: dict[str, int] = {}
    for m in mods:
        floor = floor_of(m)
        box = _box(m)
        boxes[box] = max(boxes.get(box, -1), floor if floor is not None else len(FLOORS))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for a, b in graph:
        if _box(a) != _box(b):
            counts[(_box(a), _box(b))] += 1
    lines = ["digraph floors {", "  rankdir=BT; node [shape=box, fontsize=11]; newrank=true;"]
    for i, (name, _) in enumerate((*FLOORS, ("surfaces", ()))):
        members = [b for b, f in boxes.items() if f == i]
        if members:
            lines.append(f'  subgraph cluster_{i} {{ label="{name}"; rank=same;')
            lines += [
                f'    "{b}" [label="{b.removeprefix("clef_tools.")}"];' for b in sorted(members)
            ]
            lines.append("  }")
    lines += [
        f'  "{a}" -> "{b}" [label="{n}", fontsize=8];' for (a, b), n in sorted(counts.items())
    ]
    lines.append("}")
    out = ROOT / "docs" / "import-graph.dot"
    out.write_text("\n".join(lines) + "\n")
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tpng", str(out), "-o", str(out.with_suffix(".png"))], check=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check the floors; draw nothing")
    args = parser.parse_args()
    mods = modules()
    graph = edges(mods)
    found = report(mods, graph)
    lines = [f"circle: {c}" for c in found.circles]
    lines += [f"upward: {a} -> {b}" for a, b in found.upward]
    lines += [f"unplaced: {m}" for m in found.unplaced]
    lines += [f"core -> surface: {a} -> {b}" for a, b in found.core_to_surface]
    lines.append(
        f"{found.modules} modules, {found.imports} imports; {len(found.circles)} circles, "
        f"{len(found.upward)} upward imports (at most {MAX_UPWARD}), "
        f"{len(found.unplaced)} unplaced, {len(found.core_to_surface)} core -> surface"
    )
    sys.stdout.write("\n".join(lines) + "\n")
    if not args.check:
        draw(mods, graph)
    return 0 if found.ok else 1


if __name__ == "__main__":
    sys.exit(main())
