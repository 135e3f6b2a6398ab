"""Rules: each family is a function `(RunResult) -> list[Finding]`.

The score family (rules/score.py) also produces the recomputed score, so `verify_run` calls it
through `check_score`; `RULES` are all the other families, in the order their findings are shown.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.model import Finding, RunResult
from scoring.rules.evidence import evidence_rules
from scoring.rules.find import find_rules
from scoring.rules.hashes import hash_rules
from scoring.rules.hints import hint_rules
from scoring.rules.markers import marker_rules
from scoring.rules.options import options_rules
from scoring.rules.params import param_rules
from scoring.rules.physics import physics_rules
from scoring.rules.plausibility import plausibility_rules
from scoring.rules.score import score_rules
from scoring.rules.stonewall import stonewall_rules
from scoring.rules.structure import structure_rules

Rule = Callable[[RunResult], list[Finding]]

RULES: tuple[Rule, ...] = (
    stonewall_rules,
    marker_rules,
    hash_rules,
    structure_rules,
    evidence_rules,
    physics_rules,
    param_rules,
    options_rules,
    find_rules,
    hint_rules,
    plausibility_rules,
)
ALL_RULES: tuple[Rule, ...] = (score_rules, *RULES)

__all__ = ["ALL_RULES", "RULES", "Rule"]
