"""`ClefDecisionModel` serialises the LangChain way: secrets as references, never values,
and the key it holds reaches a hosted scorer (real HTTP on loopback)."""

from __future__ import annotations

import json
import warnings

import pytest
from _loopback import serving
from langchain_core.decisions import Noul
from langchain_core.exceptions import ModelAuthenticationError
from langchain_core.load import dumps, loads
from pydantic import SecretStr

from clef_tools import HostedDecider, create_app
from clef_tools.testing import InstantDecider
from langchain_clef import ClefDecisionModel

Q = {"late": Noul(instructions="Is a parcel late?")}


def _load(text: str, secrets: dict[str, str]) -> ClefDecisionModel:
    with warnings.catch_warnings():  # `loads` announces itself as beta
        warnings.simplefilter("ignore")
        loaded = loads(
            text,
            secrets_map=secrets,
            valid_namespaces=["langchain_clef"],
            allowed_objects=[ClefDecisionModel],
        )
    assert isinstance(loaded, ClefDecisionModel)
    return loaded


def test_dumps_writes_secret_references_and_loads_fills_them() -> None:
    model = ClefDecisionModel(
        source="workers-ai",
        cloudflare_api_token=SecretStr("cf-token-123"),
        typesafe_api_key=SecretStr("ts-key-456"),
    )
    assert ClefDecisionModel.is_lc_serializable()
    text = dumps(model)
    assert "cf-token-123" not in text and "ts-key-456" not in text
    assert "cf-token-123" not in repr(model)
    kwargs = json.loads(text)["kwargs"]
    assert kwargs["cloudflare_api_token"] == {
        "lc": 1,
        "type": "secret",
        "id": ["CLOUDFLARE_API_TOKEN"],
    }
    assert kwargs["typesafe_api_key"]["id"] == ["TYPESAFE_API_KEY"]
    loaded = _load(text, {"CLOUDFLARE_API_TOKEN": "cf-other", "TYPESAFE_API_KEY": "ts-other"})
    assert loaded.source == "workers-ai"
    assert loaded.cloudflare_api_token is not None
    assert loaded.cloudflare_api_token.get_secret_value() == "cf-other"


def test_the_key_it_holds_authenticates_against_a_hosted_scorer() -> None:
    with serving(create_app(InstantDecider(), api_key="ts-right")) as base:
        right = _load(
            dumps(
                ClefDecisionModel(
                    source=f"{base}#instant", typesafe_api_key=SecretStr("placeholder")
                )
            ),
            {"TYPESAFE_API_KEY": "ts-right"},
        )
        wrong = ClefDecisionModel(model=f"{base}#instant", typesafe_api_key=SecretStr("ts-wrong"))
        try:
            assert right.invoke({"state": "my parcel is late", "questions": Q}).answers["late"]
            with pytest.raises(ModelAuthenticationError):
                wrong.invoke({"state": "my parcel is late", "questions": Q})
        finally:
            for model in (right, wrong):
                backend = model.backend
                assert isinstance(backend, HostedDecider)
                backend.close()
