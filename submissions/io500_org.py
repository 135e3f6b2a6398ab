"""io500.org's names for the scored phases, written once: the columns of its `submissions` table and
of the list rows it published, which imported history keeps as its published record.
"""

from __future__ import annotations

# find: `find_mixed`, the column io500.org fills since ISC21; its SC19 .. ISC20 rows repeat the
# value in `find_easy`.
IO500_ORG_PHASE_NAMES: dict[str, str] = {
    "ior-easy-write": "ior_easy_write",
    "ior-hard-write": "ior_hard_write",
    "ior-easy-read": "ior_easy_read",
    "ior-hard-read": "ior_hard_read",
    "mdtest-easy-write": "mdtest_easy_write",
    "mdtest-hard-write": "mdtest_hard_write",
    "find": "find_mixed",
    "mdtest-easy-stat": "mdtest_easy_stat",
    "mdtest-hard-stat": "mdtest_hard_stat",
    "mdtest-easy-delete": "mdtest_easy_delete",
    "mdtest-hard-read": "mdtest_hard_read",
    "mdtest-hard-delete": "mdtest_hard_delete",
}

# Where a published record may hold a phase's value, first found first: for find also the older
# rows' `find_easy`, and `find` (the plotted lists' name).
PUBLISHED_PHASE_FIELDS: dict[str, tuple[str, ...]] = {
    phase: (name, "find_easy", "find") if phase == "find" else (name,)
    for phase, name in IO500_ORG_PHASE_NAMES.items()
}
