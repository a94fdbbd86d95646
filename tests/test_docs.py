"""The docs a newcomer reads stay true: generated tables match the benchmark results they
come from, the README stays short and its links and code blocks are sound."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_generated_tables_equal_what_the_results_give() -> None:
    """Tables of figures are rendered from bench/results/*.json by scripts/docs_tables.py;
    a page edited by hand or left stale after a new run fails here."""
    done = subprocess.run(
        [sys.executable, "scripts/docs_tables.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_readme_is_short_and_carries_no_figure_tables() -> None:
    assert len(README.splitlines()) <= 150
    # its only table is the extras table: figures live in the generated pages
    tables = re.findall(r"(?m)^\|.*\|$", README)
    assert all("ms" not in row and " s |" not in row for row in tables)


def test_readme_links_resolve_and_its_python_blocks_parse() -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) >= 3
    for block in blocks:
        ast.parse(block)


def test_readme_names_the_fast_backends_and_the_cli_help_lists_them() -> None:
    for spec in ("`embedding`", "`cascade`"):
        assert spec in README
    from clef_tools.backends import spec_forms

    assert "'embedding[:ENCODER-DIR]'" in spec_forms() and "'cascade[:SPEC]'" in spec_forms()


def test_links_between_doc_pages_resolve() -> None:
    for page in (ROOT / "docs").glob("*.md"):
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text()):
            if not target.startswith("http"):
                assert (page.parent / target).exists(), f"{page.name}: {target}"
