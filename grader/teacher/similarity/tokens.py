"""A submission's text as the normalised token stream that fingerprints are taken from.

Renaming a variable, rewording a comment, changing a literal or re-wrapping a long call must not
change what is compared, so every name that is not a keyword or a builtin becomes one symbol,
every number and string another, and comments, blank lines and the line breaks inside brackets
are dropped. What stays is the program's shape: keywords, operators, builtins, the statements'
ends and the blocks' indentation.
"""

from __future__ import annotations

import builtins
import io
import keyword
import token
import tokenize
from dataclasses import dataclass

# Builtins are kept: renaming them is no disguise, and `round` against `int` is a real difference.
# The names are those of Python 3.10 on every version, so that a class gives the same report on
# each (3.11 and 3.13 added exception names); likewise the soft keywords of 3.12.
_ADDED_SINCE_3_10 = frozenset(
    {"BaseExceptionGroup", "ExceptionGroup", "PythonFinalizationError", "_IncompleteInputError"}
)
_KEPT_NAMES = (
    frozenset(keyword.kwlist)
    | frozenset({"_", "case", "match", "type"})
    | (frozenset(dir(builtins)) - _ADDED_SINCE_3_10)
)
_DROPPED = frozenset({token.COMMENT, token.NL, token.ENCODING, token.ENDMARKER, token.TYPE_COMMENT})
_SYMBOL = {
    token.NUMBER: "#",
    token.STRING: "$",
    token.NEWLINE: ";",
    token.INDENT: "{",
    token.DEDENT: "}",
}
# 3.12 on splits an f-string into tokens of its own; before, it is one STRING: it is one "$"
# everywhere, its parts skipped, so that versions agree
_FSTRING_START = getattr(token, "FSTRING_START", None)
_FSTRING_END = getattr(token, "FSTRING_END", None)
NAME = "@"  # what every other identifier becomes
# A solution of these exercises is a few hundred tokens; a file past this is compared on its
# first ones, so that one pasted megabyte costs what a long solution costs, not seconds and
# hundreds of MB (the red team's 1 MiB of "(" took 8 s and 374 MB)
MOST_TOKENS = 20_000


@dataclass(frozen=True)
class Token:
    """One normalised token and the lines (1-based) of the source it came from."""

    text: str
    first_line: int
    last_line: int


@dataclass(frozen=True)
class Tokens:
    """A source's normalised tokens; ``error`` says where tokenizing stopped, if it did (the
    tokens before it are all there is to compare)."""

    tokens: tuple[Token, ...]
    error: str | None = None


def normalise(kind: int, text: str) -> str | None:
    """The symbol a token is compared as, or None when it is not compared at all."""
    if kind in _DROPPED:
        return None
    if kind == token.NAME:
        return text if text in _KEPT_NAMES else NAME
    return _SYMBOL.get(kind, text)


def source_text(text: bytes) -> str:
    """A submission's bytes as the text that is tokenized and shown, line ends made ``\\n``:
    Python runs a file of ``\\r`` line ends as it runs one of ``\\n``, where ``tokenize`` read
    it as one line (a verbatim copy so saved scored 0.09 against its original)."""
    source = text.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return source.replace("\r\n", "\n").replace("\r", "\n")


def source_lines(source: str) -> tuple[str, ...]:
    """``source_text``'s lines as ``tokenize`` numbers them: split at ``\\n`` only, never at the
    other characters ``str.splitlines`` takes for a line's end (``\\x0b``, ``\\u2028``...), which
    would move every matched line the page shows."""
    return tuple(source.removesuffix("\n").split("\n")) if source else ()


def tokens_of(source: str, most: int = MOST_TOKENS) -> Tokens:
    """``source`` as normalised tokens, the first ``most`` of them; a source that stops
    tokenizing part-way (an unclosed bracket, a bad dedent) keeps what came before, and says
    where and why it stopped."""
    found: list[Token] = []
    stream = tokenize.generate_tokens(io.StringIO(source).readline)
    depth, opened = 0, 0  # f-strings open (nested ones too), and the line the outer one began
    try:
        for tok in stream:
            if _FSTRING_START is not None and tok.type == _FSTRING_START:
                depth, opened = depth + 1, opened if depth else tok.start[0]
                continue
            if depth:
                if tok.type == _FSTRING_END:
                    depth -= 1
                    if not depth:
                        found.append(Token(_SYMBOL[token.STRING], opened, tok.end[0]))
                continue
            symbol = normalise(tok.type, tok.string)
            if symbol is not None:
                found.append(Token(symbol, tok.start[0], tok.end[0]))
                if len(found) >= most:
                    return Tokens(tuple(found), f"compared on its first {most:,} tokens")
    except (tokenize.TokenError, SyntaxError) as exc:
        line = _line_of(exc)
        where = f"line {line}" if line is not None else "the end"
        message = exc.args[0] if exc.args else type(exc).__name__
        return Tokens(tuple(found), f"does not tokenize at {where}: {message}")
    return Tokens(tuple(found))


def _line_of(exc: Exception) -> int | None:
    if isinstance(exc, SyntaxError):
        return exc.lineno
    where = exc.args[1] if len(exc.args) > 1 else None  # TokenError's (line, column)
    return where[0] if isinstance(where, tuple) and where and isinstance(where[0], int) else None
