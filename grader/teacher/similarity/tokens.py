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

# builtins are kept: renaming them is no disguise, and `round` against `int` is a real difference
_KEPT_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
_DROPPED = frozenset(
    {token.COMMENT, token.NL, token.ENCODING, token.ENDMARKER, token.TYPE_COMMENT}
    | {getattr(token, "FSTRING_MIDDLE", -1)}  # 3.12+: the literal text inside an f-string
)
_SYMBOL = {
    token.NUMBER: "#",
    token.STRING: "$",
    token.NEWLINE: ";",
    token.INDENT: "{",
    token.DEDENT: "}",
    getattr(token, "FSTRING_START", -1): "f$",
    getattr(token, "FSTRING_END", -1): "$f",
}
NAME = "@"  # what every other identifier becomes


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


def tokens_of(source: str) -> Tokens:
    """``source`` as normalised tokens; a source that stops tokenizing part-way (an unclosed
    bracket, a bad dedent) keeps what came before, and says where and why it stopped."""
    found: list[Token] = []
    stream = tokenize.generate_tokens(io.StringIO(source).readline)
    try:
        for tok in stream:
            symbol = normalise(tok.type, tok.string)
            if symbol is not None:
                found.append(Token(symbol, tok.start[0], tok.end[0]))
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
