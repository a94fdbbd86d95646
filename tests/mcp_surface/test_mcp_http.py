"""MCP over streamable HTTP behind the same guard as `serve`: Host, Origin, bearer key."""

from __future__ import annotations

from typing import Any

import httpx
import httpx2
from _loopback import MCP_INITIALIZE, MCP_JSONRPC, serving
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from clef_mcp import build_server, http_app
from clef_tools import AccessPolicy, ReadoutDecider


def _app(smollm2: ReadoutDecider, **policy: Any) -> Any:
    return http_app(build_server(lambda: smollm2, model="smollm2"), AccessPolicy(**policy))


def test_foreign_hosts_origins_and_missing_keys_are_refused(smollm2: ReadoutDecider) -> None:
    with serving(_app(smollm2, api_key="s3cret")) as url:

        def post(**h: str) -> httpx.Response:
            return httpx.post(f"{url}/mcp", json=MCP_INITIALIZE, headers={**MCP_JSONRPC, **h})

        auth = {"authorization": "Bearer s3cret"}
        assert post().status_code == 401
        assert post(authorization="Bearer wrong").status_code == 401
        assert post(host="evil.example", **auth).status_code == 421
        assert post(origin="https://evil.example", **auth).status_code == 403
        assert post(**{**auth, "content-type": "text/plain"}).status_code == 415
        assert post(**auth).status_code == 200


async def test_an_mcp_client_with_the_key_works(smollm2: ReadoutDecider) -> None:
    with serving(_app(smollm2, api_key="s3cret")) as url:
        http = httpx2.AsyncClient(headers={"authorization": "Bearer s3cret"}, timeout=120)
        async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
            result = await client.call_tool(
                "route",
                {
                    "state": "card stolen",
                    "options": {"fraud": "stolen cards", "shipping": "parcels"},
                },
            )
        assert not result.is_error, result.content
        assert set(result.structured_content["probabilities"]) == {"fraud", "shipping"}


def test_the_sdk_transport_settings_carry_the_same_lists() -> None:
    settings = AccessPolicy.for_bind("10.0.0.5", extra_origins=["https://app.example"])
    mcp = settings.mcp_transport_settings()
    assert mcp["enable_dns_rebinding_protection"] is True
    assert "10.0.0.5:*" in mcp["allowed_hosts"] and "localhost:*" in mcp["allowed_hosts"]
    assert "https://app.example" in mcp["allowed_origins"]
