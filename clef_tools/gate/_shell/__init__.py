"""Shell commands, judged part by part: tree-sitter's bash grammar splits a command into its
simple commands (pipelines, `&&`, `;`, subshells, `$(…)`), redirections and prefixes
(`sudo`, `env`, `xargs`), and `bash -c '…'` is parsed again (`_walk`); each simple command
is classified by `classify_command` (`_classify`), which hands it to the module for its
kind of tool, whose word lists are `effects.toml`'s `[shell]` table.

Never raises: a command that does not parse, or is longer than `MAX_COMMAND_CHARS`, carries
its reason as `parse_error`, and the gate never allows it on the evidence alone.
"""

from clef_tools.gate._shell._classify import classify_command
from clef_tools.gate._shell._common import beyond_project
from clef_tools.gate._shell._packages import registry_as_said
from clef_tools.gate._shell._walk import shell_effects

__all__ = ["beyond_project", "classify_command", "registry_as_said", "shell_effects"]
