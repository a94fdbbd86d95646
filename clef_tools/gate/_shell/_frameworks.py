"""Web frameworks' management commands (Django, Rails, Prisma, Alembic): migrations
by whether they only show, apply or reset."""

from __future__ import annotations

from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._pycode import reads_only
from clef_tools.gate._shell._common import flag_value, shell_words


def runs_manage_py(tool: str, args: Sequence[str]) -> bool:
    """`python manage.py …`: Django's command runner, judged by its subcommand."""
    return tool.startswith("python") and bool(args) and args[0].rsplit("/", 1)[-1] == "manage.py"


def django_effects(args: Sequence[str], text: str) -> list[Effect]:
    """`manage.py showmigrations` reads; `migrate` changes the schema; `flush` empties every
    table; `createsuperuser` gives someone full access; `test` runs the project's checks."""
    sub = next((a for a in args if not a.startswith("-")), "")
    checking = "--check" in args or "--dry-run" in args
    if sub in shell_words("django_read") or (sub == "makemigrations" and checking):
        return [Effect("read", what=text)]
    if sub == "migrate" and ("--plan" in args or "--check" in args):
        return [Effect("read", what=text)]  # the migrations it would apply, shown, not applied
    if sub == "test":
        return [Effect("execute", what=text, routine=True)]
    if sub in ("shell", "shell_plus", "dbshell"):
        # Python or SQL typed into the project's own models: `shell -c` is judged by its code
        # (a read only when every call in it reads); what is typed into an open shell is not
        # seen here
        code = flag_value(args, ("-c", "--command"), ("--command",))
        if sub != "dbshell" and code is not None and reads_only(code):
            return [Effect("read", what=text)]
        return [Effect("unknown", what=text)]
    if sub == "flush":
        return [Effect("delete", reversible=False, high_impact=True, what=text)]
    if sub in ("createsuperuser", "changepassword"):
        return [Effect("grant", what=text)]
    if sub == "migrate" and "zero" in args:
        # every migration of an app undone: its tables dropped, with their rows
        return [Effect("delete", reversible=False, high_impact=True, what=text)]
    if sub == "migrate":
        # the project's own migrations applied, each with its way back (like `alembic upgrade`)
        return [Effect("modify", what=text, action="migrate")]
    if sub == "loaddata":
        # rows written over: loading them again does not bring back what they replaced
        return [Effect("modify", reversible=False, what=text)]
    if sub in ("makemigrations", "collectstatic", "squashmigrations"):
        return [Effect("modify", what=text)]
    return [Effect("execute", what=text)]


def prisma_effects(args: Sequence[str], text: str) -> list[Effect]:
    """Prisma's CLI: `migrate status`/`diff` and `validate` read; `migrate reset` and `db
    push --accept-data-loss` drop data; other migrations change the schema."""
    words = [a for a in args if not a.startswith("-")]
    sub = " ".join(words[:2])
    if words[:1] in (["validate"], ["version"]) or sub in ("migrate status", "migrate diff"):
        return [Effect("read", what=text)]
    if words[:1] in (["generate"], ["format"]):
        return [Effect("modify", what=text, routine=True)]
    if sub == "migrate reset" or (sub == "db push" and "--accept-data-loss" in args):
        return [Effect("delete", reversible=False, high_impact=True, what=text, action="reset")]
    if sub == "migrate deploy":
        return [Effect("modify", what=text, action="migrate")]
    if sub in ("migrate dev", "migrate resolve", "db push", "db pull", "db seed"):
        return [Effect("modify", what=text)]
    return [Effect("unknown", what=text)]


def migration_effects(args: Sequence[str], text: str) -> list[Effect]:
    """`alembic current` reads; `upgrade` changes the schema, `downgrade` undoes it (and
    drops what the undone migrations made: `downgrade base` drops everything)."""
    sub = next((a for a in args if not a.startswith("-")), "")
    if sub in ("current", "history", "heads", "branches", "show", "check"):
        return [Effect("read", what=text)]
    if sub in ("upgrade", "downgrade") and "--sql" in args:
        # offline mode: the migration's SQL printed, nothing run against the database
        return [Effect("read", what=text)]
    if sub == "downgrade":
        base = "base" in args
        return [Effect("delete", reversible=False, high_impact=base, what=text, action="rollback")]
    if sub == "upgrade":
        return [Effect("modify", what=text, action="migrate")]
    if sub in ("stamp", "merge", "revision"):
        return [Effect("modify", what=text)]
    return [Effect("unknown", what=text)]


#: Rails' and rake's database tasks, by what each does to the data.
_RAILS_WIPES = frozenset(
    ["db:drop", "db:reset", "db:purge", "db:schema:load", "db:structure:load",
     "db:migrate:reset", "db:truncate_all", "db:seed:replant", "db:drop:all", "db:test:purge"]
)  # fmt: skip


_RAILS_READS = frozenset(
    ["db:version", "db:migrate:status", "routes", "about", "stats", "notes", "-T", "--tasks",
     "db:abort_if_pending_migrations", "--version", "-v", "time:zones"]
)  # fmt: skip


_RAILS_CREATES = frozenset(["db:create", "db:setup", "db:prepare", "db:seed", "db:create:all"])


def rails_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    """`rails db:migrate` changes the schema; `db:rollback` undoes migrations (dropping
    what they made); `db:drop`, `db:reset`, `db:schema:load` lose every row; `db:setup`,
    `db:seed` create; `rails test` runs the project's checks. Each task is judged."""
    # `STEP=2`, `RAILS_ENV=test`: the task's settings, not tasks
    tasks = [a for a in args[:16] if "=" not in a and (not a.startswith("-") or a in _RAILS_READS)]
    out: list[Effect] = []
    for task in tasks or ["-T"]:
        name = task.split("[", 1)[0]
        if name in _RAILS_WIPES:
            out.append(Effect("delete", reversible=False, high_impact=True, what=text))
        elif name in ("db:rollback", "db:migrate:down", "db:migrate:redo"):
            out.append(Effect("delete", reversible=False, what=text, action="rollback"))
        elif name in _RAILS_READS:
            out.append(Effect("read", what=text))
        elif name in _RAILS_CREATES:
            out.append(Effect("create", what=text))
        elif name in ("db:migrate", "db:migrate:up"):
            out.append(Effect("modify", what=text, action="migrate"))
        elif name in ("assets:precompile", "generate", "g"):
            out.append(Effect("modify", what=text))
        elif name in ("test", "spec", "test:system", "t"):
            out.append(Effect("execute", what=text, routine=True))
            break  # what follows is the tests to run
        else:
            out.append(Effect("unknown", what=text))
    return out
