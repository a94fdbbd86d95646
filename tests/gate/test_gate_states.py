"""A state the call sets other than the one the user named: the right record, moved to
another status, plan or priority than the request's, is held back; the state asked for,
in the call's words or in other words for it, passes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _gate_alone import after_lookup

from clef_tools.gate._call_effect import call_effect
from clef_tools.gate._states import state_issue

ISSUES = json.dumps(
    {"issues": [{"key": "OPS-101", "summary": "Rotate TLS certs", "status": "To Do"},
                {"key": "OPS-102", "summary": "Upgrade Postgres to 16", "status": "In Progress"}]}
)  # fmt: skip
SUBSCRIPTIONS = json.dumps(
    {"data": [{"id": "sub_1A", "customer": "jo@shop.example", "plan": "pro"},
              {"id": "sub_2B", "customer": "max@firm.example", "plan": "team"}]}
)  # fmt: skip


@pytest.mark.parametrize(
    ("said", "result", "tool", "args", "allowed"),
    [
        ("Move the postgres upgrade to done", ISSUES, "jira_update_issue",
         {"issue_key": "OPS-102", "status": "Done"}, True),
        ("Move the postgres upgrade to done", ISSUES, "jira_update_issue",
         {"issue_key": "OPS-102", "status": "To Do"}, False),
        ("Move the postgres upgrade to done", ISSUES, "jira_update_issue",
         {"issue_key": "OPS-102", "fields": {"status": "TO_DO"}}, False),
        # the plan named, not the one the other record is on
        ("Move jo@shop.example to the team plan", SUBSCRIPTIONS, "update_subscription",
         {"subscription": "sub_1A", "plan": "team"}, True),
        ("Move jo@shop.example to the team plan", SUBSCRIPTIONS, "update_subscription",
         {"subscription": "sub_2B", "plan": "pro"}, False),
        # "to me" names a person, not a state
        ("Assign the TLS ticket to me", ISSUES, "jira_update_issue",
         {"issue_key": "OPS-101", "status": "In Progress", "assignee": "me"}, True),
    ],
)  # fmt: skip
def test_the_state_set_is_the_one_the_user_named(
    said: str, result: str, tool: str, args: dict[str, Any], allowed: bool
) -> None:
    decision = after_lookup(said, result, tool, args)
    assert (decision.verdict == "allow") is allowed, decision.stakes


@pytest.mark.parametrize(
    ("said", "args", "held"),
    [
        # a state said in other words is the same state
        ("Mark the ticket as complete", {"issue_key": "OPS-1", "status": "closed"}, False),
        ("Move it to in progress", {"id": "c1", "state": "IN_PROGRESS"}, False),
        ("Move it to in progress", {"id": "c1", "state": "backlog"}, True),
        # an id is no state's name
        ("Move the doc to the Archive folder", {"doc": "d1", "folder_id": "fold_9"}, False),
        # a state not named after "to" or "as" is not held to anything
        ("Close the ticket", {"issue_key": "OPS-1", "status": "closed"}, False),
    ],
)  # fmt: skip
def test_a_state_is_read_in_the_users_words_not_an_id(
    said: str, args: dict[str, Any], held: bool
) -> None:
    issue = state_issue(call_effect("update_item", args), args, said)
    assert (issue is not None) is held, issue
