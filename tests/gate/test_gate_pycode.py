"""A line of Python the agent runs is read by Python's own parser: only code whose every
import, call and assignment looks at data without changing it counts as a read."""

from __future__ import annotations

import pytest
from _gate_alone import alone

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
