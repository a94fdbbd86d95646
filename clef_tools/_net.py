"""Where a secret may go: https anywhere, plain http only to this machine.

A bearer key or URL password sent over plain http to another host can be read by anyone
on the path, so clients refuse to attach one there; and credentials written into a URL
(`http://user:pass@host`) are lifted out before the URL is stored, so no error message,
log line or repr can carry them.
"""

from __future__ import annotations

import base64
import ipaddress
import socket

import httpx

__all__ = ["is_loopback", "is_wildcard", "may_carry_secrets", "split_credentials"]


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a bind or connect to `host` means, numeric forms only: also the
    shorthands the C library accepts (`0` is 0.0.0.0, `127.1` is 127.0.0.1)."""
    name = host.strip().strip("[]")
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(name))
    except (OSError, ValueError):
        return None


def is_loopback(host: str) -> bool:
    if host.strip().strip("[]").lower() == "localhost":
        return True
    address = _address(host)
    return address is not None and address.is_loopback


def is_wildcard(host: str) -> bool:
    """A bind address that listens on every interface (`0.0.0.0`, `::`, `0`, empty)."""
    if host.strip().strip("[]") in ("", "*"):
        return True
    address = _address(host)
    return address is not None and address.is_unspecified


def may_carry_secrets(url: httpx.URL) -> bool:
    """https, or http to a loopback address (the bytes never leave the machine)."""
    return url.scheme == "https" or (url.scheme == "http" and is_loopback(url.host))


def split_credentials(url: str) -> tuple[str, str | None]:
    """The URL without `user:password@`, and those credentials as a basic-auth
    `authorization` header value (`None` when the URL has none)."""
    parsed = httpx.URL(url)
    if not parsed.userinfo:
        return url, None
    token = base64.b64encode(f"{parsed.username}:{parsed.password}".encode()).decode("ascii")
    return str(parsed.copy_with(username=None, password=None)), f"Basic {token}"
