"""Database clients: a query they are handed is judged as SQL or as the store's own
commands."""

from __future__ import annotations

import re
from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._shell._common import args_after, flag_value, operands_of, shell_words

_DB_QUERY_FLAGS = {
    "psql": ("-c", "--command"),
    "mysql": ("-e", "--execute"),
    "mariadb": ("-e", "--execute"),
    "sqlite3": (),
    "duckdb": ("-c",),
    "clickhouse-client": ("-q", "--query"),
}


_MONGO_READ = re.compile(
    r"\.(?:find|findOne|count|countDocuments|estimatedDocumentCount|aggregate|distinct|"
    r"stats|getIndexes|explain|getCollectionNames|getCollectionInfos|getName|getUsers|"
    r"getRoles|serverStatus|hostInfo|version|currentOp|isMaster|hello|listCollections)"
    r"\s*\(|\bshow\s+(?:dbs|databases|collections|tables|users|roles)\b|db\.stats\(",
    re.I,
)


_MONGO_DELETE = re.compile(r"\.(?:delete\w*|remove|drop\w*|findOneAndDelete)\s*\(", re.I)


_MONGO_WRITE = re.compile(r"\.(?:insert\w*|update\w*|replace\w*|save|rename\w*)\s*\(", re.I)


#: sqlite3's dot-commands that show the database and change nothing.
_SQLITE_SHOWS = frozenset(
    [".tables", ".schema", ".indexes", ".indices", ".databases", ".dump", ".fullschema",
     ".dbinfo", ".show", ".stats", ".help", ".lint", ".expert"]
)  # fmt: skip


_REDIS_VALUE_FLAGS = frozenset(
    ["-h", "-p", "-a", "-n", "-u", "-s", "-i", "-r", "-d", "--user", "--pass", "--pattern",
     "--count", "--cacert", "--cert", "--key", "--sni"]
)  # fmt: skip


def database_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """A database client is judged by the statement it carries (`psql -c "DROP …"`)."""
    from clef_tools.gate._sql import describe_effect, sql_effects

    if tool in ("mongosh", "mongo"):
        code = " ".join(args_after(args, "--eval")[:1])
        if not code:
            return [Effect("unknown", what=text)]
        if _MONGO_DELETE.search(code):
            unfiltered = bool(re.search(r"\(\s*\{\s*\}\s*\)|\.drop\w*\(", code))
            return [Effect("delete", reversible=False, high_impact=unfiltered, what=text)]
        if _MONGO_WRITE.search(code):
            return [Effect("modify", reversible=False, what=text)]
        if _MONGO_READ.search(code):
            return [Effect("read", what=text)]
        return [Effect("unknown", what=text)]
    if tool == "redis-cli":
        # `-h host`, `-p 6380`, `--pattern 'session:*'`: a flag's value is not the command
        words = operands_of(args, _REDIS_VALUE_FLAGS)
        verb = words[0].lower() if words else ""
        if not verb and set(args) & {"--scan", "--bigkeys", "--memkeys", "--stat", "--latency"}:
            return [Effect("read", what=text)]  # a scan or a report of the keys
        if not verb:
            return [Effect("unknown", what=text)]
        if verb in ("flushall", "flushdb"):
            return [Effect("delete", reversible=False, high_impact=True, what=text)]
        # what it acts on is its keys, not the command's own name (`DEL sessions`)
        if verb in ("del", "unlink", "expire", "hdel", "srem", "zrem", "lpop", "rpop"):
            keys = tuple(words[1:2] if verb in ("expire", "hdel", "srem", "zrem") else words[1:])
            return [Effect("delete", reversible=False, what=text, objects=keys)]
        if verb in shell_words("redis_read"):
            return [Effect("read", what=text, objects=tuple(words[1:2]))]
        return [Effect("modify", reversible=False, what=text, objects=tuple(words[1:2]))]
    flags = _DB_QUERY_FLAGS.get(tool, ())
    query = flag_value(args, flags)
    if query is None and tool in ("sqlite3", "duckdb"):
        positional = [a for a in args if not a.startswith("-")]
        query = positional[1] if len(positional) > 1 else None
    if query is None:
        return [Effect("unknown", what=text)]  # an interactive session or a script file
    if tool in ("sqlite3", "duckdb") and query.lstrip().startswith("."):
        # a dot-command: `.tables`, `.schema users` show; `.import`, `.restore` load
        dot = query.split(None, 1)[0].lower()
        if dot in _SQLITE_SHOWS:
            return [Effect("read", what=text)]
        if dot in (".import", ".restore", ".load"):
            return [Effect("modify", reversible=False, what=text)]
        return [Effect("unknown", what=text)]
    if tool == "psql" and query.lstrip().lower().startswith("\\copy"):
        return [_psql_copy(query.lstrip()[5:].strip(), text)]
    described = describe_effect(query) if tool == "psql" else None
    return list((described or sql_effects(query)).effects)


def _psql_copy(rest: str, text: str) -> Effect:
    """psql's `\\copy (query) TO 'file'` / `\\copy table TO 'file'` writes a local file;
    `FROM 'file'` loads one into a table."""
    from clef_tools.gate._sql import sql_effects

    inner = ""
    if rest.startswith("("):
        depth = 0
        for n, ch in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                inner, rest = rest[1:n], rest[n + 1 :]
                break
        else:
            return Effect("unknown", what=text)
    else:
        rest = rest.split(None, 1)[1] if " " in rest else ""
    direction = rest.split(None, 1)[0].lower() if rest.strip() else ""
    if direction == "from":
        return Effect("modify", reversible=False, what=text)
    if direction != "to" or (inner and not sql_effects(inner).read_only):
        return Effect("unknown", what=text)
    return Effect("create", what=text)
