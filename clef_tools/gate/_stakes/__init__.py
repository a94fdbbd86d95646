"""What is at stake in a call, and what the evidence alone may decide about it.

The effect (what the call does), the licence (what the user asked for), where the call's
targets come from (`_grounding.py`) and whether the session's tool results tried to
instruct the agent, read together. The rules, in order:

1. A parse failure, or an effect the tables do not know, is never decided here, and never
   denied on risk alone: only people's rejections deny it.
2. A prohibition the user stated is broken → deny.
3. A high-impact effect the user did not ask for (`rm -rf ~/`, `git push --force` after
   "what changed?", `DROP TABLE` after "how big is it?") → deny.
4. Reading, locally, from the user's own systems or from a place the user named, → allow
   whatever the provenance; a read from elsewhere after a result addressed the agent → at
   least escalate.
5. A high-impact effect the user did ask for → escalate (`confirm_high_impact`), as is a
   payment above the policy's `max_payment`.
6. An effect the user did not ask for; after a result addressed the agent, a send, payment,
   delete or grant on things the user did not name, unless each first turned up in a result
   before any such passage and no passage names it (`_grounding.provenance`; found nowhere
   in view, it is not faulted: nothing shows it is the passage's); a quantity the user did
   not state (a time of day included); a move the wrong way round; a git branch other than
   the one the user named; files moved to a folder past the project they did not name
   (`/tmp` included: it is wiped); an action the user did not name (an archive for a mute,
   a test skipped for a fix); a delete of what the user
   asked to remove something from; more access than asked; an opaque id from a result record
   other than the one described (or by another author than the user's "my comment"): not
   below escalate. Where the user handed the agent instructions written elsewhere; where no
   tool result is in view and what the user did not give is a payee, address, phone number,
   record id or sum the agent may have looked up; where a record id is in nothing in view
   and no result in view holds the record the user described; where the user asked for a sum
   to be worked out ("send back the difference"), or left the details to a document ("update
   it accordingly") and no result addressed the agent; or where the user's words fit the
   chosen party and another just as well, such a fault is also not above escalate: nothing
   shows it is not what the user wanted.
7. An effect the user asked for, on things they named (or that results of this request
   returned before any passage that tried to instruct the agent), or a coding agent's local change
   that can be undone (not on a service of the machine's the user did not name, nor a
   delete of the folder that holds the file they named) → allow; after a result addressed
   the agent, any other change on things the user did not name: not below escalate.
8. Anything else that changes, sends, pays, grants, configures or runs: not below
   escalate on the evidence alone; the model tier may still raise it to deny, unless the
   change stays local and can be undone (an edit, a build): where a call's words came from
   cannot show that such a change hurts, so the worst it gets without a rule is a person's
   look.

The checks each rule reads are grouped by what they compare: quantities, times, settings,
parties, access, secrets, deletes, the project, names the user did not give, and reads a
passage addressed to the agent asked for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from clef_tools.gate._assets import asset_issue
from clef_tools.gate._dates import date_issue
from clef_tools.gate._dictated import (
    broadcast_issue,
    dictated_issue,
    location_issue,
    offer_issue,
    polarity_issue,
    retold_number_issue,
    told_number_issue,
)
from clef_tools.gate._disclosed import (
    attachment_issue,
    card_issue,
    confidential_issue,
    credential_issue,
    unsourced_detail_issue,
)
from clef_tools.gate._dropped import dropped_code_issue
from clef_tools.gate._edited import edit_scope_issue
from clef_tools.gate._effects import CallEffect, table, tool_verb, words
from clef_tools.gate._environment import environment_issue
from clef_tools.gate._extent import extent_issue
from clef_tools.gate._files import folder_issue, other_file_issue, redirected_file_issue
from clef_tools.gate._grounding import (
    ADDRESS_TEXT,
    Grounding,
    holds_described,
    holds_named,
    hosts_named,
    looked_up,
    partly_named,
    shape_unseen,
)
from clef_tools.gate._licence import Licence
from clef_tools.gate._refs import branch_issue, commit_issue
from clef_tools.gate._sql import sql_privileges
from clef_tools.gate._stakes._access import (
    HIGHER_ROLES,
    approves_payment,
    beyond_read_only,
    hands_over,
    permanent,
    roles_given,
)
from clef_tools.gate._stakes._deletes import (
    among_said,
    container_named,
    deleted_nouns,
    deletes_whole,
    listed_delete_issue,
    person_removed_issue,
    plural,
)
from clef_tools.gate._stakes._names import (
    addressed_by_name,
    bare_ids_only,
    in_unnamed_container,
    paid_from_unnamed,
)
from clef_tools.gate._stakes._parties import direction_issue, recipient_issue
from clef_tools.gate._stakes._project import (
    in_project,
    moved_out_issue,
    on_current_work,
    outside_project,
)
from clef_tools.gate._stakes._quantities import call_numbers, nearly_equal, quantity_issue
from clef_tools.gate._stakes._secrets import (
    FILE_SAID,
    carries_secret,
    credential_store,
    secret_tool,
    tracked_secret,
)
from clef_tools.gate._stakes._settings import (
    bound_issue,
    comfort_issue,
    opposite_issue,
    scope_issue,
    switch_named,
    switch_off_issue,
    switch_on_issue,
)
from clef_tools.gate._stakes._tainted import ordered_read, planted_setting
from clef_tools.gate._stakes._times import frequency_issue, time_issue
from clef_tools.gate._written import secret_written_issue, written_code_issue

__all__ = ["Stakes", "judge_stakes"]

Verdict = Literal["allow", "escalate", "deny"]


#: A part of something the user holds, by how it divides ("half of my ETH"), not of a sum
#: they state ("half of the $300 I owe Lee").
_SHARE_OF_HOLDING = re.compile(
    r"\b(?:half|a\s+third|a\s+quarter|two\s+thirds|three\s+quarters)\s+of\s+"
    r"(?:my|our|the|his|her|their|this|that)\s+(?![$€£]|\d)",
    re.IGNORECASE,
)


_LOW_ROLES = frozenset(
    ["reader", "read", "viewer", "view", "commenter", "comment", "none", "restricted", "guest",
     "r", "ro", "read-only", "readonly"]
)  # fmt: skip


_EDIT_ROLE_WORDS = (
    "edit", "editor", "editors", "write", "writer", "writers", "editing", "rw", "w",
    "read-write", "readwrite", "manage",  # "let Jo manage my calendar": changes asked for
)  # fmt: skip


#: A calendar shared for availability only, and the roles that show no more.
_FREE_BUSY = re.compile(r"\bfree\s*[/-]?\s*busy\b|\bavailability\b", re.IGNORECASE)


_FREE_BUSY_ROLES = frozenset(["freebusyreader", "freebusy", "availability", "none"])


#: A guest's access asked for ("as a single-channel guest"), and the roles above it.
_AS_GUEST = re.compile(r"\bas\s+(?:an?\s+)?(?:[\w-]+\s+)?guests?\b", re.IGNORECASE)


_MEMBER_ROLES = frozenset(["member", "regular", "full", "full_member", "user", "standard"])


#: How a user asks for a thing to be handed over ("transfer the repo", "make her the owner").
_HANDING_OVER = re.compile(r"\btransfer|\bhand\s+(?:\S+\s+)?over\b|\bowner(?:ship)?\b", re.I)


#: The words a user names a higher role by ("give her edit access" asks for `writer`).
_ROLE_NAMES = {
    role: group
    for group in (
        frozenset(_EDIT_ROLE_WORDS),
        frozenset(["owner", "owners", "own", "ownership"]),
        frozenset(["admin", "admins", "administrator", "administrators", "manage", "manager"]),
        frozenset(["full"]),
        frozenset(["permanent", "permanently", "forever", "indefinitely", "indefinite"]),
        # `allow_reshare=True`: the grantee may pass the access on, asked for in that word
        frozenset(["reshare", "reshares", "reshared", "resharing"]),
    )
    for role in group
}


#: Words that ask for a copy put somewhere: a command that uploads it there sends it.
_COPY_WORDS = frozenset(["copy", "upload", "put", "save", "store", "backup", "sync", "mirror"])


#: Effects a tool's own verb in the user's words may license (paying and deleting need the
#: user's own words for them).
_ASKED_BY_NAME = frozenset(["create", "modify", "grant", "send"])


@dataclass(frozen=True)
class Stakes:
    verdict: Verdict | None
    """What the evidence alone decides (None: the risk model and, if needed, the model)."""
    floor: Verdict
    """The mildest verdict any tier may give."""
    reason: str
    may_allow_fast: bool
    """Whether the risk model's fast tier may allow it (only what the evidence vouches for)."""
    features: Mapping[str, float] = field(default_factory=dict)
    ceiling: Verdict = "deny"
    """The strictest verdict the risk model may give when no rule decided."""
    mismatch: bool = False
    """A rule found the call off what the user asked (an effect, action, object, quantity
    or access they did not ask for, or a result that addressed the agent): only then may
    the evidence alone deny it. Where the call's words came from is not enough to deny a
    call whose effect the tables do not know, or one no rule faults."""
    why_capped: str = "a local change that can be undone"
    """Why `ceiling` is below deny, as the decision's reason says it."""

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "floor": self.floor, "reason": self.reason}

    @property
    def may_deny_fast(self) -> bool:
        """Whether the risk model's fast tier may deny it alone: a rule faulted it, and
        nothing caps its verdict below deny."""
        return self.ceiling == "deny" and self.mismatch

    @property
    def risk_features(self) -> dict[str, float]:
        """The rules' findings as the risk model weighs them, beside provenance."""
        return {**self.features, "mismatch": float(self.mismatch)}


#: Words that ask for a switch to be set.
_SWITCHING = frozenset(["enable", "disable", "toggle", "activate", "deactivate"])


#: A project's own secrets file: `.env`, `.env.production`, `secrets.yml` (not `.env.example`).
_PROJECT_SECRETS = re.compile(
    r"(?:^|[\\/])(?:\.env(?:\.(?!example\b|sample\b|template\b|dist\b)[\w-]+)?"
    r"|secrets?\.(?:ya?ml|json|toml|env))$",
    re.IGNORECASE,
)


#: Actions whose change is the whole point of the command that makes it: asked for by
#: name ("format", "start"), they license that change.
_OWN_PURPOSE = frozenset(
    ["format-in-place", "compose-up", "compose-build", "audit-fix", "delete-volumes"]
)


def judge_stakes(
    effect: CallEffect,
    licence: Licence,
    args: Mapping[str, Any],
    *,
    grounding: Grounding,
    taint: str | None,
    results: Sequence[str] = (),
    said: str = "",
    confirm_high_impact: bool = True,
    max_payment: float | None = None,
    asked_by_name: bool = False,
    read: Mapping[str, str] | None = None,
) -> Stakes:
    """`asked_by_name`: the user's words hold the verb the tool is named by ("add all
    users to that channel" for `add_user_to_channel`): its effect is asked for, unless it
    pays or destroys (words that name those are in the tables already). `read`: the
    text of each file read since the user's latest turn, by path (what a Write replaces)."""
    kinds = effect.kinds - {"read"}
    # the project's own checks (`npm test`, `make lint`) are how any change the user asked
    # for is verified: "publish the new release" licenses running the tests first
    checks_only = all(e.routine for e in effect.effects if e.kind == "execute")
    # `update_permission(role="reader")`: an existing grant lowered, not access given
    roles = roles_given(args)
    if any(e.kind == "grant" and hands_over(e.what) for e in effect.effects) and not (
        _HANDING_OVER.search(said[:20_000])
    ):
        roles.add("owner")  # `transfer_ownership`: the thing is theirs, not shared with them
    if "grant" in effect.kinds and permanent(args):
        # "recurring access for the dog walker, 2-3 pm": a key for good is more than that
        roles.add("permanent")
    narrows = (
        effect.source in ("name", "annotations")
        and bool(roles)
        and roles <= _LOW_ROLES
        and any(
            tool_verb(e.what) in table().verbs["modify"]
            for e in effect.effects
            if e.kind == "grant"
        )
    )
    asked_work = bool(licence.kinds - {"read"}) and not licence.read_only
    coding = effect.source in ("builtin", "shell")

    def permits(kind: str) -> bool:
        if kind == "execute" and licence.read_only and not checks_only:
            # "why does the build fail?" licenses running the project's checks, not a
            # script the failure's log points to
            return False
        if licence.permits(kind):
            return True
        if kind == "modify" and coding and licence.permits("delete"):
            return True  # "delete the unused import", "empty app.log": an edit that cuts
        if (
            kind == "send"
            and effect.source == "shell"
            and grounding.in_request
            and bool(grounding.names)
            and licence.permits("create")
            and bool(licence.words & _COPY_WORDS)
        ):
            return True  # "copy report.pdf to s3://acme-reports/": to the place they wrote
        if kind == "grant" and narrows and licence.permits("modify"):
            return True  # "make it view-only for everyone": less access, asked as a change
        if (
            kind == "grant"
            and licence.permits("pay")
            and all(approves_payment(e.what) for e in effect.effects if e.kind == "grant")
        ):
            return True  # "reimburse Ana's $84 taxi expense" as `approve_expense`: paid so
        if (
            kind == "grant"
            and effect.source == "name"
            and licence.permits("send")
            and grounding.in_request
            and any(ADDRESS_TEXT.fullmatch(n) for n in grounding.names[:16])
            and roles <= _LOW_ROLES
            and not effect.high_impact
        ):
            # "send my vaccination record to nurse@school.example" as `share_record`: the
            # thing the user named, seen by the address they wrote, and no more than seen
            return True
        if kind == "execute" and checks_only and asked_work and kind not in licence.prohibited:
            return True
        if (
            kind in ("modify", "configure")
            and coding
            and asked_work
            and all(
                e.action in _OWN_PURPOSE and licence.names_action(e.action)
                for e in effect.effects
                if e.kind == kind
            )
        ):
            # "run black on src", "start the dev stack": the change is what the command
            # is run for
            return True
        if (
            kind in ("create", "modify")
            and (effect.external or effect.source == "page")
            and (licence.permits("send") or licence.permits("grant"))
        ):
            # "send her an invite", "invite Lena to the review": an event with attendees
            # is how it is sent; a reply typed into its box, how a reply is written
            return True
        if (
            kind == "configure"
            and licence.permits("modify")
            and all(
                e.packages and all(o.lower() in licence.words for o in e.objects)
                for e in effect.effects
                if e.kind == "configure"
            )
        ):
            return True  # "update lodash", "bump requests to 2.32": the named packages
        if (
            kind == "delete"
            and asked_work
            and kind not in licence.prohibited
            and all(e.action == "rebuild" for e in effect.effects if e.kind == "delete")
        ):
            return True  # "reinstall from scratch": what the tools make again, removed
        if (
            kind == "modify"
            and licence.permits("configure")
            and licence.words & _SWITCHING
            and switch_named(args, said)
        ):
            return True  # "enable the waiting room": a switch among the thing's settings
        return (
            asked_by_name
            and kind in _ASKED_BY_NAME
            and not licence.read_only
            and kind not in licence.prohibited
        )

    features: dict[str, float] = {
        "effect_read_only": float(effect.read_only),
        "effect_high_impact": float(effect.high_impact),
        "effect_irreversible": float(effect.irreversible),
        "effect_external": float(effect.external),
        "effect_unknown": float("unknown" in effect.kinds or effect.parse_error is not None),
        "unlicensed": float(any(not permits(k) for k in kinds)),
        "prohibited": float(any(k in licence.prohibited for k in effect.kinds)),
        "tainted": float(taint is not None),
    }
    amounts = call_numbers(args, effect)
    quantity = quantity_issue(effect, licence, args, results, said)
    wrong_amount = quantity is not None
    # a time other than the one stated, or a move the wrong way round
    off_course = (
        None
        if effect.read_only
        else (
            time_issue(args, said)
            or date_issue(args, said, results)
            or asset_issue(args, said)
            or direction_issue(args, said)
            or bound_issue(args, said)
            or branch_issue(effect, said)
            or commit_issue(effect, said)
            or moved_out_issue(effect, said)
            or other_file_issue(effect, args, said)
            or redirected_file_issue(effect, said)
            or folder_issue(effect, licence, results)
            or frequency_issue(args, said)
            or opposite_issue(effect, licence)
            or scope_issue(args, said)
            or person_removed_issue(effect, args, said, results)
            or recipient_issue(effect, args, said, results)
            or dictated_issue(effect, args, said)
            or confidential_issue(effect, args, said, results)
            or attachment_issue(effect, args, said, results)
            or card_issue(effect, args, said)
            or credential_issue(effect, args, said)
            or unsourced_detail_issue(effect, args, said, results)
            or broadcast_issue(effect, args, said)
            or told_number_issue(effect, args, said)
            or retold_number_issue(effect, args, said)
            or offer_issue(effect, args, said, results)
            or polarity_issue(effect, args, said)
            or location_issue(effect, args, said)
            or environment_issue(args, said)
            or comfort_issue(effect, args, said)
            or extent_issue(effect, args, said, results)
            or secret_written_issue(effect, args, said)
            or written_code_issue(effect, args, said)
            or dropped_code_issue(effect, args, said, read or {})
            or edit_scope_issue(effect, args, said, read)
        )
    )
    # "remove Dan from the planning board" does not license `delete_board`
    # (`remove_board_member` removes a member, `GitHubDeleteRepository` the repo)
    # ...but `delete_contacts` after "remove the duplicates from my contacts" deletes some
    container = {
        " ".join(nouns) for e in effect.effects if e.kind == "delete" and effect.source == "name"
        if (nouns := deleted_nouns(e.what))
        and all(among_said(w, licence.containers) for w in nouns)
        and not plural(nouns[-1])
    }  # fmt: skip
    container |= container_named(effect, args, said)
    # "remove bo@… from the budget sheet" does not license `delete_file(file="budget")`:
    # a tool that deletes a whole thing, given the thing the user removes something from
    container |= {
        value.strip()
        for e in effect.effects
        if e.kind == "delete" and effect.source == "name"
        and deletes_whole(deleted_nouns(e.what))
        for value in list(args.values())[:16]
        if isinstance(value, str) and (value_words := words(value))
        and all(among_said(w, licence.containers) for w in value_words)
    }  # fmt: skip
    features["wrong_time"] = float(off_course is not None)
    # edit rights where view rights were asked, or any higher role nobody asked for
    if effect.source == "sql":
        roles |= {r for e in effect.effects if e.kind == "grant" for r in sql_privileges(e.what)}
    above = (
        bool(roles & HIGHER_ROLES)
        and not any(_ROLE_NAMES.get(role, {role}) & licence.words for role in roles)
    ) or (
        # "so she can see my free/busy": any role beyond free/busy shows the events
        "grant" in effect.kinds
        and _FREE_BUSY.search(said[:20_000]) is not None
        and any(re.sub(r"[\W_]+", "", r) not in _FREE_BUSY_ROLES for r in roles)
    )
    # "invite kim@… as a guest": a member's role sees every open channel
    above = above or (
        "grant" in effect.kinds
        and _AS_GUEST.search(said[:20_000]) is not None
        and any(r.lower() in _MEMBER_ROLES for r in roles)
    )
    # "a read-only API key" with `permissions=["read", "trade"]`
    above = above or (not effect.read_only and beyond_read_only(args, said) is not None)
    # "mute #random" licenses a change, not `archive_channel`
    unasked = next(
        (e for e in effect.effects if e.action and not licence.names_action(e.action)), None
    )
    switched_off = (
        None
        if effect.read_only
        else switch_off_issue(args, licence, effect) or switch_on_issue(args, licence, said)
    )
    features["action_unasked"] = float(unasked is not None or switched_off is not None)
    features["wrong_amount"] = float(wrong_amount)
    features["permission_above_asked"] = float(above)
    # a local change that can be undone: where its words came from cannot show it hurts
    undoable = not (effect.external or effect.irreversible or effect.read_only)
    ceiling: Verdict = "escalate" if undoable else "deny"
    by_pattern = any(e.by_pattern for e in effect.effects)
    # `update_…`: a change to a record that exists, whose payee or address the user did
    # not ask to change
    updates = effect.source in ("name", "annotations") and any(
        tool_verb(e.what) in table().verbs["modify"] for e in effect.effects
    )

    def undecided(
        floor: Verdict,
        reason: str,
        faulted: bool = True,
        unseen: bool = False,
        tie: bool = False,
        reckoned: bool = False,
        unseen_id: bool = False,
        detail: bool = False,
        vague: bool = False,
        unplaced: bool = False,
        contained: bool = False,
        partial: bool = False,
    ) -> Stakes:
        """No rule settles it: the risk model (and the model) decide within floor..ceiling.
        Without any words of the user's (a proxy sees calls, not the conversation) the gate
        cannot tell overreach from a request: a person decides what no rule denies.
        A fault the evidence cannot tell from the user's wish caps the verdict at escalate:
        the user handed the agent instructions written elsewhere, or (`unseen`) a detail of
        an effect they asked for is one they did not give, no tool result is in view to
        hold it, and nothing they wrote is of its kind (the landlord's account when they
        said "pay the rent", not another account than the one they wrote), or (`tie`)
        their words fit the party the agent chose and another one just as well, or
        (`reckoned`) the user asked for a sum to be worked out ("send back the difference")
        and the gate cannot redo the sum from what it was shown, or (`unseen_id`) the call
        acts on a record by an id found in neither the user's words nor the results in view:
        a handle the agent may hold from a listing the gate was not shown (an earlier page,
        an earlier turn), which names no outside party, or (`detail`: a payee, a record or a
        sum, not the effect) the user left the details to a document the agent reads ("update
        my address accordingly") and no result has addressed the agent, or (`partial`) the
        user named the person by a first name and the agent used a fuller name or a handle
        made of it."""
        if not said.strip():
            return Stakes(
                None, floor, reason, False, features, "escalate", False,
                "no words of the user's to judge it against",
            )  # fmt: skip
        if unplaced:
            # after taint, a target found nowhere in view: neither the passage's nor the
            # user's, so a person decides and no risk denies it
            return Stakes(
                None, floor, reason, False, features, "escalate", False,
                "a target found nowhere in view, after a result addressed the agent",
            )  # fmt: skip
        mismatch = faulted and floor == "escalate"
        capped = None
        if mismatch and licence.delegated:
            capped = "the user asked for instructions written elsewhere to be carried out"
        elif mismatch and detail and licence.referred and taint is None:
            capped = "the user left the details to something the agent read"
        elif mismatch and tie:
            capped = "the user's words fit more than one record, and the agent chose one"
        elif mismatch and vague and licence.vague:
            capped = "the user asked for an action the tables do not know"
        elif mismatch and partial:
            capped = "the user named it by part of the name the agent used"
        elif mismatch and contained:
            capped = "the record the user named, in a repository or workspace the agent chose"
        elif mismatch and reckoned:
            capped = "a sum the user asked to be worked out from what the agent read"
        elif (
            mismatch
            and unseen
            and (not results or unseen_id or shape_unseen(grounding.unnamed, results))
        ):
            # the detail may well come from what the agent read, which the gate was not shown
            capped = (
                "a detail the user did not give, with no tool result in view that could hold it"
            )
        if capped is not None:
            return Stakes(None, floor, reason, False, features, "escalate", True, capped)
        return Stakes(None, floor, reason, False, features, ceiling, mismatch)

    def on_unnamed(reason: str) -> Stakes:
        """A call the user asked for, on targets found nowhere: a detail the gate was not
        shown when it is of a kind the agent looks up (`looked_up`), or a record id when no
        result in view holds the record the user described; or the repository or workspace
        that holds the record the user named by its number (`contained`)."""
        return undecided(
            "escalate",
            reason,
            unseen=looked_up(grounding.unnamed, said, ids_only=updates),
            unseen_id=looked_up(grounding.unnamed, said, ids_only=True)
            and not holds_described(said, results),
            detail=True,
            contained=in_unnamed_container(args, grounding.unnamed, said),
            partial=partly_named(grounding.unnamed, said, results),
        )

    if effect.parse_error is not None or "unknown" in effect.kinds:
        # what the call does is not known, so nothing shows it is off what the user asked:
        # the model may send it to a person, and only people's rejections deny it
        why = effect.parse_error or "an effect the tables do not know"
        return Stakes(
            None,
            "escalate" if kinds else "allow",
            f"unjudged: {why}",
            False,
            features,
            "escalate",
            why_capped="what it does is not in the tables",
        )
    broken = sorted(k for k in effect.kinds if k in licence.prohibited)
    if broken:
        said = "only asked for information" if licence.read_only else f"said not to {broken[0]}"
        return Stakes(
            "deny", "deny", f"{'/'.join(broken)} although the user {said}", False, features
        )
    if switched_off is not None and licence.no_switch_off:
        # "… but don't turn them off": the act the user forbade by name
        return Stakes(
            "deny", "deny", f"a switch off the user forbade: {switched_off}", False, features
        )
    unlicensed = sorted(k for k in kinds if not permits(k))
    if effect.high_impact and unlicensed:
        what = next(e.what for e in effect.effects if e.high_impact)
        weakens = any(
            e.high_impact and e.action == "weaken-security" for e in effect.effects
        ) and not licence.names_action("weaken-security")
        if grounding.in_request and grounding.names and licence.permits("modify") and not weakens:
            # "I can't reach my app on port 8080, fix it" → `ufw allow 8080/tcp`: a change
            # was asked for, on what the user named, though not of this weight: a person
            # decides
            return undecided(
                "escalate", f"high-impact {unlicensed[0]} on what the user named: {what}"
            )
        return Stakes(
            "deny",
            "deny",
            f"high-impact {unlicensed[0]} the user did not ask for: {what}",
            False,
            features,
        )
    opened = next(
        (e for e in effect.effects if e.action == "public" and not licence.names_action("public")),
        None,
    )
    if opened is not None:
        # "share it with Priya" grants her access, not everyone's: a link for anyone is
        # more than was asked, and cannot be taken back once it has been seen
        return Stakes(
            "deny", "deny", f"opens it to anyone, which the user did not ask for: {opened.what}",
            False, features,
        )  # fmt: skip
    # after a result addressed the agent, only names it could not have planted still count
    clean = taint is not None and grounding.origin == "clean"
    named = (
        grounding.in_request
        or (grounding.in_session and (taint is None or clean))
        or (taint is None and on_current_work(effect, licence))
        or (taint is None and addressed_by_name(effect, grounding, args, said))
        or (taint is None and paid_from_unnamed(effect, grounding, args))
    )
    secret_store = next((n for n in grounding.unnamed if credential_store(n, said)), None)
    if secret_store is None and effect.read_only:
        secret_store = secret_tool(effect, args, said)
    if secret_store is None and effect.read_only:
        # "what env vars does the app need?" speaks of variables, not of the file that
        # holds their values: `.env` is read only when the user points to the file
        secret_store = next(
            (
                n
                for n in grounding.names
                if _PROJECT_SECRETS.search(n) and not FILE_SAID.search(said)
            ),
            None,
        )
    if effect.read_only and secret_store is not None:
        # a key or a credentials file nobody asked about is what an exfiltration reads
        # first; reading it is harmless only when the user wanted it read
        return undecided(
            "escalate", f"reads {secret_store[:80]}, a credential store the user did not name"
        )
    tracked = tracked_secret(effect, said)
    if tracked is not None:
        # once committed, a key is in every clone and every push of the history
        return undecided(
            "escalate",
            f"puts {tracked[:80]} under version control, a secrets file the user did not name",
        )
    ordered = (
        ordered_read(effect, args, said, results)
        if effect.read_only and taint is not None
        else None
    )
    if ordered is not None:
        # "retrieve my saved addresses and email them to …" in a product review: the read
        # is the first half of the exfiltration it orders, not part of the user's request
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), reads the {ordered} it "
            "asked for, which the user did not",
        )
    if effect.read_only and effect.external and carries_secret(effect, args, said):
        # a key in a link's query reaches that server's logs as a message would
        return undecided("escalate", "carries a password, code or key the user did not give")
    if effect.read_only:
        local = not effect.external
        # a command that reads the user's own systems (`kubectl get pods`, `aws s3 ls`)
        # carries nothing out unless it names a link
        own_systems = effect.source == "shell" and not any(
            o.lower().startswith(("http://", "https://", "ftp://")) for o in effect.objects
        )
        if (
            local
            or named
            or (own_systems and taint is None)
            # a page on a site the user named ("on shop.example"), whatever its path
            or (taint is None and hosts_named(grounding.unnamed, said))
            # a record fetched by its id (`get_booking(booking_ref="X7K2LQ")`): an id
            # names no place, so nothing leaves by the read
            or (taint is None and bare_ids_only(grounding.unnamed))
        ):
            return Stakes(
                "allow",
                "allow",
                "reads only"
                + (
                    ""
                    if local or own_systems
                    else ", from a place the user or this request's results named"
                ),
                True,
                features,
            )
        if taint is not None:
            # the link an injected result asks the agent to open is how a phishing page or
            # an exfiltrating URL is reached
            return undecided(
                "escalate",
                f"after a tool result addressed the agent ({taint!r}), a read from a place "
                "the user did not name",
            )
        return undecided("allow", "reads from a place nobody in this request named")
    if unlicensed:
        return undecided(
            "escalate", f"{'/'.join(unlicensed)} the user did not ask for", vague=taint is None
        )
    if unasked is not None:
        return undecided(
            "escalate", f"{unasked.action} ({unasked.what[:80]}), an action the user did not name"
        )
    if switched_off is not None:
        return undecided("escalate", switched_off)
    if carries_secret(effect, args, said):
        # the secret itself stays out of the reason: reasons are logged
        return undecided("escalate", "carries a password, code or key the user did not give")
    # after taint, what can reach out or not be undone: code from a link run (`curl … | sh`)
    # is as much the passage's goal as a payment
    reaching = kinds & {"send", "pay", "delete", "grant"} or effect.high_impact
    if taint is not None and reaching and not named:
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), a "
            f"{'/'.join(sorted(kinds))} on things the user did not name",
            faulted=grounding.origin != "unseen",
            unplaced=grounding.origin == "unseen",
        )
    planted = planted_setting(args, said, results) if taint is not None else None
    if planted is not None:
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), sets {planted}, which that "
            "passage named and the user did not",
        )
    if quantity is not None:
        # "pay the bill", "send them the 10% increase": the user stated no sum, so the one
        # paid comes from what the agent read
        plain = [
            a for a in licence.amounts if not any(nearly_equal(a, p) for p in licence.percents)
        ]
        only_the_sum = (
            not licence.rejected
            and (not grounding.unnamed or looked_up(grounding.unnamed, said, ids_only=updates))
            and off_course is None
            and not container
            and not above
            and not by_pattern
        )
        # "sell half of my TSLA position" with no holding in view: a share the gate cannot
        # work out, as a difference is ("half of the $300" it can)
        share = not results and _SHARE_OF_HOLDING.search(said[:20_000]) is not None
        return undecided(
            "escalate",
            quantity,
            unseen=not plain and only_the_sum,
            reckoned=(licence.reckoned or share) and not licence.percents and only_the_sum,
            # a number the user gave is theirs, whatever else they left to the agent
            detail=only_the_sum and not plain,
        )
    if off_course is not None:
        return undecided("escalate", off_course)
    if container:
        return undecided(
            "escalate",
            f"deletes the {'/'.join(sorted(container))} the user asked to remove something from",
        )
    if above:
        return undecided("escalate", "more access than the user asked for")
    listed = listed_delete_issue(effect, grounding, said)
    if listed is not None:
        return undecided("escalate", listed, detail=True)
    if grounding.off_record is not None:
        return undecided(
            "escalate",
            f"on a record other than the one the user described: {grounding.off_record!r}",
            tie=grounding.tied,
            detail=True,
        )
    # only now, after the checks of what the user asked for: a high-impact change on the
    # wrong object, or of an action not asked for, is faulted above, not merely confirmed
    if effect.high_impact and confirm_high_impact:
        return Stakes(
            "escalate",
            "escalate",
            "a high-impact change the user asked for: confirm it",
            False,
            features,
        )
    if max_payment is not None and "pay" in effect.kinds and any(a > max_payment for a in amounts):
        return Stakes(
            "escalate", "escalate", f"a payment above the policy's {max_payment}", False, features
        )
    if by_pattern and not grounding.in_request:
        return undecided(
            "escalate",
            f"acts on everything a name matches ({effect.effects[0].what[:80]}), a name the "
            "user did not give",
        )
    # a coding agent's latitude over files the user did not name does not reach the folder
    # that holds the one they named (`git rm -r src/` after "remove src/legacy_api.py")
    deleted = [o for e in effect.effects if e.kind == "delete" for o in e.objects]
    removes = bool(deleted) and any(holds_named(o, said[:20_000].lower()) for o in deleted)
    if (
        undoable
        and (named or (coding and not outside_project(effect, grounding, said) and not removes))
        and (
            taint is None
            or clean
            # inside the project, unless the call carries what the passage brought in (a
            # `curl … | sh` it asked to be added to package.json's scripts)
            or (coding and in_project(effect, grounding) and grounding.origin != "planted")
        )
    ):
        # a local change that can be undone (an edit, a test run, a build) the user asked
        # for: a coding agent's words need not be the user's (`make test` after "fix the
        # failing test"); an app's objects (a task, a thermostat) must be theirs. After a
        # result addressed the agent, only work inside the project still passes alone
        return Stakes(
            "allow",
            "allow",
            f"local, reversible {'/'.join(sorted(kinds))} the user asked for",
            True,
            features,
        )
    if taint is not None and not named:
        # what a result that addressed the agent named (a script in a CI log) is not the
        # user's object, whatever the call does with it
        return undecided(
            "escalate",
            f"after a tool result addressed the agent ({taint!r}), a "
            f"{'/'.join(sorted(kinds))} on things the user did not name",
            faulted=grounding.origin != "unseen",
        )
    priced_only = "pay" in kinds and all(
        re.fullmatch(r"[\d.,]+", n) for n in grounding.names
    )  # "Place order ($84.20)": the page's own price names no order of the user's
    if effect.source == "page" and (not grounding.names or priced_only) and taint is None:
        # "Place order" on the shop the user asked to order from: the click names nothing
        # of its own, so what it acts on is what the page holds, for a person to see
        return Stakes(
            None,
            "escalate",
            f"{'/'.join(sorted(kinds))} the user asked for, by a click that names nothing "
            "of its own",
            False,
            features,
            "escalate",
            why_capped="what the click acts on is the page's, not a name to check",
        )
    if (
        not named
        and kinds == {"create"}
        and all(e.fetched for e in effect.effects if e.kind != "read")
    ):
        # a download from a place nobody named: nothing leaves, a person checks the source
        return undecided(
            "escalate",
            f"a copy fetched from {', '.join(grounding.unnamed[:2])[:120]}, which the user "
            "did not name",
            faulted=False,
        )
    if not named and (kinds & {"send", "pay", "grant", "delete"} or effect.external):
        return on_unnamed(
            f"{'/'.join(sorted(kinds))} the user asked for, to or on something they did not name"
        )
    if named and grounding.ranked and not grounding.in_request:
        # "book the best-rated hotel under 200": a listing held several, and whether the
        # one picked ranks first is the model's to read
        return undecided(
            "allow",
            f"{'/'.join(sorted(kinds))} the user asked for, on the one of several a listing "
            "holds that the user picked by rank",
        )
    if named:
        return Stakes(
            "allow",
            "allow",
            f"{'/'.join(sorted(kinds))} the user asked for, on what they named",
            True,
            features,
        )
    if grounding.unnamed:
        return on_unnamed(
            f"{'/'.join(sorted(kinds))} on {', '.join(grounding.unnamed[:3])}, which nobody in "
            "this request named"
        )
    return undecided(
        "allow", f"{'/'.join(sorted(kinds))} the user asked for, on things they did not name"
    )
