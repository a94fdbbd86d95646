"""curl, wget and HTTPie: a fetch reads, a body or a file sent is a send."""

from __future__ import annotations

import re
from collections.abc import Sequence

from clef_tools.gate._effects import Effect
from clef_tools.gate._shell._common import (
    HARMLESS_TARGETS,
    flag_value,
    flag_values,
    flags_of,
    operands_of,
)

_SENDING_CURL = frozenset(
    {"d", "F", "T", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--form"}
    | {"--upload-file", "--json"}
)


#: curl's short flags run together with a method (`-XDELETE`, `-sXPOST`).
_JOINED_METHOD = re.compile(r"^(-[a-zA-Z]*)X([A-Za-z]+)$")


def curl_effects(tool: str, args: Sequence[str], text: str) -> list[Effect]:
    # `-XDELETE`, `-sXDELETE`: a flag with its value, not `-X -D -E -L -E -T -E`
    joined = [m for a in args if (m := _JOINED_METHOD.match(a))]
    flags = flags_of([a for a in args if not _JOINED_METHOD.match(a)] + [m[1] for m in joined])
    method = flag_value(args, ("-X", "--request"), ("--request",)) or next(
        (m[2] for m in joined), ""
    )
    if method.upper() == "DELETE" and not flags & _SENDING_CURL:
        # `curl -X DELETE http://localhost:9200/logs-2025.01`: the resource at the link
        # removed; a pattern in it (`logs-*`) removes every one it matches
        links = [o for o in operands_of(args) if "/" in o]
        broad = any("*" in o for o in links)
        return [Effect("delete", "external", False, broad, what=text, objects=tuple(links[:4]))]
    if flags & _SENDING_CURL or method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
        links = [
            o
            for o in operands_of(args, _CURL_VALUE_FLAGS)
            if "." in o or ":" in o or o.startswith("localhost")
        ]
        if links and all(_LOOPBACK.match(o) for o in links) and not _UPLOADS_FILE.search(text):
            # `curl -X POST localhost:9200/_reindex -d '{…}'`: a request to a service the
            # user runs on this machine, which nothing of theirs leaves; what it changes
            # there is the service's to say (so it is no read, and no change known to be
            # undone)
            return [Effect("modify", reversible=False, what=text, objects=tuple(links[:4]))]
        return [Effect("send", "external", reversible=False, what=text)]
    written = flag_values(args, ("-o", "--output", "-O"))
    discarded = bool(written) and all(w in HARMLESS_TARGETS for w in written)
    if (tool == "wget" or flags & {"o", "O", "--output"}) and not (tool == "curl" and discarded):
        return [Effect("create", "external", what=text, fetched=True)]
    # `curl -s -o /dev/null -w '%{http_code}' …`: the body thrown away, the status read
    links = [
        o
        for o in operands_of(args, frozenset(["-o", "--output", "-w", "--write-out", "-H"]))
        if "." in o or ":" in o or o.startswith("localhost")
    ]
    # `curl -s http://localhost:8000/health`: the service the user runs on this machine
    here = bool(links) and all(_LOOPBACK.match(o) for o in links)
    return [Effect("read", "local" if here else "external", what=text)]


#: curl's flags that take a value: a header, a method, a body, a file to write.
_CURL_VALUE_FLAGS = frozenset(
    ["-H", "--header", "-X", "--request", "-d", "--data", "--data-raw", "--data-binary",
     "--data-urlencode", "--json", "-o", "--output", "-u", "--user", "-A", "--user-agent",
     "-e", "--referer", "-b", "--cookie", "-F", "--form", "-T", "--upload-file"]
)  # fmt: skip


#: A file's contents sent (`-d @.env`, `-F file=@key.pem`, `-T backup.sql`): what leaves
#: is the file, wherever the request goes.
_UPLOADS_FILE = re.compile(
    r"(?:^|\s)(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form)\s*\S*@"
    r"|(?:^|\s)(?:-T|--upload-file)\b"
)


_LOOPBACK = re.compile(
    r"^(?:https?://)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?::\d+)?(?:/\S*)?$",
    re.I,
)
