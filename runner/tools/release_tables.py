"""Write runner/src/releases.c: the INI option table of every IO500 release, from IO500/io500's own sources.

    python3 runner/tools/release_tables.py PATH_TO_IO500_IO500_GIT_CLONE > runner/src/releases.c

For every tag io500-isc20* .. io500-isc26_v2 (and sc*, scc*) and `main` it reads (io500-sc26, not in
the clones read, is listed with main's table: TAGS_BEYOND_CLONE), without building
anything, `src/phase-definitions.h` (the sections in the order the application writes them) and every
`ini_option_t` table of `src/*.c` (name, type, default, mandatory), plus the keys that the release's
`io500.sh` wrapper read from the same file but the C application never had. Tags with the same table
are one release entry, newest first (by the newest commit date among its tags). The output is data
only (names, types and default values), so the runner can accept the configuration of any release and
write `config.ini` and the config hash exactly as that release does.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass

STRING = r'"(?:[^"\\]|\\.)*"'
OPTION = re.compile(r"\{\s*(" + STRING + r")\s*,(.*?)\}\s*,", re.S)
# help text (string literals and macros), mandatory flag, type, default
OPTION_REST = re.compile(
    r"\s*(?:(?:"
    + STRING
    + r"|[A-Z_]+(?:\([A-Z0-9_]+\))?)\s*)+,\s*(\d+)\s*,\s*(INI_[A-Z0-9]+)\s*,\s*("
    + STRING
    + r"|NULL|0|TOSTRING\(IO500_MINWRITE\))\s*,",
    re.S,
)
TABLE = re.compile(r"ini_option_t\s+(\w+)\s*\[\]\s*=\s*\{(.*?)\{\s*(?:NULL|0)\s*\}\s*\}\s*;", re.S)
PHASE = re.compile(r"u_phase_t\s+(p_\w+)\s*=\s*\{\s*(" + STRING + r")\s*,\s*([^,]+),\s*(\w+)", re.S)
SCRIPT_KEY = re.compile(r"get_ini_param\s+([A-Za-z0-9_-]+)\s+([A-Za-z0-9_.-]+)")
C_TYPES = {
    "INI_STRING": "OPT_STRING",
    "INI_INT": "OPT_INT",
    "INI_UINT": "OPT_UINT",
    "INI_UINT64": "OPT_UINT64",
    "INI_BOOL": "OPT_BOOL",
    "INI_FLOAT": "OPT_FLOAT",
}
MINWRITE = "300"  # IO500_MINWRITE of io500-isc20*, the default of [debug] stonewall-time there


@dataclass(frozen=True)
class Option:
    name: str
    type: str
    default: str | None
    mandatory: bool


@dataclass(frozen=True)
class Section:
    name: str
    optional: bool  # IO500_PHASE_FLAG_OPTIONAL: run in extended mode only
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Table:
    sections: tuple[Section, ...]
    script_keys: tuple[tuple[str, str], ...]  # (section, key) read by io500.sh only


def git(repo: str, *args: str) -> str:
    done = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else ""


def parse_options(body: str, where: str) -> tuple[Option, ...]:
    options = []
    for match in OPTION.finditer(body):
        name = json.loads(match.group(1))
        rest = OPTION_REST.match(match.group(2))
        if not rest:
            raise SystemExit(f"{where}: cannot read the option {name}")
        raw = rest.group(3)
        default: str | None = None
        if raw.startswith("TOSTRING"):
            default = MINWRITE
        elif raw not in ("NULL", "0"):
            default = json.loads(raw)
        options.append(Option(name, C_TYPES[rest.group(2)], default, rest.group(1) != "0"))
    return tuple(options)


def read_table(repo: str, tag: str) -> Table:
    order = re.findall(r"&\s*(p_[A-Za-z0-9_]+)", git(repo, "show", f"{tag}:src/phase-definitions.h"))
    phases: dict[str, Section] = {}
    for path in git(repo, "ls-tree", "--name-only", f"{tag}:src/").split():
        if not path.endswith(".c"):
            continue
        text = git(repo, "show", f"{tag}:src/{path}")
        tables = {m.group(1): parse_options(m.group(2), f"{tag} {path}") for m in TABLE.finditer(text)}
        for m in PHASE.finditer(text):
            var, name, kind, table = m.group(1), json.loads(m.group(2)), m.group(3), m.group(4)
            phases[var] = Section(name, "OPTIONAL" in kind, tables[table])
    sections = tuple(phases[var] for var in order)
    known = {(s.name.lower(), o.name.lower()) for s in sections for o in s.options}
    script = git(repo, "show", f"{tag}:io500.sh")
    read = SCRIPT_KEY.findall(script)
    script_keys = sorted({(s, k) for s, k in read if (s.lower(), k.lower()) not in known})
    return Table(sections, tuple(script_keys))


# Release tags that IO500/webpage names but the clone does not hold, with the table they are taken to
# share. io500-sc26: cfs_sc26.php (IO500/webpage @7051569) names the tag; no fetched clone has it (main
# 02091cf, 2026-07-22, is the newest), and the only later source seen (src/phase_ior_rnd4k_easy_read.c
# @701fee6c3e06) changes the phase's IOR arguments, not its options, so its INI table is main's.
# fixtures/io500_versions.json records the same.
TAGS_BEYOND_CLONE = {"io500-sc26": "main"}


def c_string(value: str | None) -> str:
    return "NULL" if value is None else json.dumps(value)


def main() -> None:
    repo = sys.argv[1]
    tags = [t for t in git(repo, "tag").split() if re.match(r"io500-(isc|sc|scc)\d", t)] + ["main"]
    groups: dict[Table, list[str]] = {}
    dates: dict[str, int] = {}
    for tag in tags:
        groups.setdefault(read_table(repo, tag), []).append(tag)
        dates[tag] = int(git(repo, "log", "-1", "--format=%ct", tag).strip())
    ordered = sorted(groups.items(), key=lambda item: max(dates[t] for t in item[1]), reverse=True)
    main_commit = git(repo, "rev-parse", "--short=12", "main").strip()
    out = [
        "/* The INI option table of every IO500 release (generated: do not edit).",
        f"   python3 runner/tools/release_tables.py <IO500/io500 clone>; main was {main_commit}.",
        "   Data read from each tag: src/phase-definitions.h, the option tables of its C files, io500.sh. */",
        '#include "releases.h"',
        "",
        "#include <stddef.h>",
        "",
    ]
    arrays: dict[tuple[Option, ...], str] = {}
    for table, _ in ordered:
        for section in table.sections:
            if section.options in arrays:
                continue
            name = f"opts_{len(arrays)}"
            arrays[section.options] = name
            out.append(f"static const rel_option_t {name}[] = {{")
            for o in section.options:
                mandatory = "true" if o.mandatory else "false"
                out.append(f"    {{{c_string(o.name)}, {o.type}, {c_string(o.default)}, {mandatory}}},")
            out.append("    {NULL, OPT_STRING, NULL, false}};")
    out.append("")
    for index, (table, _) in enumerate(ordered):
        out.append(f"static const rel_section_t sections_{index}[] = {{")
        for s in table.sections:
            optional = "true" if s.optional else "false"
            out.append(f"    {{{c_string(s.name)}, {arrays[s.options]}, {optional}}},")
        out.append("    {NULL, NULL, false}};")
        keys = "".join(f"{{{c_string(s)}, {c_string(k)}}}, " for s, k in table.script_keys)
        out.append(f"static const rel_key_t script_keys_{index}[] = {{{keys}{{NULL, NULL}}}};")
    out.append("")
    out.append("const release_t releases[] = {")
    for index, (_, group_tags) in enumerate(ordered):
        names = sorted(group_tags, key=lambda t: (dates[t], t))
        names += [tag for tag, like in TAGS_BEYOND_CLONE.items() if like in group_tags and tag not in tags]
        out.append(f"    {{{c_string(', '.join(names))}, sections_{index}, script_keys_{index}}},")
    out.append("};")
    out.append("const size_t release_count = sizeof(releases) / sizeof(releases[0]);")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
