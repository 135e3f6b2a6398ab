"""Options of an IOR / mdtest command line, as the rules need them, numbers typed here.

Commands arrive in several spellings: `-t 47008`, `-t=47008`, `-O stoneWallingWearOut=1`,
`-O=stoneWallingWearOut=1`, sometimes behind an `mpirun ... ` prefix (shell-era `[Exec]` lines).
A value a rule compares as a number is read here, with the readers' one number parser, and never in
the rules (tests/architecture/test_rules_read_no_text.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from scoring.readers.numbers import to_float, to_int

TOOLS: tuple[str, ...] = ("ior", "mdtest", "md-workbench", "pfind")


# A quoted word or a run of non-blanks, glued together as a shell would ("-name "*01*"" -> one
# word). shlex does the same but is about fifty times slower, and rules read thousands of commands.
_WORD_RE = re.compile(r"""(?:"[^"]*"|'[^']*'|[^\s"'])+|["']""")


def _tokens(command: str) -> list[str]:
    return [word.replace('"', "").replace("'", "") for word in _WORD_RE.findall(command)]


def _tool_start(tokens: list[str]) -> int:
    """Index just past the benchmark executable, so launcher options (mpirun -np ...) are ignored."""
    for index, token in enumerate(tokens):
        base = token.rsplit("/", 1)[-1]
        if base in TOOLS or base.startswith(("ior-", "mdtest-")) or base in ("ior.exe", "mdtest.exe"):
            return index + 1
    return 0


@dataclass(frozen=True)
class CommandLine:
    tokens: tuple[str, ...]

    @staticmethod
    @lru_cache(maxsize=4096)
    def parse(command: str) -> CommandLine:
        tokens = _tokens(command)
        return CommandLine(tokens=tuple(tokens[_tool_start(tokens) :]))

    def has_flag(self, flag: str) -> bool:
        return flag in self.tokens

    def values(self, option: str) -> list[str]:
        """Every value given to `option`, in order, whether written `-x v` or `-x=v`."""
        if "=" not in option:
            return list(self._values_by_option.get(option, ()))
        found: list[str] = []
        prefix = option + "="
        for index, token in enumerate(self.tokens):
            if token == option and index + 1 < len(self.tokens):
                found.append(self.tokens[index + 1])
            elif token.startswith(prefix):
                found.append(token[len(prefix) :])
        return found

    @cached_property
    def _values_by_option(self) -> dict[str, list[str]]:
        """option -> its values, for every option without `=`, built in one pass over the tokens: the
        rules ask for dozens of options, and a command of a million tokens must not be walked for each."""
        index: dict[str, list[str]] = {}
        for position, token in enumerate(self.tokens):
            if position + 1 < len(self.tokens):
                index.setdefault(token, []).append(self.tokens[position + 1])
            name, equals, value = token.partition("=")
            if equals:
                index.setdefault(name, []).append(value)
        return index

    def value(self, option: str) -> str | None:
        """The last value of `option`: the one the tool's option parser keeps."""
        found = self.values(option)
        return found[-1] if found else None

    def number(self, option: str) -> float | None:
        """The last value of `option` as a finite number, or None when it is absent or no number."""
        return to_float(self.value(option))

    def o_options(self) -> dict[str, str]:
        """IOR `-O key=value` options."""
        options: dict[str, str] = {}
        for item in self.values("-O"):
            key, sep, val = item.partition("=")
            if sep:
                options[key] = val
        return options

    def shown(self, *options: str) -> str:
        """A short description of how the command sets `options`, for messages."""
        parts = []
        for option in options:
            val = self.value(option)
            parts.append(f"{option} {val}" if val is not None else f"no {option}")
        return ", ".join(parts)


def option_number(text: str | None) -> float | None:
    """An option's value as a command line or a configuration writes it (`-n 1000000`, `n = 1000000`,
    `stonewall-time = 300`): a finite number, else None."""
    return to_float(text)


SIZE_NAMES = ("transferSize", "blockSize")
_SUFFIXES = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}


def ior_size(text: str) -> int | None:
    """IOR's size syntax: digits with an optional k/m/g/t/p suffix in powers of 1024."""
    text = text.strip()
    scale = _SUFFIXES.get(text[-1:].lower(), 1) if text else 1
    digits = text[:-1] if scale != 1 else text
    number = to_int(digits) if digits.isdigit() else None  # isdigit() passes "²", which int() refuses
    return None if number is None else number * scale


def parameter_number(name: str, text: str) -> float | None:
    """An IOR parameter's value (by IOR's own name) as IOR reads it: sizes in IOR's size syntax."""
    if name in SIZE_NAMES:
        return ior_size(text)
    return to_float(text)  # finite only: int() of inf or nan raises in the rules


def configured_number(name: str, text: str) -> float | None:
    """A configured IOR parameter as the application passes it on. segmentCount is an INI_INT read
    with C's int conversion, which keeps the low 32 bits: 100000000000 becomes -s 1215752192 (a real
    run of the shared corpus)."""
    value = parameter_number(name, text)
    if name == "segmentCount" and value is not None and value == int(value):
        wrapped = int(value) & 0xFFFFFFFF
        return float(wrapped - (1 << 32) if wrapped >= 1 << 31 else wrapped)
    return value
