"""Rules read typed values: the readers parse every printed number and clock once
(scoring/readers/numbers.py) and hand the rules floats, counts and datetimes on the model.

Checked on the source of every rule module (and of verify.py and primary.py, which run the rules):
none imports the number parser, none turns text into a number with float()/int(), and none reads a
clock with strptime. Text that is a number must become one in a reader, where the one parser
decides what counts as a number (nan, inf, "1_000" and garbage do not).
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULE_MODULES = [
    *sorted((REPO / "scoring" / "rules").glob("*.py")),
    REPO / "scoring" / "verify.py",
    REPO / "scoring" / "primary.py",
]
PARSER_MODULE = "scoring.readers.numbers"
PARSER_NAMES = frozenset({"to_float", "to_int", "to_count", "to_clock", "half_unit"})
# Where the model keeps text as printed: a number read out of one of these is text being parsed.
TEXT_ATTRIBUTES = frozenset({"values", "config", "result_ini", "command", "text", "files"})
# Calls that hand back text: config and header lookups, command-line values, regex groups.
TEXT_CALLS = frozenset(
    {"config_value", "result_header", "value", "values", "group", "groups", "strip", "get"}
)
CLOCK_PARSERS = frozenset({"strptime", "fromisoformat"})


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _reads_text(node: ast.expr) -> bool:
    """Whether the expression takes its value from text: a string literal, a subscript or lookup of
    a text attribute, or a call that hands back text."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            return True
        if isinstance(inner, ast.JoinedStr):
            return True
        if isinstance(inner, ast.Attribute) and inner.attr in TEXT_ATTRIBUTES:
            return True
        if isinstance(inner, ast.Call) and _called_name(inner) in TEXT_CALLS:
            return True
    return False


def _is_text(node: ast.expr, text_names: set[str]) -> bool:
    """Whether the value is text itself: a name holding text, a string, a text attribute, a lookup
    in one, or a call that hands back text (a string passed as an argument does not count)."""
    if isinstance(node, ast.Name):
        return node.id in text_names
    if isinstance(node, ast.Constant | ast.JoinedStr):
        return isinstance(node, ast.JoinedStr) or isinstance(node.value, str)
    if isinstance(node, ast.Attribute):
        return node.attr in TEXT_ATTRIBUTES
    if isinstance(node, ast.Subscript):
        return _is_text(node.value, text_names)
    if isinstance(node, ast.Call):
        return _called_name(node) in TEXT_CALLS
    if isinstance(node, ast.BoolOp):
        return any(_is_text(value, text_names) for value in node.values)
    return False


def _is_str(annotation: ast.expr | None) -> bool:
    shown = ast.unparse(annotation).replace(" ", "") if annotation is not None else ""
    return shown in ("str", "str|None", "None|str", "Optional[str]")


def _text_names(function: ast.FunctionDef) -> set[str]:
    """The names that hold text in a function: parameters annotated as str, and names assigned text."""
    arguments = [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
    names = {arg.arg for arg in arguments if _is_str(arg.annotation)}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _is_text(node.value, names):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.value is not None
            and _is_text(node.value, names)
        ):
            names.add(node.target.id)
    return names


def text_parsing(source: str, filename: str) -> list[str]:
    """Each place in `source` where a rule parses text into a number or a clock, as `file:line: code`."""
    found: list[str] = []
    tree = ast.parse(source, filename=filename)
    text_names = {
        id(call): names
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        for names in [_text_names(function)]
        for call in ast.walk(function)
    }
    for node in ast.walk(tree):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = {alias.name for alias in node.names}
            if module == PARSER_MODULE or (module == "scoring.readers" and "numbers" in names):
                found.append(f"{where}: imports the number parser")
            elif names & PARSER_NAMES:
                found.append(f"{where}: imports {', '.join(sorted(names & PARSER_NAMES))}")
        elif isinstance(node, ast.Import):
            if any(alias.name == PARSER_MODULE for alias in node.names):
                found.append(f"{where}: imports the number parser")
        elif isinstance(node, ast.Call):
            name = _called_name(node)
            if name in ("float", "int") and isinstance(node.func, ast.Name) and node.args:
                names = text_names.get(id(node), set())
                if _reads_text(node.args[0]) or _is_text(node.args[0], names):
                    found.append(f"{where}: {ast.unparse(node)}")
            elif name in PARSER_NAMES or name in CLOCK_PARSERS:
                found.append(f"{where}: {ast.unparse(node)}")
    return found


def test_no_rule_parses_text_into_numbers_or_clocks() -> None:
    found = []
    for path in RULE_MODULES:
        found.extend(text_parsing(path.read_text(), str(path.relative_to(REPO))))
    assert found == []


def test_the_check_catches_each_way_a_rule_could_parse_text_again() -> None:
    # Each line is one regression the check must see; numbers the rules compute pass.
    source = "\n".join(
        [
            "from scoring.readers.numbers import to_float",
            "from scoring.readers import numbers",
            "import scoring.readers.numbers",
            "a = float(phase.values['t_delta'])",
            "b = int(phase.values.get('accessed-pairs'))",
            "c = float(config_value(run, 'debug', 'stonewall-time'))",
            "d = int(CommandLine.parse(phase.command).value('-n'))",
            "e = dt.datetime.strptime(phase.values.get('t_start'), FORMAT)",
            "f = float(match.group(1))",
            "g = to_float(text)",
            "def count(text: str | None) -> int | None:",
            "    stripped = text.strip() if text else None",
            "    return int(text) if text else int(stripped or '0')",
            "h = float(len(phase.ranks)) + int(depth) + float(volume.pairs_max * tasks)",
            "def share(items: dict[str, float], name: str) -> float:",
            "    depth = cmd.number('-z') or 0.0",
            "    return float(items[name]) + int(depth)",
        ]
    )
    lines = [entry.split(":")[1] for entry in text_parsing(source, "rule.py")]
    assert lines == [*(str(number) for number in range(1, 11)), "13", "13"]


def test_the_scan_reads_every_rule_family() -> None:
    names = {path.name for path in RULE_MODULES}
    assert {"evidence.py", "physics.py", "options.py", "structure.py", "find.py", "verify.py"} <= names
