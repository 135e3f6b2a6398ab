"""User names a new account may take: none that hides characters or passes for another's.

A user name is shown on the submissions and the review pages as who uploaded a result. Three ways to
pass for someone were open at sign-up:

* invisible and bidi control characters (U+202E turns the text around it, U+200B hides a split);
* letters of two scripts, one made to look like the other ("alice" with a Cyrillic a): refused
  with the `confusable_homoglyphs` package (Unicode's confusables.txt and Scripts.txt), when the
  name mixes scripts and one of its letters looks like a Latin one;
* a whole name in another script that reads as an existing one ("ceo" in Cyrillic letters): each
  letter is replaced by the Latin letter it looks like (its "skeleton", after UTS #39) and the
  result compared with the skeletons of the existing names.

Names in one script that look like no existing name (Greek, Cyrillic, CJK, accented Latin) stay
welcome.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from registry.core.text import BIDI_CONTROLS, username_key

# Unicode's general categories of characters that show nothing or steer the display: format
# (bidi controls, zero-width joiners and spaces), control, surrogate, private use, unassigned.
_HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Co", "Cn"})


def hidden_characters(name: str) -> list[str]:
    """The code points of `name` that show nothing or steer the display (U+202E, ...)."""
    return [
        f"U+{ord(char):04X}"
        for char in name
        if char in BIDI_CONTROLS or unicodedata.category(char) in _HIDDEN_CATEGORIES
    ]


@lru_cache(maxsize=4096)
def _latin_look_alike(char: str) -> str:
    """The Latin letters `char` looks like, or `char` itself when it is Latin or looks like none."""
    if categories.alias(char) in ("LATIN", "COMMON"):
        return char
    for homoglyph in confusables.confusables_data.get(char, ()):
        glyph = homoglyph["c"]
        if all(categories.alias(part) == "LATIN" for part in glyph):
            return str(glyph)
    return char


def skeleton(name: str) -> str:
    """What a name looks like: its key (NFKC, casefold), each letter as the Latin letter it resembles."""
    return username_key("".join(_latin_look_alike(char) for char in username_key(name)))


def username_problems(name: str, *, existing: list[str] | None = None) -> list[str]:
    """Why `name` may not be a new account's (an empty list when it may). `existing` defaults to
    every account's name; the skeleton of each is compared with the new name's."""
    problems: list[str] = []
    hidden = hidden_characters(name)
    if hidden:
        problems.append(
            f"A user name may not hold invisible or text-direction characters ({', '.join(hidden[:5])})."
        )
        return problems
    if confusables.is_dangerous(name, preferred_aliases=["latin"]):
        problems.append(
            "This user name mixes letters of different scripts that look alike (such as a Cyrillic "
            '"a" among Latin letters); write it in one script.'
        )
        return problems
    names = existing if existing is not None else _existing_names()
    wanted = skeleton(name)
    if any(skeleton(other) == wanted for other in names):
        problems.append("This user name looks like the name of an existing account; choose another.")
    return problems


def _existing_names() -> list[str]:
    model = get_user_model()
    return [str(name) for name in model._default_manager.values_list(model.USERNAME_FIELD, flat=True)]


def validate_new_username(name: str) -> None:
    problems = username_problems(name)
    if problems:
        raise ValidationError(problems, code="username-look-alike")
