"""The System One limits clef-tools enforces, as published by Workers AI Clef and hosted Jev.

One place, so the validator, the CLI's `model` report, the MCP resource and the HTTP server
all quote the same numbers.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["LIMITS"]

MIN_QUESTIONS: Final = 1
MAX_QUESTIONS: Final = 64
MIN_CHOICE_OPTIONS: Final = 2
MAX_CHOICE_OPTIONS: Final = 255
MIN_SCORE_LEVELS: Final = 2
MAX_SCORE_LEVELS: Final = 10
MAX_ID_LENGTH: Final = 100
ID_PATTERN: Final = re.compile(r"[A-Za-z0-9_.-]{1,100}")
MAX_OPTION_LABEL_CHARS: Final = 200
#: A cheap bound checked before tokenizing; the backend then checks real token counts.
MAX_STATE_CHARS: Final = 1_000_000
MAX_STATE_DEPTH: Final = 64
MAX_IMAGES: Final = 4
#: Pixels per image, checked from the file header before anything is decoded: a small
#: PNG can declare 12000² pixels and cost gigabytes once decoded. 4096² is far above what
#: vision encoders read (they resize down).
MAX_IMAGE_PIXELS: Final = 4096 * 4096
#: Text in questions (instructions, descriptions), so a question cannot smuggle a state.
MAX_QUESTION_TEXT_CHARS: Final = 20_000
#: The request's `model` field: a name, not a place to put a state.
MAX_MODEL_NAME_CHARS: Final = 256
#: At most this many problems are listed in one validation error; the rest are counted.
MAX_LISTED_ISSUES: Final = 50

LIMITS: Final[dict[str, int | str]] = {
    "questions_per_request": MAX_QUESTIONS,
    "choice_options_min": MIN_CHOICE_OPTIONS,
    "choice_options_max": MAX_CHOICE_OPTIONS,
    "score_levels_min": MIN_SCORE_LEVELS,
    "score_levels_max": MAX_SCORE_LEVELS,
    "question_id_pattern": ID_PATTERN.pattern,
    "option_label_max_chars": MAX_OPTION_LABEL_CHARS,
    "state_max_chars": MAX_STATE_CHARS,
    "state_max_depth": MAX_STATE_DEPTH,
    "images_max": MAX_IMAGES,
    "image_max_pixels": MAX_IMAGE_PIXELS,
    "question_text_max_chars": MAX_QUESTION_TEXT_CHARS,
    "model_name_max_chars": MAX_MODEL_NAME_CHARS,
}

#: How questions are written, with their limits: for the help of every surface that takes them.
QUESTIONS_HELP: Final = (
    f"{MIN_QUESTIONS}–{MAX_QUESTIONS} questions keyed by an id ({ID_PATTERN.pattern}). Each is "
    '{"type": "noul", "instructions": "yes/no question", "criteria": {"true": '
    '"what counts as yes", "false": "what counts as no"}} or {"type": "choice", '
    '"instructions": "...", "criteria": {"option_name": "description", ...}} '
    f"({MIN_CHOICE_OPTIONS}–{MAX_CHOICE_OPTIONS} options) or "
    '{"type": "score", "instructions": "...", "criteria": '
    f'["lowest level", ..., "highest level"]}} ({MIN_SCORE_LEVELS}–{MAX_SCORE_LEVELS} levels).'
)
OPTIONS_HELP: Final = (
    f"{MIN_CHOICE_OPTIONS}–{MAX_CHOICE_OPTIONS} named options → a description of when to pick each"
)
