"""Canonical names of file systems, vendors, institutions and countries, for facets and entity pages.

io500.org prints what each submitter typed, so one product appears as "BeeGFS" and "beegfs", one
site as "Queen Mary, University Of London" and "Queen Mary; University Of London". Rows keep the
recorded value; facets, statistics and entity pages group by `canonical(kind, value)`.

Pure Python (no Django): the tables below were written from every distinct value in the imported
io500.org data (tests/registry/lists/real_facet_values.json, dumped after `manage.py import_io500`),
and tests/registry/lists/test_facet_names.py checks each of those values.

Two spellings merge when their `spelling_key` is equal (case, punctuation and spacing ignored) or when
the tables below name one as an alias of the other. Aliases are only added where the values are the
same product or organisation; anything unsure stays apart.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Literal

Kind = Literal["filesystem", "vendor", "institution", "country"]
KINDS: tuple[Kind, ...] = ("filesystem", "vendor", "institution", "country")

# Values that say nothing (a spreadsheet error, a blank); they count as "not recorded".
_EMPTY = {"", "#n/a", "n/a", "na", "none", "null", "-", "unknown"}

# Company-form suffixes that never tell two vendors apart ("Quobyte Inc." is Quobyte).
_COMPANY_SUFFIXES = ("inc", "incorporated", "corporation", "corp", "gmbh", "ltd", "limited", "llc", "co")

# canonical name -> spellings recorded on io500.org that mean the same thing (besides case and
# punctuation, which `spelling_key` already ignores).
_FILESYSTEMS: dict[str, tuple[str, ...]] = {
    # IBM renamed GPFS to Spectrum Scale in 2015 and Spectrum Scale to Storage Scale in 2023; one
    # product (IBM's own pages title it "IBM Spectrum Scale (GPFS)", ibm.com/support/pages/node/881468;
    # IBM's install repository IBM/ibm-spectrum-scale-install-infra calls it "IBM Storage Scale (GPFS)").
    # DDN's GRIDScaler appliance is kept apart: the entry names a vendor product, not the file system.
    "IBM Storage Scale (GPFS)": (
        "GPFS",
        "Spectrum Scale",
        "SpectrumScale",
        "IBM Spectrum Scale",
        "IBM Storage Scale",
        "IBM Storage Scale 5.1.7.1 with ESS 6.1.6.0",
    ),
    # WekaIO sells one file system, first marketed as "Matrix" (MatrixFS), now WekaFS; the other
    # spellings name the company in the file-system column.
    "WekaFS": ("WekaIO", "Weka.io", "wekaio", "WekaIO Matrix", "Matrix", "Weka"),
    # Numbered instances of one Lustre installation ("Lustre1", "Lustre2", "lustre06").
    "Lustre": ("Lustre1", "Lustre2", "lustre06"),
    "BeeGFS": (),
    "DAOS": (),
    "CephFS": (),
    "Local file system": (),
    "Quobyte": ("Quobyte File System 5.0 pre-release",),
    # Qumulo's file system product is called Qumulo Core.
    "Qumulo": ("Qumulo Core",),
    # SUSE Enterprise Storage is SUSE's Ceph distribution; both entries name that product.
    "SUSE Enterprise Storage": ("SUSE Enterprise Storage - CephFS",),
    "VAST": ("Vast",),
}

_VENDORS: dict[str, tuple[str, ...]] = {
    "Inspur": (),
    "Intel": ("Intel Corporation",),
    "Intel, SK hynix": ("Intel. SK-Hynx",),
    "Quobyte": (),
    "ThinkParQ": (),
    "VAST Data": ("Vast",),
    "WekaIO": ("Weka.io", "Weka"),
    "RSC Group": ("RSC",),
    "Pengcheng Laboratory": ("Pengcheng",),
    "Cray/HPE": ("Cay/HPE",),
    "Dell, QCT, HGST": (),
    "SUSE, Intel, Lenovo": (),
    "National Supercomputer Center in Guangzhou": (),
    # The NEXTGenIO project (BSC) and ADA-FS (JGU) built GekkoFS together; four spellings of one pair.
    "BSC & JGU": ("NextGenIO (BSC & JGU)", "JGU (ADA-FS)& BSC (NEXTGenIO)", "BSC (NEXTGenIO) & JGU (Ada-FS)"),
}

_INSTITUTIONS: dict[str, tuple[str, ...]] = {
    "Queen Mary, University of London": (),
    "Janelia Research Campus, HHMI": ("Howard Hughes Medical Institute Janelia Research Campus",),
    "Joint Institute for Nuclear Research (JINR)": (
        "JINR",
        "Joint Institute for Nuclear Research",
        "Joint Institute of Nuclear Research",
    ),
    "KAUST": (),
    "Nanyang Technological University": ("Nanyang",),
    "Science and Technology Facilities Council (STFC)": (
        "STFC",
        "The Science and Technology Facilities Council",
    ),
    # DKRZ is the German Climate Computing Center (Deutsches Klimarechenzentrum).
    "German Climate Computing Center (DKRZ)": ("DKRZ", "German Climate Computing Center"),
    "Sandia National Laboratories": ("SNL",),
    "National Supercomputer Center in Guangzhou": (),
    "National Supercomputing Centre, Singapore": (),
    # One export decoded the full-width parentheses around "HSS" (UTF-8) as Windows-1252.
    "State Key Laboratory of High-end Server & Storage Technology (HSS)": (
        "State Key Laboratory of High-end Server & Storage Technology\u00ef\u00bc\u02c6HSS\u00ef\u00bc\u2030",
    ),
}

_COUNTRIES: dict[str, tuple[str, ...]] = {
    "United States": ("USA", "US", "U.S.", "U.S.A.", "United States of America"),
    "United Kingdom": ("UK", "U.K.", "Great Britain", "England", "Scotland"),
    "Germany": ("Deutschland", "DE"),
    "China": ("PRC", "People's Republic of China", "CN"),
    "Japan": ("JP",),
    "Russia": ("Russian Federation", "RU"),
    "South Korea": ("Korea", "Republic of Korea", "KR"),
    "Australia": ("AU",),
    "France": ("FR",),
    "Switzerland": ("CH",),
    "Saudi Arabia": ("KSA", "SA"),
    "Singapore": ("SG",),
    "Taiwan": ("TW",),
}

_TABLES: dict[Kind, dict[str, tuple[str, ...]]] = {
    "filesystem": _FILESYSTEMS,
    "vendor": _VENDORS,
    "institution": _INSTITUTIONS,
    "country": _COUNTRIES,
}


def spelling_key(value: str, *, kind: Kind | None = None) -> str:
    """The value with case, accents, punctuation and spacing ignored ("Weka.io" -> "weka io")."""
    text = unicodedata.normalize("NFKC", value).casefold()
    text = re.sub(r"[\W_]+", " ", text).strip()
    if kind == "vendor":
        words = text.split()
        while len(words) > 1 and words[-1] in _COMPANY_SUFFIXES:
            words.pop()
        text = " ".join(words)
    return text


def _index(kind: Kind) -> dict[str, str]:
    index: dict[str, str] = {}
    for name, aliases in _TABLES[kind].items():
        for spelling in (name, *aliases):
            index[spelling_key(spelling, kind=kind)] = name
    return index


_INDEXES: dict[Kind, dict[str, str]] = {kind: _index(kind) for kind in KINDS}


# Pages group thousands of entries by name (an entity page groups every published entry): the same
# few thousand recorded values over and over.
@functools.lru_cache(maxsize=16384)
def canonical(kind: Kind, value: str | None) -> str:
    """The name `value` is grouped under; "" when nothing meaningful was recorded."""
    cleaned = " ".join((value or "").split())
    if cleaned.casefold() in _EMPTY:
        return ""
    key = spelling_key(cleaned, kind=kind)
    if not key:
        return ""
    return _INDEXES[kind].get(key, cleaned)


def facet_key(kind: Kind, value: str | None) -> str:
    """What a facet value is matched by: its canonical name with case and punctuation ignored, so the
    canonical name, any recorded spelling of it and its slug ("ibm-storage-scale-gpfs") agree."""
    return spelling_key(canonical(kind, value), kind=kind)


@functools.lru_cache(maxsize=16384)
def slug(name: str) -> str:
    """The URL part of a canonical name ("IBM Storage Scale (GPFS)" -> "ibm-storage-scale-gpfs")."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")
