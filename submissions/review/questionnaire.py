"""The reproducibility questionnaire: every IO500 section answered with at least 10 words, but for
the optional feedback on the questionnaire itself."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.core.exceptions import ValidationError

from submissions.review.models import QUESTIONNAIRE_MIN_WORDS, QUESTIONNAIRE_OPTIONAL, QUESTIONNAIRE_SECTIONS

_WORD = re.compile(r"\S+")
MAX_ANSWER_CHARS = 20_000


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def questionnaire_clean(answers: Mapping[str, object]) -> dict[str, str]:
    """The answers, stripped, for every section; ValidationError naming each short or missing one."""
    clean: dict[str, str] = {}
    errors: dict[str, list[str]] = {}
    for name, (title, _question) in QUESTIONNAIRE_SECTIONS.items():
        raw = answers.get(name)
        text = raw.strip() if isinstance(raw, str) else ""
        words = word_count(text)
        optional = name in QUESTIONNAIRE_OPTIONAL
        if len(text) > MAX_ANSWER_CHARS:
            errors[name] = [f"{title}: keep the answer under {MAX_ANSWER_CHARS:,} characters."]
        elif optional:
            pass  # any length, empty included
        elif not text:
            errors[name] = [
                f"{title}: this question needs an answer of at least {QUESTIONNAIRE_MIN_WORDS} words."
            ]
        elif words < QUESTIONNAIRE_MIN_WORDS:
            errors[name] = [
                f"{title}: answer with at least {QUESTIONNAIRE_MIN_WORDS} words; this answer has {words}."
            ]
        clean[name] = text
    if errors:
        raise ValidationError(errors)
    return clean


def questionnaire_missing(answers: Mapping[str, object]) -> list[str]:
    """The titles of the sections that are not answered well enough (empty when complete)."""
    try:
        questionnaire_clean(answers)
    except ValidationError as error:
        return [QUESTIONNAIRE_SECTIONS[name][0] for name in error.message_dict]
    return []
