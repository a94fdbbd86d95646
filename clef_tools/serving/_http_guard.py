"""Who may talk to an HTTP surface: Host and Origin allow-lists, JSON only, a bearer key.

A server on loopback is still reachable from a browser: a page can POST `text/plain`
cross-site without a preflight, and DNS rebinding makes `evil.example` resolve to
127.0.0.1. So every request must name an allowed Host (loopback names, the address the
server is bound to, and any the operator adds), carry no foreign Origin, and send JSON;
when a key is configured, a bearer token too. `serve` and MCP over HTTP share these rules.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from clef_tools._net import is_loopback, is_wildcard

__all__ = ["AccessPolicy", "GuardMiddleware"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


@dataclass(frozen=True)
class AccessPolicy:
    """`allowed_hosts`: host names accepted in `Host` (any port; `"*"` accepts every host).
    `allowed_origins`: browser origins allowed besides loopback ones (`"*"`: any)."""

    api_key: str | None = None
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES
    allowed_origins: tuple[str, ...] = ()
    open_paths: frozenset[str] = field(default_factory=lambda: frozenset({"/healthz"}))

    @classmethod
    def for_bind(
        cls,
        host: str,
        *,
        api_key: str | None = None,
        extra_hosts: Iterable[str] = (),
        extra_origins: Iterable[str] = (),
    ) -> AccessPolicy:
        """Loopback names, the bound address itself (unless it is a wildcard), extras."""
        hosts = [*LOOPBACK_NAMES, *extra_hosts]
        if not is_wildcard(host) and not is_loopback(host):
            hosts.append(f"[{host}]" if ":" in host and not host.startswith("[") else host)
        return cls(
            api_key=api_key,
            allowed_hosts=tuple(dict.fromkeys(h.lower() for h in hosts)),
            allowed_origins=tuple(extra_origins),
        )

    def host_ok(self, header: str | None) -> bool:
        if "*" in self.allowed_hosts:
            return True
        if not header:
            return False
        return _host_name(header) in self.allowed_hosts

    def origin_ok(self, origin: str | None) -> bool:
        """No Origin (not a browser, or same-origin GET) is fine; `null` never is."""
        if origin is None:
            return True
        if "*" in self.allowed_origins or origin in self.allowed_origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and is_loopback(parts.hostname or "")

    def authorised(self, header: str | None) -> bool:
        if self.api_key is None:
            return True
        scheme, _, token = (header or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            token.encode(), self.api_key.encode()
        )

    def mcp_transport_settings(self) -> dict[str, Any]:
        """The same lists in the MCP SDK's `TransportSecuritySettings` spelling."""
        if "*" in self.allowed_hosts:
            return {"enable_dns_rebinding_protection": False}
        hosts = [p for h in self.allowed_hosts for p in (h, f"{h}:*")]
        loopback_origins = [
            f"{s}://{h}{p}" for s in ("http", "https") for h in LOOPBACK_NAMES for p in ("", ":*")
        ]
        return {
            "enable_dns_rebinding_protection": True,
            "allowed_hosts": hosts,
            "allowed_origins": [*loopback_origins, *self.allowed_origins],
        }


def _host_name(header: str) -> str:
    header = header.strip().lower()
    if header.startswith("["):
        return header.partition("]")[0] + "]"
    return header.rpartition(":")[0] if header.count(":") == 1 else header


class GuardMiddleware:
    """Applies an `AccessPolicy` to every HTTP request before the app sees it."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, error_type, message = refusal
        body = json.dumps({"detail": {"error_type": error_type, "message": message}}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if status == 401:
            headers.append((b"www-authenticate", b"Bearer"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        headers = Headers(scope=scope)
        policy = self.policy
        if not policy.host_ok(headers.get("host")):
            return 421, "misdirected_request", "this server does not answer for that Host"
        if not policy.origin_ok(headers.get("origin")):
            return 403, "forbidden_origin", "cross-origin requests are not allowed"
        if scope["method"] == "POST":
            ctype = headers.get("content-type")
            if ctype is not None and not _is_json(ctype):
                return 415, "unsupported_media_type", "send the body as application/json"
        if scope["path"] not in policy.open_paths and not policy.authorised(
            headers.get("authorization")
        ):
            return 401, "authentication_error", "missing or wrong bearer token"
        return None


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )
