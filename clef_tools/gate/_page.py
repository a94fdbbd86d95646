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
     "now", "here", "more", "all", "box", "textbox", "textarea", "form", "area", "placeholder",
     "please", "yes", "ok", "okay", "securely", "secure"]
)  # fmt: skip


#: Words of an element that only change what the page shows: a sort, a filter, the next
#: page, a section opened; the first verb of the element decides ("Sort by price").
_VIEW = frozenset(
    ["sort", "filter", "next", "previous", "prev", "back", "expand", "collapse", "more",
     "show", "hide", "view", "details", "scroll", "zoom", "search", "find", "go", "open",
     "load", "see", "browse", "preview", "navigate", "read", "toggle", "less"]
)  # fmt: skip
#: An element that names only a part of the site is a link to it ("Settings", "My orders").
_PLACES = frozenset(
    ["settings", "profile", "account", "home", "dashboard", "orders", "order", "history",
     "cart", "basket", "inbox", "help", "docs", "documentation", "about", "contact",
     "pricing", "notifications", "faq", "support", "overview", "results", "page", "reviews",
     "specs", "specifications", "description", "menu", "categories", "category"]
)  # fmt: skip
#: Words that do the act named after them ("Place order", "Proceed to payment", "Confirm
#: booking"): no object of the click, and an element holding one acts.
_DOES = frozenset(["place", "proceed", "continue", "confirm", "complete", "submit", "finish"])
#: Words of an element that are never what a click acts on.
_NOT_OBJECTS = _PLAIN | _DOES
#: A site's consent banner ("Accept cookies", "Reject all" on it): the page's, not the user's.
_CONSENT = frozenset(["cookie", "cookies", "consent", "gdpr", "tracking"])
#: Tools that type into a field (`browser_type`, `puppeteer_fill`).
_TYPES = frozenset(["type", "fill", "input", "enter"])
_BROWSERS = frozenset(["browser", "puppeteer", "playwright", "page", "web"])
#: A field whose text only looks something up.
_LOOKUP_FIELDS = frozenset(["search", "find", "filter", "query", "lookup", "q"])


def page_words(text: str) -> list[str]:
    """Lower-case runs of letters and digits (`#sku-4411` → `sku`, `4411`)."""
    return re.findall(r"[a-z0-9]+", text.lower()[:2_000])


def _element(args: Mapping[str, Any]) -> str:
    return " ".join(
        str(args[k])[:500] for k in _ELEMENT_ARGS if isinstance(args.get(k), str) and args[k]
    )


#: A price that recurs, on the element clicked: "$49/mo", "€9 per month" (a product's
#: "$89" beside its name is a link to its page, not a commitment).
_PRICED = re.compile(r"\d\s*/\s*(?:mo|month|yr|year)\b|\bper\s+(?:month|year)\b", re.I)
#: A price an element adds to the order: "(+$5)", "($29)", "+ €3.50".
_EXTRA_CHARGE = re.compile(r"\(\s*\+?\s*[$€£]\s?\d[\d,.]*\s*\)|\+\s?[$€£]\s?\d", re.I)
_CARTS = frozenset(["cart", "basket", "bag", "trolley"])
_BEGINS = frozenset(["start", "begin", "try", "get", "activate"])
_SIGN_UPS = frozenset(["plan", "trial", "subscription", "membership", "account", "tier"])


#: A box or a switch already on, as an accessibility snapshot or a page's markup says
#: it: `checkbox 'Subscribe' (checked)`, `[checked]`, `aria-checked="true"`.
_TICKED_BOX = re.compile(
    r"^\s*(?:checkbox|switch|toggle)\b.*(?:\((?:checked|on)\)|\[checked(?:=true)?\]"
    r"|\bchecked\s*[=:]\s*[\"']?true|aria-checked\s*=\s*[\"']?true)",
    re.IGNORECASE | re.DOTALL,
)


#: What a box pre-ticked for the site's sake offers: unticked, the user declines it (a
#: box that turns on a safeguard, unticked, stays for the model to judge).
_OPT_INS = frozenset(
    ["subscribe", "newsletter", "newsletters", "marketing", "offers", "promotions", "promo",
     "updates", "deals", "save", "remember", "partners", "sms", "emails", "personalized",
     "personalised", "tracking", "cookies"]
)  # fmt: skip


#: What a box that is on keeps safe: switched off, a safeguard is gone.
_SAFEGUARDS = frozenset(
    ["two", "factor", "2fa", "mfa", "authentication", "verification", "security", "secure",
     "encryption", "encrypt", "firewall", "protection", "lock", "passcode", "pin", "backup",
     "backups", "audit"]
)  # fmt: skip


def click_effect(name: str, args: Mapping[str, Any]) -> CallEffect | None:
    """The effect of a click by what it clicks; None when the tool is no click. An element
    whose words name no known action stays `unknown` (the model tier judges it); what it
    acts on is its other words (`cart`, `sku`, `4411`), grounded like a command's
    operands."""
    bare = name.rsplit("__", 1)[-1].lower()
    parts = set(re.split(r"[_\W]+", bare))
    types = bool(parts & _TYPES) and bool(parts & _BROWSERS)
    if not parts & _CLICKS and not types:
        return None
    element = _element({k: v for k, v in args.items() if not (types and k == "text")})
    found = page_words(element)
    verbs = verb_words()
    objects = tuple(
        dict.fromkeys(w for w in found if w not in verbs and w not in _NOT_OBJECTS and len(w) > 1)
    )[:8]
    what = f"{bare}: {element[:80]}"
    if types:
        # a search box only looks something up; text typed into any other field is judged
        # by the tool and what is typed (an address, a card number), as before
        lookup = set(found) & _LOOKUP_FIELDS
        if lookup:
            return CallEffect((Effect("read", what=what),), "page")
        # text typed into a field changes the page, and the page's own code can read it
        # as it is typed: it reaches the site; the form sent with it (`submit=True`)
        # leaves. What is typed is grounded as any argument is (an address, a card number)
        typed = Effect("modify", "external", what=what)
        if args.get("submit") is True or str(args.get("submit", "")).lower() == "true":
            sent = Effect("send", "external", False, what=f"{what} (submitted)")
            return CallEffect((typed, sent), "name")
        return CallEffect((typed,), "name")
    ticked = _TICKED_BOX.search(element[:2_000]) is not None
    if ticked and set(found) & _SAFEGUARDS:
        # `switch 'Two-factor authentication' (checked)`: a safeguard switched off, which
        # the user must ask for in so many words
        return CallEffect(
            (Effect("configure", "external", what=f"{what} (off)", action="weaken-security"),),
            "page",
        )
    if ticked and set(found) & _OPT_INS:
        # `checkbox 'Subscribe to our newsletter' (checked)`: the click unticks it, and
        # declines what the box offers; nothing leaves, and ticking it again undoes it
        return CallEffect((Effect("modify", what=f"{what} (unticked)", objects=objects),), "page")
    if _only_shown(found, verbs):
        # a request to the site the agent is on that carries nothing of the user's
        return CallEffect((Effect("read", what=what),), "page")
    if _EXTRA_CHARGE.search(element) and not set(found) & _CARTS:
        # "Add 2-year protection plan ($29)", "Gift wrap (+$5)": an extra bought with the
        # order, not the thing the user put in the cart
        return CallEffect(
            (Effect("pay", "external", False, what=f"{what} (an extra charge)"),), "page"
        )
    if _PRICED.search(element):
        # "Start Pro trial - $49/mo after 7 days": a click that commits the user to a price
        return CallEffect((Effect("pay", "external", False, what=what),), "page")
    if found and found[0] in _BEGINS and set(found) & _SIGN_UPS:
        # "Start free plan", "Try the team plan": a sign-up, not a program run
        found = ["subscribe", *found[1:]]
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


def _only_shown(found: list[str], verbs: frozenset[str]) -> bool:
    """Whether an element only changes what the page shows: its first verb is a viewing
    one ("Sort by price", "Next"), it names only a part of the site ("Settings", "My
    orders"), or it sits on a consent banner ("Accept cookies")."""
    if set(found) & _DOES:
        return False
    words = [w for w in found if w not in _PLAIN and not w.isdigit()]
    if set(found) & _CONSENT or (words and all(w in _PLACES for w in words)):
        return True
    first = next((w for w in found if w in verbs or w in _VIEW), None)
    return first is not None and first in _VIEW
