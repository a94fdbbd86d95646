"""Draw the import graph of the installed packages: files as boxes, imports as arrows.

    .venv/bin/python scripts/import_graph.py   # docs/import-graph.dot, and .png with graphviz

Boxes are grouped by package and folder, so the picture shows the layering: surfaces
(`langchain_clef`, `clef_mcp`) import the core, the core never imports a surface, and
surfaces import only the core's public names (plus a few request-model helpers).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "clef_tools": ROOT / "clef_tools",
    "langchain_clef": ROOT / "adapters",
    "clef_mcp": ROOT / "mcp_server",
}


def modules() -> dict[str, Path]:
    found = {}
    for name, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            dotted = ".".join((name, *parts)).removesuffix(".__init__")
            found[dotted] = path
    return found


def edges(mods: dict[str, Path]) -> set[tuple[str, str]]:
    out = set()
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for t in targets:
                if t in mods and t != name and not t.endswith(".__init__"):
                    out.add((name, t))
    return out


def main() -> None:
    mods = modules()
    graph = edges(mods)
    clusters: dict[str, list[str]] = defaultdict(list)
    for name in mods:
        clusters[name.rsplit(".", 1)[0] if name.count(".") > 1 else name.split(".")[0]].append(name)
    lines = ["digraph imports {", "  rankdir=LR; node [shape=box, fontsize=10];"]
    for i, (cluster, names) in enumerate(sorted(clusters.items())):
        lines.append(f'  subgraph cluster_{i} {{ label="{cluster}";')
        lines += [f'    "{n}" [label="{n.rsplit(".", 1)[-1]}"];' for n in names]
        lines.append("  }")
    lines += [f'  "{a}" -> "{b}";' for a, b in sorted(graph)]
    lines.append("}")
    out = ROOT / "docs" / "import-graph.dot"
    out.write_text("\n".join(lines) + "\n")
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tpng", str(out), "-o", str(out.with_suffix(".png"))], check=True)
    cross = sorted(
        (a, b) for a, b in graph if a.startswith("clef_tools") and not b.startswith("clef_tools")
    )
    summary = f"{len(mods)} modules, {len(graph)} imports; core -> surface: {cross or 'none'}"
    print(summary)  # noqa: T201 - the script's report


if __name__ == "__main__":
    main()
