"""What a click in a browser does: the element's own words say it ("Add to cart", `#buy-now`,
"Delete account"), read with the same verb table as a tool's name. Browser tools
(Playwright MCP's `browser_click`, Puppeteer's `puppeteer_click`) all share one name for
every button, so the name alone says nothing."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clef_tools.gate._effects import CallEffect, Effect, tool_effect, verb_words

__all__ = ["click_effect", "page_words"]

#: How browser tools name a click (the last part of the tool's name, split on `_`).
_CLICKS = frozenset(["click", "tap", "dblclick", "doubleclick"])
#: Arguments that describe the element (not Playwright's `button`: the mouse button).
_ELEMENT_ARGS = ("element", "selector", "text", "label", "locator", "target", "name")
#: Words of a selector or a description that say where the element is, not what it does.
_PLAIN = frozenset(
    ["a", "an", "the", "to", "of", "for", "on", "in", "at", "my", "your", "this", "that",
     "it", "and", "or", "with", "button", "btn", "link", "icon", "element", "tab", "menu",
     "input", "field", "item", "id", "class", "data", "testid", "test", "aria", "div",
     "span", "nth", "child", "type", "role", "first", "last", "main", "primary", "secondary",
     "small", "large", "top", "bottom", "left", "right", "css", "xpath", "ref", "li", "ul",
     "now", "here", "more", "all"]
)  # fmt: skip


def page_words(text: str) -> list[str]:
    """Lower-case runs of letters and digits (`#sku-4411` → `sku`, `4411`)."""
    return re.findall(r"[a-z0-9]+", text.lower()[:2_000])


def _element(args: Mapping[str, Any]) -> str:
    return " ".join(
        str(args[k])[:500] for k in _ELEMENT_ARGS if isinstance(args.get(k), str) and args[k]
    )


def click_effect(name: str, args: Mapping[str, Any]) -> CallEffect | None:
    """The effect of a click by what it clicks; None when the tool is no click. An element
    whose words name no known action stays `unknown` (the model tier judges it); what it
    acts on is its other words (`cart`, `sku`, `4411`), grounded like a command's
    operands."""
    bare = name.rsplit("__", 1)[-1].lower()
    if not set(re.split(r"[_\W]+", bare)) & _CLICKS:
        return None
    element = _element(args)
    found = page_words(element)
    verbs = verb_words()
    objects = tuple(
        dict.fromkeys(w for w in found if w not in verbs and w not in _PLAIN and len(w) > 1)
    )[:8]
    what = f"{bare}: {element[:80]}"
    # the verbs first, as a tool's name puts them (`#cart-add` is `add_to_cart`)
    ordered = [w for w in found if w in verbs] + [w for w in found if w not in verbs]
    effect = tool_effect("_".join(ordered)[:200] or bare, None, None) if found else None
    if effect is None or effect.kind == "unknown":
        return CallEffect((Effect("unknown", "external", False, what=what),), "page")
    return CallEffect(
        (
            Effect(
                effect.kind,
                effect.reach,
                effect.reversible,
                effect.high_impact,
                what=what,
                objects=objects,
                action=effect.action,
            ),
        ),
        "page",
    )
