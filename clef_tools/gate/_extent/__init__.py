"""How much a call acts on, against how much the user asked for.

"Cancel tomorrow's standup" is one occurrence, not the series its record points to
(`recurring_event_id`); "delete the duplicate contact" is one contact, not both records of
it; "cancel my return flight" is a flight, not the trip that holds it; "share the Q3 deck"
is the deck, not the folder it sits in; "pay the bill" is paid once, not every month. Each
check finds the call doing more than the words asked: a person decides. The checks are
grouped by what they look at: people, files, code, values, amounts, occasions, switches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clef_tools.gate._conditions import condition_dropped_issue
from clef_tools.gate._dates import duration_issue
from clef_tools.gate._effects import CallEffect
from clef_tools.gate._extent._amounts import (
    amount_issue,
    listed_everything_issue,
    over_bound_issue,
    payment_switch_issue,
    unstated_counts,
    worded_sum_issue,
)
from clef_tools.gate._extent._code import (
    bump_level_issue,
    commits_issue,
    current_branch_issue,
    dev_dependency_issue,
    every_flag_issue,
    image_tag_issue,
    merge_method_issue,
    other_packages_issue,
    package_version_issue,
    pattern_issue,
    ranged_issue,
    revision_issue,
    unmerged_issue,
    upgrade_issue,
    version_issue,
)
from clef_tools.gate._extent._common import MAX_SAID, NUMBER_TOKEN
from clef_tools.gate._extent._files import (
    container_removed_issue,
    copied_issue,
    emptied_issue,
    folder_removed_issue,
    moved_not_copied_issue,
    original_issue,
    other_kind_issue,
    overwritten_issue,
    recreated_issue,
    renamed_into_issue,
    renamed_issue,
    symbol_not_file_issue,
    tidied_issue,
    unscoped_issue,
    whole_tree_issue,
)
from clef_tools.gate._extent._occasions import (
    extended_issue,
    numbered_issue,
    one_occurrence_issue,
    repeat_issue,
    series_issue,
    standing_rule_issue,
    tentative_issue,
    time_unasked_issue,
    trial_issue,
)
from clef_tools.gate._extent._people import (
    access_issue,
    assignee_issue,
    extra_party_issue,
    head_count_issue,
    holder_issue,
    role_issue,
    several_issue,
    source_channel_issue,
    told_anyway_issue,
)
from clef_tools.gate._extent._switches import (
    acting_switch_issue,
    bypass_issue,
    condition_issue,
    flag_unsaid_issue,
    forbidden_act_issue,
    scoped_prohibition_issue,
    switches,
)
from clef_tools.gate._extent._values import (
    by_amount_issue,
    cleared_field_issue,
    cut_issue,
    ends_swapped_issue,
    every_key_issue,
    house_number_issue,
    lookalike_issue,
    old_value_issue,
    part_of_address_issue,
    part_of_quoted_issue,
    range_unasked_issue,
    referred_issue,
    replaced_figure_issue,
    replaced_list_issue,
    replaced_text_issue,
    retitled_issue,
    swapped_issue,
    typo_issue,
    unprivate_issue,
    unwritten_issue,
)
from clef_tools.gate._states import state_issue, switched_state_issue, unasked_mode_issue

__all__ = ["NUMBER_TOKEN", "extent_issue", "switches", "unstated_counts"]


def extent_issue(
    effect: CallEffect, args: Mapping[str, Any], said: str, results: Sequence[str]
) -> str | None:
    """Why the call acts on more than the user asked for, if it does."""
    if effect.read_only or not said.strip():
        return None
    text = said[:MAX_SAID]
    return (
        series_issue(args, text, results)
        or one_occurrence_issue(effect, args, text, results)
        or several_issue(effect, args, text)
        or extra_party_issue(effect, args, text)
        or holder_issue(effect, args, text)
        or repeat_issue(effect, args, text)
        or access_issue(effect, text)
        or emptied_issue(effect, args, text)
        or unscoped_issue(effect, args, text)
        or container_removed_issue(effect, text)
        or folder_removed_issue(effect, text)
        or replaced_figure_issue(args, text)
        or unprivate_issue(args, text)
        or swapped_issue(effect, text)
        or cut_issue(args, text)
        or recreated_issue(effect, args, text, results)
        or overwritten_issue(effect, text)
        or renamed_issue(effect, args, text)
        or renamed_into_issue(effect, args, text)
        or original_issue(effect, args, text)
        or part_of_quoted_issue(effect, args, text)
        or part_of_address_issue(effect, args, text)
        or ends_swapped_issue(args, text, results)
        or old_value_issue(effect, args, text)
        or role_issue(effect, args, text, results)
        or unwritten_issue(args, text)
        or amount_issue(effect, args, text, results)
        or worded_sum_issue(effect, args, text)
        or tidied_issue(effect, args, text)
        or house_number_issue(effect, args, text)
        or copied_issue(effect, args, text)
        or told_anyway_issue(effect, args, text)
        or forbidden_act_issue(effect, text)
        or current_branch_issue(effect, text, results)
        or other_kind_issue(effect, text)
        or condition_issue(text, results)
        or bypass_issue(args, text)
        or duration_issue(args, text)
        or version_issue(effect, args, text)
        or bump_level_issue(effect, args, text)
        or over_bound_issue(effect, args, text, results)
        or commits_issue(effect, text)
        or every_flag_issue(effect, text)
        or every_key_issue(effect, args, text)
        or cleared_field_issue(effect, args, text)
        or revision_issue(effect, text, results)
        or merge_method_issue(args, text)
        or assignee_issue(effect, args, text)
        or pattern_issue(effect, args, text)
        or moved_not_copied_issue(effect, text)
        or symbol_not_file_issue(effect, text)
        or other_packages_issue(effect, text)
        or dev_dependency_issue(effect, text)
        or package_version_issue(effect, text)
        or unmerged_issue(effect, text)
        or referred_issue(effect, args, text)
        or ranged_issue(effect, text)
        or source_channel_issue(effect, args, text)
        or typo_issue(args, text)
        or lookalike_issue(args, text)
        or whole_tree_issue(effect, text, results)
        or flag_unsaid_issue(args, text)
        or acting_switch_issue(args, text)
        or payment_switch_issue(effect, args, text)
        or replaced_list_issue(effect, args, text, results)
        or by_amount_issue(effect, args, text, results)
        or retitled_issue(effect, args, text, results)
        or extended_issue(effect, args, text, results)
        or range_unasked_issue(effect, text)
        or replaced_text_issue(effect, args, text, results)
        or time_unasked_issue(effect, args, text)
        or head_count_issue(effect, args, text)
        or upgrade_issue(effect, args, text)
        or listed_everything_issue(effect, args, text)
        or image_tag_issue(effect, text)
        or scoped_prohibition_issue(effect, args, text)
        or numbered_issue(args, text)
        or tentative_issue(args, text)
        or condition_dropped_issue(effect, args, text)
        or state_issue(effect, args, text)
        or unasked_mode_issue(effect, args, text, results)
        or switched_state_issue(effect, switches(args), text)
        or standing_rule_issue(effect, text)
        or trial_issue(effect, args, text)
    )
