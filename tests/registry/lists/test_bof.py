"""fixtures/bof_facts.json: what the ISC25 and SC25 BoF slides say, each fact with its source."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from registry.importer.source import CALENDAR_FIXTURE
from registry.lists.bof import bof_facts

CATEGORIES = ("Bandwidth", "Metadata", "Overall")
UNITS = {"Bandwidth": "GB/s", "Metadata": "KIOPS/s", "Overall": "score"}


def test_the_isc25_and_sc25_slides_are_recorded_with_their_file_and_commit():
    facts = bof_facts()
    assert sorted(facts) == ["ISC25", "SC25"]
    calendar = json.loads(Path(CALENDAR_FIXTURE).read_text(encoding="utf-8"))
    releases = {entry["name"] for entry in calendar["later_releases"]}
    for name, fact in facts.items():
        assert name in releases
        assert fact.file == f"webroot/files/{name}_IO500_Presentation.pdf"
        assert re.fullmatch(r"[0-9a-f]{40}", fact.commit)
        assert (fact.counts[0].text, fact.counts[0].level) == (name, 0)  # the slide's own heading
        assert any("list entries" in line.text for line in fact.counts)
        # A sub-bullet always follows a bullet: the slide's nesting, never a level made up.
        levels = [line.level for line in fact.counts]
        assert all(level <= previous + 1 for previous, level in itertools.pairwise(levels))


def test_each_ranked_list_has_one_award_per_category_in_its_unit():
    for fact in bof_facts().values():
        groups = dict(fact.award_groups)
        assert list(groups) == ["10 Client Production", "10 Client Research", "Production", "Research"]
        for awards in groups.values():
            assert tuple(award.category for award in awards) == CATEGORIES
            assert all(award.unit == UNITS[award.category] for award in awards)


def test_the_counts_are_the_slides_numbers():
    isc25, sc25 = bof_facts()["ISC25"], bof_facts()["SC25"]
    isc25_lines = [(line.level, line.text) for line in isc25.counts]
    sc25_lines = [(line.level, line.text) for line in sc25.counts]
    assert (0, "19 submissions (2 rejected)") in isc25_lines and (0, "Around 285 list entries") in isc25_lines
    assert (1, "12 for IO500 Research") in isc25_lines
    assert sc25_lines[4:6] == [(1, "1 new on Research list"), (2, "1 was not accepted")]
    assert (0, "Around 300 list entries") in sc25_lines
