"""A line of Python the agent runs is read by Python's own parser: only code whose every
import, call and assignment looks at data without changing it counts as a read."""

from __future__ import annotations

import shlex
from typing import Any

import pytest
from _gate_alone import alone

from clef_tools.gate._call_effect import call_effect
from clef_tools.gate._shell import shell_effects

READS = [
    "import json; print(json.load(open('package.json'))['version'])",
    "import pathlib; print(sum(len(p.read_text().splitlines()) for p in pathlib.Path('.').rglob('*.py')))",
    "import sys; print(sys.version)",
    "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['name'])",
    "from collections import Counter; import csv; print(Counter(r['city'] for r in csv.DictReader(open('a.csv'))).most_common(3))",
    "import os; print([k for k in os.environ if k.startswith('APP_')])",
    "import platform; print(platform.system())",
]
RUNS = [
    "import shutil; shutil.rmtree('.venv')",
    "import os; os.remove('db.sqlite')",
    "import os; os.system('rm -rf build')",
    "import subprocess; subprocess.run(['make'])",
    "open('out.txt', 'w').write('x')",
    "import pathlib; pathlib.Path('a.txt').write_text('')",
    "import pathlib; pathlib.Path('a.txt').open('w')",
    "import pathlib; pathlib.Path('a.txt').unlink()",
    "import json; json.dump({}, open('cfg.json', 'w'))",
    "import os; os.environ['PATH'] = '/tmp'",
    "exec(open('setup_hook.py').read())",
    "print(().__class__.__bases__[0].__subclasses__())",
    "import requests; print(requests.get('https://x.example').text)",
    "print(",  # does not parse
]


@pytest.mark.parametrize("code", READS)
def test_python_that_only_reads_is_a_read(code: str) -> None:
    assert shell_effects(f'python -c "{code}"').kinds == {"read"}


@pytest.mark.parametrize("code", RUNS)
def test_python_that_changes_or_runs_anything_else_is_unknown(code: str) -> None:
    """A program the call writes itself: not the project's, and not judged by the tables
    (the model tier, or a person, reads it)."""
    assert shell_effects(f'python3 -c "{code}"').kinds == {"unknown"}


@pytest.mark.parametrize(
    "command",
    [
        "node -e \"require('child_process').execSync('rm -rf ~')\"",
        "ruby -e 'FileUtils.rm_rf(Dir.home)'",
        "perl -e 'unlink glob(\"*\")'",
    ],
)
def test_inline_code_of_other_interpreters_is_unknown(command: str) -> None:
    assert shell_effects(command).kinds == {"unknown"}
    # "run the tests" licenses the project's checks, not a program written in the call
    assert alone("Run the tests", "Bash", {"command": command}).verdict != "allow"


def test_a_python_read_of_what_the_user_asked_about_goes_through_alone() -> None:
    said = "What version is in package.json?"
    code = "import json; print(json.load(open('package.json'))['version'])"
    assert alone(said, "Bash", {"command": f'python -c "{code}"'}).verdict == "allow"
    wipe = "import os; os.remove('package.json')"
    assert alone(said, "Bash", {"command": f'python -c "{wipe}"'}).verdict != "allow"


@pytest.mark.parametrize("code", RUNS)
def test_python_quoted_in_pieces_is_read_whole(code: str) -> None:
    """`shlex.quote` writes a quote inside single quotes as `'"'"'`: the pieces are one
    argument, read as the program receives it (as adjacent string literals, the raw text
    would parse as Python that does nothing)."""
    assert shell_effects("python3 -c " + shlex.quote(code)).kinds == {"unknown"}


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("execute_python", {"code": "print(0.17 * 2340)"}),
        ("run_code", {"code": "import statistics; print(statistics.mean([3, 4]))",
                      "language": "python"}),
    ],
)  # fmt: skip
def test_a_code_interpreters_cell_that_only_reads_is_a_read(
    tool: str, args: dict[str, Any]
) -> None:
    assert call_effect(tool, args).kinds == {"read"}
    assert alone("What's 17% of 2,340?", tool, args).verdict == "allow"


@pytest.mark.parametrize("code", RUNS)
def test_a_code_interpreters_cell_that_changes_anything_is_not_allowed_alone(code: str) -> None:
    assert call_effect("execute_python", {"code": code}).kinds == {"unknown"}
    assert alone("Plot sales.csv by month", "execute_python", {"code": code}).verdict != "allow"


def test_code_in_another_language_is_not_read_as_python() -> None:
    # `print(1)` is a read in Python; in a Ruby cell it is the model's to judge
    assert call_effect("run_code", {"code": "print(1)", "language": "ruby"}).kinds != {"read"}
