"""The facet normaliser against every value the imported io500.org data holds."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from registry.lists.facet_names import KINDS, Kind, canonical, slug, spelling_key

# Dumped from the database after `manage.py import_io500 /work/shared/io500-data`: the list rows'
# printed names, the storage systems' and the system descriptions' fields (no country is recorded).
REAL = json.loads((Path(__file__).parent / "real_facet_values.json").read_text())
FIELD = {
    "filesystem": "filesystems",
    "vendor": "vendors",
    "institution": "institutions",
    "country": "countries",
}


@pytest.mark.parametrize("kind", KINDS)
def test_no_two_canonical_names_of_real_values_differ_only_in_spelling(kind: Kind) -> None:
    by_key: dict[str, set[str]] = defaultdict(set)
    for value in REAL[FIELD[kind]]:
        name = canonical(kind, value)
        by_key[spelling_key(name, kind=kind)].add(name)
    clashes = {key: names for key, names in by_key.items() if len(names) > 1}
    assert clashes == {}


@pytest.mark.parametrize("kind", KINDS)
def test_every_real_value_keeps_a_name_and_a_slug(kind: Kind) -> None:
    for value in REAL[FIELD[kind]]:
        name = canonical(kind, value)
        if value == "#N/A":
            assert name == ""
            continue
        assert name, value
        assert slug(name), value


@pytest.mark.parametrize("kind", KINDS)
def test_slugs_of_distinct_canonical_names_differ(kind: Kind) -> None:
    names = {canonical(kind, value) for value in REAL[FIELD[kind]]} - {""}
    assert len({slug(name) for name in names}) == len(names)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("BeeGFS", "BeeGFS"),
        ("beegfs", "BeeGFS"),
        ("GPFS", "IBM Storage Scale (GPFS)"),
        ("SpectrumScale", "IBM Storage Scale (GPFS)"),
        ("Spectrum scale", "IBM Storage Scale (GPFS)"),
        ("IBM Storage Scale 5.1.7.1 with ESS 6.1.6.0", "IBM Storage Scale (GPFS)"),
        ("wekafs", "WekaFS"),
        ("Weka.io", "WekaFS"),
        ("WekaIO Matrix", "WekaFS"),
        ("lustre", "Lustre"),
        ("Lustre2", "Lustre"),
        ("local file system", "Local file system"),
        ("  DAOS ", "DAOS"),
    ],
)
def test_file_system_variants_map_to_one_product(value: str, expected: str) -> None:
    assert canonical("filesystem", value) == expected


def test_different_products_stay_apart() -> None:
    # GRIDScaler is DDN's appliance, EXAScaler DDN's Lustre: the vendor's product, not renamed.
    assert canonical("filesystem", "GRIDScaler") == "GRIDScaler"
    assert canonical("filesystem", "EXAScaler") == "EXAScaler"
    assert canonical("filesystem", "ext") != canonical("filesystem", "ext4")
    assert canonical("vendor", "Dell") != canonical("vendor", "Dell EMC")


@pytest.mark.parametrize(
    ("kind", "value", "expected"),
    [
        ("vendor", "Quobyte Inc.", "Quobyte"),
        ("vendor", "INSPUR", "Inspur"),
        ("vendor", "Dell. QCT. HGST", "Dell, QCT, HGST"),
        ("vendor", "Intel Corporation", "Intel"),
        ("vendor", "#N/A", ""),
        ("vendor", "", ""),
        ("vendor", None, ""),
        ("institution", "Queen Mary; University Of London", "Queen Mary, University of London"),
        ("institution", "Kaust", "KAUST"),
        ("institution", "SNL", "Sandia National Laboratories"),
        ("institution", "Some New Lab", "Some New Lab"),
        ("country", "USA", "United States"),
        ("country", "u.k.", "United Kingdom"),
    ],
)
def test_vendor_institution_and_country_spellings(kind: Kind, value: str | None, expected: str) -> None:
    assert canonical(kind, value) == expected


def test_slug_is_ascii_and_url_safe() -> None:
    assert slug("IBM Storage Scale (GPFS)") == "ibm-storage-scale-gpfs"
    assert slug("Forschungszentrum Jülich") == "forschungszentrum-julich"
