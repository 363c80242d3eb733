"""Translate the post's LaTeX formulas into Typst math, so they can be typeset offline with no TeX installed.

This covers the LaTeX the post uses (scripts, fractions, roots, matrices, cases, aligned rows, \\mathrm-style
text, Greek letters and the usual relations); anything else is a ValueError that names the command, so a new
formula in the post fails loudly at build time instead of rendering wrong.
"""

from __future__ import annotations

import re

GREEK = frozenset(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi chi "
    "psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split()
)
SYMBOLS = {
    "top": "top", "ldots": "dots.h", "dots": "dots.h", "cdots": "dots.c", "cdot": "dot.c", "times": "times",
    "in": "in", "le": "<=", "leq": "<=", "ge": ">=", "geq": ">=", "ne": "!=", "neq": "!=", "approx": "approx",
    "infty": "infinity", "Rightarrow": "=>", "rightarrow": "->", "to": "->", "pm": "plus.minus",
    "exp": "exp", "log": "log", "max": "max", "min": "min", "sum": "sum", "prod": "prod",
    "quad": "quad", "qquad": "wide", ",": "thin", ":": "med", ";": "thick", " ": "space", "!": "",
    "{": "\\{", "}": "\\}", "%": "%", "_": "\\_", "#": "\\#",
}
TEXT_COMMANDS = {"mathrm": '"{}"', "text": '"{}"', "operatorname": 'op("{}")', "texttt": 'mono("{}")'}
ONE_ARGUMENT = {"sqrt": "sqrt({})", "mathbf": "bold({})", "widetilde": "tilde({})", "tilde": "tilde({})",
                "hat": "hat({})", "widehat": "hat({})", "bar": "overline({})", "overline": "overline({})",
                "vec": "arrow({})"}
BLACKBOARD = frozenset("RNZQC")
ENVIRONMENTS = ("pmatrix", "bmatrix", "cases", "align*", "aligned")
DELIMITERS = {"(": "(", ")": ")", "[": "[", "]": "]", "\\{": "{", "\\}": "}", "|": "|", ".": ""}
# Characters that mean something else in Typst math and must be escaped to stay literal.
TYPST_ESCAPES = {"/": "\\/", '"': '\\"', "#": "\\#", "$": "\\$", "@": "\\@", "*": "\\*"}

_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[A-Za-z]|\d+(?:\.\d+)?|\s+|.", re.S)


def supported_commands() -> list[str]:
    names = [*GREEK, *SYMBOLS, *TEXT_COMMANDS, *ONE_ARGUMENT, "mathbb", "frac", "left", "right", "begin", "end"]
    return sorted(set(names))


def latex_to_typst(latex: str) -> str:
    """Typst math source for one LaTeX formula (without the surrounding dollars)."""
    return _join(_Parser(latex).sequence(stop=()))  # a stray "}" or "&" is an error inside atom()


def _join(pieces: list[str]) -> str:
    """Concatenate pieces, with a space only where two names would otherwise fuse (`X X`, not `XX`).

    Typst keeps a space next to quoted text as visible space (`"score" (q)`), so no space goes anywhere else.
    """
    out = ""
    for piece in (p for p in pieces if p):
        if out and _is_word_char(out[-1]) and (_is_word_char(piece[0]) or piece[0] in "(["):
            # A name directly before "(" would read as a function call: `quad(i=1)` calls nothing.
            out += " "
        out += piece
    return out


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char in "_.'"


class _Parser:
    def __init__(self, latex: str):
        self.latex = latex
        # Whitespace only separates tokens; "\ " (an explicit space) is a token of its own.
        self.tokens = [t for t in _TOKEN.findall(latex) if not t.isspace()]
        self.position = 0

    def error(self, message: str) -> ValueError:
        return ValueError(f"{message} in formula {self.latex!r}")

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.error("formula ends too early")
        self.position += 1
        return token

    def sequence(self, stop: tuple[str, ...]) -> list[str]:
        """Translate tokens until one of `stop` (not consumed) or the end."""
        pieces: list[str] = []
        while (token := self.peek()) is not None and token not in stop:
            if token in ("_", "^"):
                self.take()
                base = pieces.pop() if pieces else '""'
                pieces.append(f"{base}{token}({self.argument()})")
            elif token == "'":
                self.take()
                base = pieces.pop() if pieces else '""'
                pieces.append(base + "'")
            else:
                pieces.append(self.atom())
        return pieces

    def group(self) -> str:
        """The contents of a {...} group, translated."""
        if self.take() != "{":
            raise self.error("expected '{'")
        pieces = self.sequence(stop=("}",))
        if self.peek() != "}":
            raise self.error("missing '}'")
        self.take()
        return _join(pieces)

    def raw_group(self) -> str:
        """The literal text of a {...} group (for \\mathrm and friends)."""
        if self.take() != "{":
            raise self.error("expected '{'")
        text = []
        while (token := self.take()) != "}":
            if token.startswith("\\") and token != "\\ ":
                raise self.error(f"command {token} inside a text group")
            text.append(" " if token == "\\ " else token)
        return "".join(text).replace("\\", "\\\\").replace('"', '\\"')

    def argument(self) -> str:
        """One argument: a {group} or a single token (LaTeX's x_ij means x_i j)."""
        if self.peek() == "{":
            return self.group()
        return self.atom()

    def atom(self) -> str:
        token = self.take()
        if token == "{":
            self.position -= 1
            return self.group()
        if token.startswith("\\") and len(token) > 1:
            return self.command(token[1:])
        if token == "&":
            return "&"  # alignment point (align*, cases): the environment code splits cells on it
        if token == "}":
            raise self.error("unexpected '}'")
        return TYPST_ESCAPES.get(token, token)

    def command(self, name: str) -> str:
        if name in GREEK:
            return name
        if name in SYMBOLS:
            return SYMBOLS[name]
        if name in TEXT_COMMANDS:
            return TEXT_COMMANDS[name].format(self.raw_group())
        if name in ONE_ARGUMENT:
            return ONE_ARGUMENT[name].format(self.argument())
        if name == "mathbb":
            letter = self.raw_group()
            return letter * 2 if letter in BLACKBOARD else f'bb("{letter}")'
        if name == "frac":
            numerator, denominator = self.argument(), self.argument()
            return f"({numerator})/({denominator})"
        if name == "left":
            opening = self.delimiter()
            inner = self.sequence(stop=("\\right",))
            if self.peek() != "\\right":
                raise self.error("\\left without \\right")
            self.take()
            closing = self.delimiter()
            return f"lr({opening} {_join(inner)} {closing})"
        if name == "begin":
            return self.environment(self.raw_group())
        raise self.error(f"unsupported LaTeX command \\{name} (supported: {', '.join(supported_commands())})")

    def delimiter(self) -> str:
        token = self.take()
        if token not in DELIMITERS:
            raise self.error(f"unsupported delimiter {token!r} after \\left/\\right")
        return DELIMITERS[token]

    def environment(self, name: str) -> str:
        if name not in ENVIRONMENTS:
            raise self.error(f"unsupported environment {name!r} (supported: {', '.join(ENVIRONMENTS)})")
        rows: list[list[str]] = [[]]
        cell: list[str] = []
        while True:
            token = self.peek()
            if token is None:
                raise self.error(f"\\begin{{{name}}} without \\end")
            if token == "\\end":
                self.take()
                if self.raw_group() != name:
                    raise self.error(f"\\begin{{{name}}} closed by a different \\end")
                break
            if token == "&":
                self.take()
                rows[-1].append(_join(cell))
                cell = []
            elif token == "\\\\":
                self.take()
                rows[-1].append(_join(cell))
                cell = []
                rows.append([])
            else:
                cell.extend(self.sequence(stop=("&", "\\\\", "\\end")))
        rows[-1].append(_join(cell))
        rows = [row for row in rows if any(row)]
        if name in ("pmatrix", "bmatrix"):
            body = "; ".join(", ".join(row) for row in rows)
            return f"mat({body})" if name == "pmatrix" else f'mat(delim: "[", {body})'
        if name == "cases":
            return "cases(" + ", ".join(" & ".join(row) for row in rows) + ")"
        return " \\ ".join(" &".join(row) for row in rows)  # align*: LaTeX "a &= b" -> Typst "a &= b"
