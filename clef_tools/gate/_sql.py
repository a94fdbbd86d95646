"""SQL a call carries, judged by statement with sqlglot's parser: `SELECT` reads, `DELETE` or
`UPDATE` without `WHERE`, a `DELETE` of rows picked by a range or a pattern rather than a
key, `DROP`, `TRUNCATE` are high-impact, `GRANT`/`REVOKE` change access
(far-reaching when they grant everything, to everyone, or revoke).
What does not parse, or parses as no statement kind we know, is `unknown`."""

from __future__ import annotations

import contextvars
import logging
import re
from typing import Any

from clef_tools.gate._effects import MAX_COMMAND_CHARS, CallEffect, Effect, table

__all__ = ["MAX_SQL_STATEMENTS", "describe_effect", "sql_effects", "sql_privileges"]

MAX_SQL_STATEMENTS = 64
#: Statements some dialects keep as raw commands: still access changes.
_ACCESS = frozenset({"GRANT", "REVOKE"})


#: Set while the gate parses: sqlglot warns with the whole statement on its logger when it
#: falls back to a raw command, and a statement can carry a password; the gate reports
#: what it could not parse in its own reason, masked where it is kept.
_PARSING = contextvars.ContextVar("clef_gate_sql_parsing", default=False)


def _not_while_parsing(record: logging.LogRecord) -> bool:
    return not _PARSING.get()


logging.getLogger("sqlglot").addFilter(_not_while_parsing)

#: Terminal colour codes sqlglot puts around the token an error points at.
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


_BROAD_GRANT = re.compile(
    r"\bALL\b(?:\s+PRIVILEGES)?\s+ON\b|\bTO\s+PUBLIC\b|\bWITH\s+(?:GRANT|ADMIN)\s+OPTION\b"
    r"|\bSUPERUSER\b|\bREVOKE\b",
    re.IGNORECASE,
)


def _literals(where: Any) -> tuple[str, ...]:
    """The values a `WHERE` picks rows by (`id = 5531`, `email LIKE '%@test.local'`): the
    rows are the user's objects only if these are their words."""
    from sqlglot import exp

    out = []
    for literal in where.find_all(exp.Literal):
        value = str(literal.this).strip("%_ ")
        if value:
            out.append(value)
    return tuple(dict.fromkeys(out))[:16]


#: Columns whose value picks one row (`id = 5531`, `sku = 'A-113'`, `order_id IN (…)`).
_KEY_COLUMN = re.compile(
    r"^(?:\w+_)?(?:id|uuid|guid|key|pk|sku|email|username|login|handle|slug|code|ref|number|no)$",
    re.IGNORECASE,
)


def _pinned(where: Any) -> bool:
    """Whether a `WHERE` picks rows by a key (`id = 5531`, `email = 'a@b.c'`, `id IN (…)`),
    not by a range or a pattern that may match any number of them (`created_at <
    '2025-01-01'`, `email LIKE '%@test.example'`)."""
    from sqlglot import exp

    for node in where.find_all(exp.EQ, exp.In):
        column = node.this if isinstance(node.this, exp.Column) else node.expression
        values = [node.expression] if isinstance(node, exp.EQ) else node.expressions
        if (
            isinstance(column, exp.Column)
            and _KEY_COLUMN.match(column.name or "")
            and values
            and all(isinstance(v, exp.Literal) for v in values)
        ):
            return True
    return False


def _settings(update: Any) -> tuple[tuple[str, float], ...]:
    """`SET price = 249.9, qty = -3`: the numbers an `UPDATE` writes, by column."""
    from sqlglot import exp

    out = []
    for assignment in update.expressions[:32]:
        value = assignment.expression
        sign = -1.0 if isinstance(value, exp.Neg) else 1.0
        literal = value.this if isinstance(value, exp.Neg) else value
        if not isinstance(assignment, exp.EQ) or not isinstance(literal, exp.Literal):
            continue
        if literal.is_string:
            continue
        try:
            out.append((str(assignment.this.name).lower(), sign * float(str(literal.this))))
        except ValueError:
            continue
    return tuple(out[:16])


#: Columns whose text value is a state the user names ("mark it as shipped").
_STATE_COLUMNS = frozenset(["status", "state", "stage", "phase", "role", "plan", "tier"])
_GRANT_OBJECTS = re.compile(
    r"\bON\s+(?:TABLE\s+|SCHEMA\s+|DATABASE\s+|ALL\s+TABLES\s+IN\s+SCHEMA\s+)?"
    r"([\w.\"]+)|\b(?:TO|FROM)\s+([\w.\"]+)",
    re.IGNORECASE,
)


def _states(update: Any) -> tuple[str, ...]:
    """`SET status = 'refunded'`: the states an `UPDATE` writes, which the user must name."""
    from sqlglot import exp

    out = []
    for assignment in update.expressions[:32]:
        value = assignment.expression
        if (
            isinstance(assignment, exp.EQ)
            and isinstance(value, exp.Literal)
            and value.is_string
            and str(assignment.this.name).lower() in _STATE_COLUMNS
        ):
            out.append(str(value.this)[:80])
    return tuple(out[:8])


def _grant_objects(text: str) -> tuple[str, ...]:
    """`GRANT SELECT ON salaries TO analyst`: the table and the grantee."""
    # `TO PUBLIC` is everyone (judged as far-reaching), not a name; the `public` schema
    # is a name like any other
    found = [a or b for a, b in _GRANT_OBJECTS.findall(text[:2000]) if a or b.upper() != "PUBLIC"]
    return tuple(f.strip('"') for f in found)[:8]


#: Privileges beyond reading, by the role words people use for them.
_SQL_PRIVILEGE = re.compile(
    r"^\s*GRANT\s+(ALL(?:\s+PRIVILEGES)?|[A-Z, ]*?\b(?:INSERT|UPDATE|DELETE|TRUNCATE)\b[A-Z, ]*?)"
    r"\s+ON\b",
    re.IGNORECASE,
)


def sql_privileges(statement: str) -> set[str]:
    """`GRANT ALL ON sales TO analyst` is full access, `GRANT INSERT, UPDATE …` write
    access: the roles a user asking for "read access" did not ask for."""
    match = _SQL_PRIVILEGE.match(statement)
    if match is None:
        return set()
    return {"full" if match.group(1).upper().startswith("ALL") else "write"}


#: psql's describe commands (`\d orders`, `\dt+`, `\l`): the catalogue, nothing run.
_PSQL_DESCRIBE = re.compile(
    r"\\(?:d[tivmsnfuTSEx]?\+?|l\+?|dn\+?|du\+?|conninfo)(?:\s+[\w.\"*]+)?;?"
)


#: `CREATE ROLE x …`, `ALTER USER x …` (sqlglot reads them as raw commands).
_ACCOUNT = re.compile(r"^\s*(?:ROLE|USER)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\"[^\"]+\"|[\w.]+)", re.I)
#: Powers of a role over the whole server.
_POWERS = re.compile(
    r"\b(?:SUPERUSER|CREATEROLE|CREATEDB|BYPASSRLS|REPLICATION|ALL\s+PRIVILEGES)\b", re.I
)


def _account_change(statement: Any) -> tuple[str, bool] | None:
    """The role a `CREATE`/`ALTER ROLE|USER` command makes or changes, and whether it
    gives that role powers over the whole server."""
    from sqlglot import exp

    if not isinstance(statement, exp.Command) or str(statement.this).upper() not in (
        "CREATE",
        "ALTER",
    ):
        return None
    rest = str(statement.args.get("expression") or "")
    found = _ACCOUNT.match(rest)
    if found is None:
        return None
    return found.group(1).strip('"'), bool(_POWERS.search(rest))


#: The words of `VACUUM`/`REINDEX` that are options, not the table they act on.
_UPKEEP_OPTIONS = frozenset(
    ["FULL", "FREEZE", "VERBOSE", "ANALYZE", "ANALYSE", "TABLE", "INDEX", "DATABASE", "SCHEMA",
     "SYSTEM", "CONCURRENTLY", "SKIP_LOCKED", "PARALLEL"]
)  # fmt: skip


def _maintenance(statement: Any) -> tuple[tuple[str, ...], bool] | None:
    """The tables a `VACUUM` or `REINDEX` keeps up, and whether it is a full rewrite."""
    from sqlglot import exp

    if not isinstance(statement, exp.Command) or str(statement.this).upper() not in (
        "VACUUM",
        "REINDEX",
    ):
        return None
    rest = str(statement.args.get("expression") or "")
    parts = re.findall(r"[\w.\"]+", re.sub(r"\([^)]*\)", " ", rest))
    tables = tuple(p.strip('"') for p in parts if p.upper() not in _UPKEEP_OPTIONS)[:8]
    return tables, "FULL" in (p.upper() for p in parts)


def describe_effect(query: str) -> CallEffect | None:
    """A psql describe command's effect (a read of the catalogue), or None for any other
    query."""
    if _PSQL_DESCRIBE.fullmatch(query.strip()) is None:
        return None
    return CallEffect((Effect("read", what=query.strip()[:200]),), "sql")


#: `EXPLAIN`, its options (`(ANALYZE, BUFFERS)`, `ANALYZE VERBOSE`, MySQL's `FORMAT=JSON`).
_EXPLAIN = re.compile(
    r"^\s*(?:EXPLAIN|DESCRIBE|DESC)\s+(?=[\w(])(?:\([^)]{0,200}\)\s*|(?:ANALY[SZ]E|VERBOSE|"
    r"FORMAT\s*=\s*\w+|QUERY\s+PLAN(?:\s+FOR)?|EXTENDED)\s+)*(?=(?:SELECT|WITH|INSERT|UPDATE|"
    r"DELETE|MERGE|REPLACE|VALUES|TABLE)\b)",
    re.IGNORECASE,
)


def _unparsed(query: str, why: str) -> CallEffect:
    return CallEffect((Effect("unknown", what=query[:80]),), "unparsed", why)


def sql_effects(query: str) -> CallEffect:
    """Each statement's effect. Never raises: a failure is the reason on an unknown effect."""
    if len(query) > MAX_COMMAND_CHARS:
        return _unparsed(
            query, f"the query is {len(query)} characters; at most {MAX_COMMAND_CHARS} are read"
        )
    explained = _EXPLAIN.match(query)
    if explained is not None:
        # `EXPLAIN …` plans a statement without running it; with `ANALYZE` it runs it
        rest = query[explained.end() :]
        if not re.search(r"\bANALY[SZ]E\b", explained.group(0), re.IGNORECASE):
            return CallEffect((Effect("read", what=query.strip()[:200]),), "sql")
        return sql_effects(rest)
    import sqlglot
    from sqlglot import exp

    token = _PARSING.set(True)
    try:
        statements = [s for s in sqlglot.parse(query) if s is not None]
    except Exception as exc:  # ParseError, TokenError, or a bug in a dialect: never raised
        return _unparsed(query, f"SQL does not parse: {_ANSI.sub('', str(exc))[:200]}")
    finally:
        _PARSING.reset(token)
    if not statements or len(statements) > MAX_SQL_STATEMENTS:
        return _unparsed(query, f"SQL: {len(statements)} statements")
    effects: list[Effect] = []
    for statement in statements:
        text = statement.sql()[:200]
        if isinstance(statement, exp.Select | exp.Union):
            # `WITH gone AS (DELETE … RETURNING id) SELECT …`: a query that changes rows
            # in a common table expression is judged by the change
            inner = statement.find(exp.Delete, exp.Update, exp.Insert)
            statement = inner if inner is not None else statement
        where = statement.args.get("where")
        unfiltered = where is None
        rows = _literals(where) if where is not None else ()
        called = (
            {f.name.lower() for f in statement.find_all(exp.Anonymous)}
            if isinstance(statement, exp.Select | exp.Union)
            else set()
        )
        if called & table().shell["sql_delete"]:
            # `SELECT pg_terminate_backend(pid) FROM pg_stat_activity`: a query that ends
            # sessions (or drops what the server keeps), whatever it returns
            effects.append(Effect("delete", reversible=False, what=text))
        elif called & table().shell["sql_configure"]:
            effects.append(Effect("configure", what=text))
        elif isinstance(statement, exp.Select | exp.Union | exp.Describe | exp.Show):
            effects.append(Effect("read", what=text))
        elif isinstance(statement, exp.Insert):
            effects.append(Effect("create", what=text))
            conflict = statement.args.get("conflict")
            if isinstance(conflict, exp.OnConflict) and conflict.expressions:
                # an upsert: a row that is there already is changed, not added
                effects.append(
                    Effect(
                        "modify",
                        reversible=False,
                        what=text,
                        action="upsert",
                        settings=_settings(conflict),
                    )
                )
        elif isinstance(statement, exp.Update):
            # a `WHERE` that picks by no value (`UPDATE orders … FROM customers WHERE
            # orders.customer_id = customers.id`, a join) picks every row it joins
            effects.append(
                Effect(
                    "modify",
                    reversible=False,
                    high_impact=unfiltered or not rows,
                    what=text,
                    objects=rows + _states(statement),
                    settings=_settings(statement),
                )
            )
        elif isinstance(statement, exp.Delete):
            # rows picked by a range or a pattern: "deleting many items", confirmed even when
            # asked for
            bulk = unfiltered or not _pinned(where)
            effects.append(
                Effect("delete", reversible=False, high_impact=bulk, what=text, objects=rows)
            )
        elif isinstance(statement, exp.Drop | exp.TruncateTable):
            effects.append(Effect("delete", reversible=False, high_impact=True, what=text))
        elif isinstance(statement, exp.Grant | exp.Revoke) or (
            isinstance(statement, exp.Command) and str(statement.this).upper() in _ACCESS
        ):
            # a grant of everything, to everyone, or passed on, is far-reaching; `GRANT SELECT
            # ON sales TO analytics` is the access change itself
            broad = bool(_BROAD_GRANT.search(text))
            effects.append(
                Effect("grant", high_impact=broad, what=text, objects=_grant_objects(text))
            )
        elif isinstance(statement, exp.Copy) and not re.search(r"\bPROGRAM\b", text, re.I):
            # `COPY users TO '/tmp/users.csv'`: the table written out to a file (an export);
            # `COPY users FROM …`: rows added from one. `TO PROGRAM` runs a command: unknown
            files = tuple(str(f.this if hasattr(f, "this") else f).strip("'\"") for f in
                          statement.args.get("files") or [])[:4]  # fmt: skip
            effects.append(Effect("create", what=text, objects=files))
        elif (account := _account_change(statement)) is not None:
            # `CREATE ROLE bi_reader NOLOGIN`: a login or a role is access; one with
            # SUPERUSER, BYPASSRLS or the right to make roles is access to everything
            name, powers = account
            effects.append(
                Effect("grant", reversible=False, high_impact=powers, what=text, objects=(name,))
            )
        elif (upkeep := _maintenance(statement)) is not None:
            # `VACUUM ANALYZE orders`, `REINDEX TABLE orders`: the table kept in shape, its
            # rows as they were; `VACUUM FULL` rewrites (and locks) every table it reaches
            tables, full = upkeep
            effects.append(Effect("execute", high_impact=full and not tables, what=text,
                                  objects=tables))  # fmt: skip
        elif isinstance(statement, exp.Create):
            # an index is on a table, which the user must have named
            on = _table_of(statement) if str(statement.args.get("kind")).upper() == "INDEX" else ()
            effects.append(Effect("create", what=text, objects=on))
        elif isinstance(statement, exp.Alter):
            actions = statement.args.get("actions") or []
            altered = _table_of(statement)
            if any(isinstance(a, exp.Drop) for a in actions):
                # a dropped column takes every row's value with it: high-impact on any
                # table, named or not
                effects.append(Effect("delete", reversible=False, high_impact=True, what=text))
            elif actions and all(isinstance(a, exp.ColumnDef) for a in actions):
                # `ADD COLUMN`: nothing is lost
                effects.append(Effect("create", what=text, objects=altered))
            elif actions and all(
                isinstance(a, exp.RenameColumn | exp.AlterRename) for a in actions
            ):
                # `RENAME COLUMN nm TO name`: every value kept, under a new name
                effects.append(Effect("modify", what=text, action="rename", objects=altered))
            else:
                effects.append(Effect("configure", reversible=False, what=text, objects=altered))
        else:  # a bare expression (`selec * form` parses as one), or a raw command
            effects.append(Effect("unknown", what=text))
        if isinstance(statement, exp.Insert | exp.Update) and _raises_privilege(statement):
            # `INSERT INTO users (email, is_admin) VALUES (…, true)`: a row that is access
            effects.append(Effect("grant", reversible=False, high_impact=True, what=text))
    return CallEffect(tuple(effects), "sql")


def _table_of(statement: Any) -> tuple[str, ...]:
    """The table an `ALTER TABLE` or a `CREATE INDEX` acts on, by its own name."""
    from sqlglot import exp

    table = statement.find(exp.Table)
    return (table.name,) if isinstance(table, exp.Table) and table.name else ()


#: Columns that hold what a row may do: `is_admin`, `role`, `superuser`, `permissions`.
_PRIVILEGE_COLUMN = re.compile(
    r"(?:^|_)(?:admin|superuser|staff|root|role|roles|permissions?|privileges?|scopes?|"
    r"access_level|owner)(?:$|_)",
    re.IGNORECASE,
)
#: Values that raise it (`true`, `1`, `'admin'`, `'owner'`), not ones that lower it.
_RAISED = re.compile(
    r"^(?:true|1|t|yes|admin|administrator|owner|superuser|root|staff|all|\*)$", re.I
)


def _raises_privilege(statement: Any) -> bool:
    """Whether an `INSERT` or an `UPDATE` writes a privilege column to a raising value."""
    from sqlglot import exp

    pairs: list[tuple[str, Any]] = []
    if isinstance(statement, exp.Update):
        pairs = [
            (str(a.this.name), a.expression)
            for a in statement.expressions[:32]
            if isinstance(a, exp.EQ) and isinstance(a.this, exp.Column)
        ]
    else:
        schema, values = statement.this, statement.expression
        columns = schema.expressions if isinstance(schema, exp.Schema) else []
        rows = values.expressions if isinstance(values, exp.Values) else []
        for row in rows[:16]:
            cells = row.expressions if isinstance(row, exp.Tuple) else []
            pairs += [(str(c.name), v) for c, v in zip(columns[:32], cells[:32], strict=False)]
    for column, value in pairs:
        if not _PRIVILEGE_COLUMN.search(column):
            continue
        plain = str(value.this) if isinstance(value, exp.Literal | exp.Boolean) else ""
        if isinstance(value, exp.Boolean):
            plain = "true" if value.this else "false"
        if _RAISED.match(plain.strip()):
            return True
    return False
