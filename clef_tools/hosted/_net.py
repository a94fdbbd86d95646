"""Where a secret may go: https anywhere, plain http only to this machine.

A bearer key or URL password sent over plain http to another host can be read by anyone
on the path, so clients refuse to attach one there; and credentials written into a URL
(`http://user:pass@host`) are lifted out before the URL is stored, so no error message,
log line or repr can carry them.
"""

from __future__ import annotations

import base64
import ipaddress

import httpx

__all__ = ["is_loopback", "may_carry_secrets", "split_credentials"]


def is_loopback(host: str) -> bool:
    if host.strip("[]") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


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
