"""Custom ranking formulas: an arithmetic expression over a list entry's phase values.

A reader types e.g. `sqrt(ior_easy_write * ior_hard_write) / nodes` and the list is ranked by it
(io500.org's "Customize" equation). The text comes from a URL, so it is anyone's to make up: it is
read by the small recursive-descent parser below, never by `eval`, and evaluated in floating point
only (no integer powers that could fill memory, no attribute access, no names but the ones listed
here). Its length and nesting are bounded before any recursion could run deep.

Grammar (the usual precedence; `^` binds tighter than a leading minus and groups to the right):

    formula := sum
    sum     := product (("+" | "-") product)*
    product := unary (("*" | "/") unary)*
    unary   := ("-" | "+") unary | power
    power   := atom (("^" | "**") unary)?
    atom    := number | name | function "(" sum ("," sum)* ")" | "(" sum ")"

Nothing here touches the database, so it is cheap to test.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from scoring.model import SCORED_PHASES

MAX_LENGTH = 200
# Parentheses, function calls, signs and powers each count as one level.
MAX_DEPTH = 20

# The values a formula may name: each phase under io500.org's column name (ior_easy_write) and its
# name in the result files (ior-easy-write), plus the list columns. The key is the canonical name.
PHASE_NAMES: dict[str, str] = {phase.replace("-", "_"): phase for phase in SCORED_PHASES}
COLUMN_NAMES: dict[str, str] = {
    "score": "the IO500 score",
    "bw": "the bandwidth score (GiB/s)",
    "md": "the metadata score (kIOPS)",
    "nodes": "the client nodes",
    "procs": "the client processes",
}
_SPELLINGS: dict[str, str] = {
    **{name: name for name in COLUMN_NAMES},
    **{name: name for name in PHASE_NAMES},
    **{phase: name for name, phase in PHASE_NAMES.items()},
}


def _minimum(*values: float) -> float:
    return min(values)


def _maximum(*values: float) -> float:
    return max(values)


@dataclass(frozen=True)
class Function:
    apply: Callable[..., float]
    arity: int | None  # None: one or more arguments


FUNCTIONS: dict[str, Function] = {
    "sqrt": Function(math.sqrt, 1),
    "ln": Function(math.log, 1),
    "log10": Function(math.log10, 1),
    "log2": Function(math.log2, 1),
    "exp": Function(math.exp, 1),
    "abs": Function(abs, 1),
    "min": Function(_minimum, None),
    "max": Function(_maximum, None),
}


class FormulaError(ValueError):
    """The formula cannot be read; the message says what is wrong and where (1-based character)."""

    def __init__(self, message: str, position: int | None = None) -> None:
        self.reason = message
        self.position = position
        super().__init__(
            f"At character {position}: {message}"
            if position is not None
            else message[:1].upper() + message[1:]
        )


# ---------------------------------------------------------------------------------------------------
# The tree


@dataclass(frozen=True)
class Number:
    value: float


@dataclass(frozen=True)
class Name:
    name: str  # canonical: a key of _SPELLINGS' values


@dataclass(frozen=True)
class Negate:
    operand: Node


@dataclass(frozen=True)
class Binary:
    operator: str  # + - * / ^
    left: Node
    right: Node


@dataclass(frozen=True)
class Call:
    function: str
    arguments: tuple[Node, ...]


Node = Number | Name | Negate | Binary | Call


# ---------------------------------------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class Token:
    kind: str  # number, name, operator, "(", ")", ",", invalid (a character no formula holds), end
    text: str
    position: int  # 1-based


_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_SPACE = re.compile(r"[ \t]+")
_OPERATORS = ("**", "+", "-", "*", "/", "^", "(", ")", ",")


def _names_hint() -> str:
    return "a phase (ior_easy_write, mdtest_hard_stat, find, ...), score, bw, md, nodes or procs"


def _word(text: str, start: int) -> str:
    """The longest name at `start`: a phase written with hyphens is one name, "bw-md" is bw minus md."""
    match = _WORD.match(text, start)
    assert match is not None
    word = match.group()
    parts = word.split("-")
    for count in range(len(parts), 0, -1):
        candidate = "-".join(parts[:count])
        if count == 1 or candidate.lower() in _SPELLINGS:
            return candidate
    return parts[0]


def tokens(text: str) -> Iterator[Token]:
    index = 0
    while index < len(text):
        space = _SPACE.match(text, index)
        if space:
            index = space.end()
            continue
        position = index + 1
        number = _NUMBER.match(text, index)
        if number:
            yield Token("number", number.group(), position)
            index = number.end()
            continue
        if _WORD.match(text, index):
            word = _word(text, index)
            yield Token("name", word, position)
            index += len(word)
            continue
        operator = next((op for op in _OPERATORS if text.startswith(op, index)), None)
        if operator is None:
            # Reported when the parser reaches it, so that an earlier mistake is named first.
            yield Token("invalid", text[index], position)
            index += 1
            continue
        kind = operator if operator in ("(", ")", ",") else "operator"
        yield Token(kind, "^" if operator == "**" else operator, position)
        index += len(operator)
    yield Token("end", "", len(text) + 1)


def _invalid(token: Token) -> FormulaError:
    shown = token.text
    described = f'"{shown}"' if shown.isprintable() and not shown.isspace() else f"U+{ord(shown):04X}"
    return FormulaError(
        f"{described} is not part of a formula: use numbers, names, + - * / ^, parentheses and commas.",
        token.position,
    )


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = list(tokens(text))
        self.index = 0
        self.depth = 0

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def deeper(self, token: Token) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(f"the formula nests deeper than {MAX_DEPTH} levels here.", token.position)

    def formula(self) -> Node:
        node = self.sum()
        token = self.current
        if token.kind == "invalid":
            raise _invalid(token)
        if token.kind != "end":
            if token.kind == ")":
                raise FormulaError('this ")" closes no open parenthesis.', token.position)
            raise FormulaError(
                f'"{token.text}" follows a complete value: an operator (+ - * / ^) is missing before it.',
                token.position,
            )
        return node

    def sum(self) -> Node:
        node = self.product()
        while self.current.kind == "operator" and self.current.text in "+-":
            operator = self.advance().text
            node = Binary(operator, node, self.product())
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.current.kind == "operator" and self.current.text in "*/":
            operator = self.advance().text
            node = Binary(operator, node, self.unary())
        return node

    def unary(self) -> Node:
        token = self.current
        if token.kind == "operator" and token.text in "+-":
            self.advance()
            self.deeper(token)
            operand = self.unary()
            self.depth -= 1
            return Negate(operand) if token.text == "-" else operand
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        token = self.current
        if token.kind == "operator" and token.text == "^":
            self.advance()
            self.deeper(token)
            exponent = self.unary()
            self.depth -= 1
            return Binary("^", base, exponent)
        return base

    def atom(self) -> Node:
        token = self.advance()
        if token.kind == "number":
            value = float(token.text)
            if not math.isfinite(value):
                raise FormulaError(f'the number "{token.text}" is too large.', token.position)
            return Number(value)
        if token.kind == "name":
            return self.name_or_call(token)
        if token.kind == "(":
            self.deeper(token)
            inner = self.sum()
            self.close(token)
            self.depth -= 1
            return inner
        if token.kind == "end":
            raise FormulaError("the formula ends where a value is expected.", token.position)
        if token.kind == "invalid":
            raise _invalid(token)
        raise FormulaError(f'a value is expected here, not "{token.text}".', token.position)

    def close(self, opening: Token) -> None:
        token = self.current
        if token.kind == ")":
            self.advance()
            return
        if token.kind == "end":
            raise FormulaError(f'the "(" at character {opening.position} is never closed.', token.position)
        raise FormulaError(
            f'")" is expected here (to close the "(" at character {opening.position}), not "{token.text}".',
            token.position,
        )

    def name_or_call(self, token: Token) -> Node:
        word = token.text.lower()
        called = self.current.kind == "("
        if word in FUNCTIONS:
            if not called:
                raise FormulaError(
                    f"{word} is a function: give its argument in parentheses, e.g. {word}(bw).",
                    token.position,
                )
            return self.call(token, word)
        if word in _SPELLINGS:
            if called:
                raise FormulaError(
                    f'{token.text} is a value, not a function: an operator is missing before "(".',
                    token.position,
                )
            return Name(_SPELLINGS[word])
        if called:
            raise FormulaError(
                f'there is no function "{token.text}"; the functions are {", ".join(FUNCTIONS)}.',
                token.position,
            )
        raise FormulaError(f'there is no value called "{token.text}"; use {_names_hint()}.', token.position)

    def call(self, token: Token, word: str) -> Node:
        opening = self.advance()
        self.deeper(opening)
        arguments = [self.sum()]
        while self.current.kind == ",":
            self.advance()
            arguments.append(self.sum())
        self.close(opening)
        self.depth -= 1
        arity = FUNCTIONS[word].arity
        if arity is not None and len(arguments) != arity:
            raise FormulaError(
                f"{word} takes {arity} argument{'s' if arity != 1 else ''}, not {len(arguments)}.",
                token.position,
            )
        return Call(word, tuple(arguments))


@dataclass(frozen=True)
class Formula:
    """A parsed formula: its tree and its canonical text (what the site's links write)."""

    tree: Node

    @property
    def text(self) -> str:
        return formula_text(self.tree)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(_names(self.tree))

    @property
    def phases(self) -> frozenset[str]:
        """The phases it reads, as the result files name them (ior-easy-write)."""
        return frozenset(PHASE_NAMES[name] for name in self.names if name in PHASE_NAMES)


def parse_formula(text: str) -> Formula:
    """The formula in `text`; FormulaError saying what is wrong and where."""
    stripped = text.strip()
    if not stripped:
        raise FormulaError("the formula is empty.")
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"the formula has {len(text)} characters; at most {MAX_LENGTH} are accepted.")
    # Positions count in the text as given, leading blanks included.
    return Formula(_Parser(text).formula())


def _names(node: Node) -> Iterator[str]:
    if isinstance(node, Name):
        yield node.name
    elif isinstance(node, Negate):
        yield from _names(node.operand)
    elif isinstance(node, Binary):
        yield from _names(node.left)
        yield from _names(node.right)
    elif isinstance(node, Call):
        for argument in node.arguments:
            yield from _names(argument)


# ---------------------------------------------------------------------------------------------------
# Writing: one spelling per formula, which the page's links and its formula field repeat.

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}
_NEGATE_PRECEDENCE = 3
_ATOM_PRECEDENCE = 5


def _precedence(node: Node) -> int:
    if isinstance(node, Binary):
        return _PRECEDENCE[node.operator]
    if isinstance(node, Negate):
        return _NEGATE_PRECEDENCE
    return _ATOM_PRECEDENCE


def number_text(value: float) -> str:
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def formula_text(node: Node) -> str:
    if isinstance(node, Number):
        return number_text(node.value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Call):
        return f"{node.function}({', '.join(formula_text(argument) for argument in node.arguments)})"
    if isinstance(node, Negate):
        # A power binds tighter than the sign (-x^2 is -(x^2)); anything looser needs parentheses.
        inner = formula_text(node.operand)
        return f"-{inner}" if _precedence(node.operand) >= _NEGATE_PRECEDENCE else f"-({inner})"
    own = _PRECEDENCE[node.operator]
    left, right = formula_text(node.left), formula_text(node.right)
    if node.operator == "^":
        # The base of a power is an atom; the exponent groups to the right.
        if _precedence(node.left) <= own:
            left = f"({left})"
        if _precedence(node.right) < _NEGATE_PRECEDENCE:
            right = f"({right})"
        return f"{left} ^ {right}"
    if _precedence(node.left) < own:
        left = f"({left})"
    # Operators group to the left: a right operand of the same precedence keeps its parentheses,
    # so that the text reads back as the same tree.
    if _precedence(node.right) <= own:
        right = f"({right})"
    return f"{left} {node.operator} {right}"


# ---------------------------------------------------------------------------------------------------
# Evaluating


class NoValue(ArithmeticError):
    """A formula has no finite value for one entry; the reason is shown to the reader."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def _finite(value: float, what: str) -> float:
    if not math.isfinite(value):
        raise NoValue(f"{what} is not a finite number")
    return value


def evaluate(node: Node, values: Mapping[str, float | None]) -> float:
    """The formula's value for one entry; NoValue with the reason when it has none (a value it
    names is missing, a division by zero, a logarithm of a negative number, an overflow)."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Name):
        value = values.get(node.name)
        if value is None or not math.isfinite(value):
            raise NoValue(f"no {node.name} value")
        return float(value)
    if isinstance(node, Negate):
        return -evaluate(node.operand, values)
    if isinstance(node, Call):
        arguments = [evaluate(argument, values) for argument in node.arguments]
        try:
            return _finite(FUNCTIONS[node.function].apply(*arguments), f"{node.function}(...)")
        except OverflowError as error:
            raise NoValue("a value too large to compute") from error
        except ValueError as error:
            raise NoValue(f"{node.function}(...) is not defined for these values") from error
    left, right = evaluate(node.left, values), evaluate(node.right, values)
    try:
        if node.operator == "+":
            result = left + right
        elif node.operator == "-":
            result = left - right
        elif node.operator == "*":
            result = left * right
        elif node.operator == "/":
            if right == 0:
                raise NoValue("a division by zero")
            result = left / right
        else:
            # math.pow: floats only (never a huge integer), and an error instead of a complex number.
            result = math.pow(left, right)
    except OverflowError as error:
        raise NoValue("a value too large to compute") from error
    except ValueError as error:
        raise NoValue("a power that is not a real number") from error
    if not math.isfinite(result):
        raise NoValue("a value too large to compute")
    return result
