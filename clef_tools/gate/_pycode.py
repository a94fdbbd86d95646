"""Whether a line of Python an agent runs (`python -c "…"`) only reads: parsed with the
standard library's own parser, and allowed through only when every import, call and
assignment in it is on a short list of things that look at data without changing it.
Anything else, and anything that does not parse, stays a program run (`execute`)."""

from __future__ import annotations

import ast

#: Modules of the standard library that look at data and the machine without changing
#: them when imported (a third-party import runs that package's code).
_MODULES = frozenset(
    ["json", "sys", "os", "pathlib", "re", "collections", "math", "statistics", "csv",
     "tomllib", "configparser", "platform", "itertools", "functools", "datetime", "time",
     "string", "textwrap", "pprint", "hashlib", "base64", "decimal", "fractions", "operator",
     "typing", "glob", "fnmatch", "unicodedata", "sysconfig", "importlib.metadata", "locale",
     "calendar", "difflib", "struct", "keyword", "ast"]
)  # fmt: skip
#: Functions called by name that only compute or print.
_BUILTINS = frozenset(
    ["print", "len", "sum", "min", "max", "sorted", "list", "dict", "set", "tuple", "str",
     "int", "float", "repr", "open", "enumerate", "range", "zip", "any", "all", "map", "filter",
     "isinstance", "type", "abs", "round", "bool", "hex", "oct", "bin", "format", "hasattr",
     "iter", "next", "reversed", "frozenset", "divmod", "chr", "ord", "ascii", "bytes", "vars",
     "dir", "Path", "Counter", "defaultdict", "OrderedDict"]
)  # fmt: skip
#: Methods that read or compute: files and folders looked at, text and data taken apart.
_METHODS = frozenset(
    ["read", "read_text", "read_bytes", "readlines", "readline", "splitlines", "split",
     "rsplit", "strip", "lstrip", "rstrip", "load", "loads", "dumps", "get", "items", "keys",
     "values", "glob", "rglob", "iglob", "iterdir", "exists", "is_file", "is_dir", "stat",
     "walk", "listdir", "scandir", "join", "basename", "dirname", "getsize", "getmtime",
     "abspath", "realpath", "resolve", "relpath", "splitext", "search", "match", "findall",
     "finditer", "fullmatch", "compile", "sub", "format", "lower", "upper", "title", "count",
     "startswith", "endswith", "most_common", "mean", "median", "stdev", "getenv", "version",
     "metadata", "python_version", "system", "machine", "node", "release", "hexdigest",
     "sha256", "sha1", "md5", "b64decode", "b64encode", "decode", "encode", "reader",
     "DictReader", "Path", "cwd", "home", "getcwd", "with_suffix", "relative_to", "parse",
     "dump", "find", "index", "group", "groups", "isoformat", "strftime",
     "fromisoformat", "fromtimestamp", "now", "today", "sections", "options", "getint",
     "getboolean", "as_posix", "is_absolute", "expanduser", "isfile", "isdir", "islink",
     "sizeof", "getrecursionlimit", "get_paths", "get_config_var", "distributions",
     "requires", "zfill", "ljust", "rjust", "center", "partition", "rpartition", "isdigit",
     "isalpha", "fnmatch", "filter", "unified_diff", "ndiff", "ratio", "SequenceMatcher",
     "getpreferredencoding", "unpack", "calcsize", "Counter", "defaultdict", "chain",
     "groupby", "islice", "reduce", "pformat", "pprint", "dedent", "wrap", "normalize",
     "category", "name", "literal_eval", "copy", "update", "append", "extend", "add", "pop",
     "setdefault", "sort", "reverse", "insert"]
)  # fmt: skip
#: `open()` modes that only read.
_READ_MODES = frozenset(["r", "rb", "rt", "br", "tr"])
_MAX_CODE = 20_000


def reads_only(code: str) -> bool:
    """Whether the code, parsed, only reads: imports of the modules above, calls of the
    functions and methods above (`open` with a reading mode only; `json.dump` only to
    standard output), and assignments to its own names."""
    if len(code) > _MAX_CODE:
        return False
    try:
        tree = ast.parse(code, mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return all(_reads(node) for node in ast.walk(tree))


def _reads(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return all(alias.name in _MODULES for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and (node.module or "") in _MODULES
    if isinstance(node, ast.Call):
        return _call_reads(node)
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return all(_own_names(t) for t in targets)
    if isinstance(node, ast.Delete | ast.Global | ast.Nonlocal | ast.Await | ast.AsyncWith):
        return False
    if isinstance(node, ast.Name):
        # a name that runs or rewrites code, whatever calls it
        return node.id not in ("exec", "eval", "compile", "__import__", "setattr", "delattr",
                               "globals", "locals", "breakpoint", "input")  # fmt: skip
    if isinstance(node, ast.Attribute):
        return not node.attr.startswith("__") or node.attr in ("__version__", "__file__")
    return True


def _own_names(target: ast.expr) -> bool:
    """An assignment to the code's own names (`x = …`, `a, b = …`), not to an attribute or
    an item of something it did not make (`os.environ["X"] = …`)."""
    if isinstance(target, ast.Name):
        return True
    if isinstance(target, ast.Tuple | ast.List):
        return all(_own_names(t) for t in target.elts)
    if isinstance(target, ast.Starred):
        return _own_names(target.value)
    return False


def _call_reads(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        name = func.id
    elif isinstance(func, ast.Attribute):
        name = func.attr
    else:
        return False
    if name not in _BUILTINS and name not in _METHODS:
        return False
    if name == "open":
        # `open(path, mode)`; `Path(…).open(mode)`
        at = 0 if isinstance(func, ast.Attribute) else 1
        mode = call.args[at] if len(call.args) > at else None
        mode = next((k.value for k in call.keywords if k.arg == "mode"), mode)
        if mode is None:
            return True
        return isinstance(mode, ast.Constant) and mode.value in _READ_MODES
    if name == "dump":
        # `json.dump(data, sys.stdout)`: printed; to a file opened for writing, a write
        target = call.args[1] if len(call.args) > 1 else None
        return isinstance(target, ast.Attribute) and target.attr in ("stdout", "stderr")
    if name == "system" and isinstance(func, ast.Attribute):
        # `platform.system()` names the system; `os.system(…)` runs a command
        return isinstance(func.value, ast.Name) and func.value.id == "platform"
    return True
