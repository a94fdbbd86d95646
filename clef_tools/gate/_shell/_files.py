"""Commands on files: removals, archives, in-place edits, moves and sorts."""

from __future__ import annotations

from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._insecure import sed_turns_off_checks
from clef_tools.gate._shell._common import (
    BROAD,
    HARMLESS_TARGETS,
    SCRATCH,
    beyond_project,
    flag_value,
    flag_values,
    flags_of,
    operands_of,
    rebuilt,
)
from clef_tools.gate._shell._objects import command_objects
from clef_tools.gate._weakened import sed_weakens_tests


def remove_effects(tool: str, args: Sequence[str], text: str, elevated: bool) -> list[Effect]:
    flags = flags_of(args)
    recursive = bool(flags & {"r", "R", "--recursive"})
    operands = operands_of(args)
    broad = any(BROAD.match(o) for o in operands)
    if tool == "rm" and operands and not broad and not elevated and all(map(rebuilt, operands)):
        # `rm -rf node_modules dist`: what the project's tools make again can be made again
        return [Effect("delete", what=text, action="rebuild")]
    impact = broad or (recursive and elevated)
    return [Effect("delete", reversible=False, high_impact=impact, what=text)]


def archive_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`tar czf logs.tgz logs`, `zip -r site.zip site`: an archive made beside what it
    holds; `tar x`, `unzip`: files written out of it, over any of the same name; `tar t`,
    `unzip -l`: its listing read. `gzip file` replaces the file with its compressed form."""
    flags = flags_of(args[:1] if tool == "tar" and args and not args[0].startswith("-") else args)
    if tool == "tar" and args and not args[0].startswith("-"):
        flags |= set(args[0])  # `tar czf`: the old form, flags without a dash
    if (tool == "tar" and flags & {"t", "--list"}) or (tool == "unzip" and flags & {"l", "Z"}):
        return [Effect("read", what=text)]
    if (tool == "tar" and flags & {"x", "--extract", "--get"}) or tool == "unzip":
        # where the files are written is what it acts on too: `-C /` writes over the system
        into = ("-C", "--directory") if tool == "tar" else ("-d",)
        dest = flag_value(args, into, ("--directory",)) or ""
        objects = tuple(dict.fromkeys((*command_objects([tool, *args]), dest))) if dest else ()
        return [Effect("modify", what=text, objects=objects)]
    if tool in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd"):
        keeps = bool(flags & {"k", "c", "--keep", "--stdout", "l", "t", "--list", "--test"})
        return [Effect("read" if flags & {"l", "t", "--list", "--test"} else
                       "create" if keeps else "modify", what=text)]  # fmt: skip
    if tool == "tar" and "--remove-files" in args:
        # the files put in the archive are removed from where they were
        return [Effect("create", what=text), Effect("delete", what=text, action="archive-away")]
    return [Effect("create", what=text)]


def sed_effects(args: Sequence[str], flags: set[str], text: str) -> Effect:
    """`sed -i` edits its files; on a test file, dropping or defusing an assertion is the
    action `weaken-tests` (`_weakened`)."""
    if not flags & {"i", "--in-place"} and not any(a.startswith("-i") for a in args):
        return Effect("read", what=text)
    scripts = flag_values(args, ("-e", "--expression"))
    operands = operands_of(args, frozenset(["-e", "--expression", "-f", "--file"]))
    if not scripts and operands:
        scripts, operands = operands[:1], operands[1:]
    if sed_weakens_tests(scripts, operands):
        return Effect("modify", what=text, action="weaken-tests")
    insecure = sed_turns_off_checks(scripts)
    return Effect("modify", what=text, action="weaken-security" if insecure else "")


def sort_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`sort -o data.csv data.csv`, `uniq in.txt out.txt`: a file written, which a sort
    or a count to the screen only reads."""
    if tool == "sort":
        out = flag_value(args, ("-o", "--output"), ("--output",)) or ""
    else:
        operands = operands_of(args, frozenset(["-f", "-s", "-w", "--skip-fields"]))
        out = operands[1] if len(operands) > 1 else ""
    return [Effect("modify", what=text)] if out else [Effect("read", what=text)]


def move_effects(args: Sequence[str], text: str) -> list[Effect]:
    """`mv a b`: a rename, or with a destination past the project (`/tmp/`, `~/`, `../`)
    the files taken out of it; `-t DIR` names the destination first."""
    operands = operands_of(args, frozenset(["-t", "--target-directory", "-S", "--suffix"]))
    target = flag_value(args, ("-t", "--target-directory"), ("--target-directory",))
    dst = target or (operands[-1] if len(operands) >= 2 else "")
    if dst in HARMLESS_TARGETS:
        # `mv notes.md /dev/null`: the file is gone
        return [Effect("delete", reversible=False, what=text)]
    leaves = bool(dst) and (beyond_project(dst) or bool(SCRATCH.match(dst)))
    return [Effect("modify", what=text, moved_to=dst if leaves else "")]
