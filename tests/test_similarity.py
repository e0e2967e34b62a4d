"""grade similar on a class built from real variation: kv-pages' accepted and known-wrong
solutions are the honest students (written apart, or as small edits of the reference, whose
fingerprints are left out), and disguised copies of some of them are made here. Every
disguised pair must rank above every honest pair, and no honest pair may reach the default
threshold; each disguise alone is a table test."""

from __future__ import annotations

import ast
import builtins
import io
import keyword
import tokenize
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.model.resources import Root
from grader.model.spec import Exercise, load_exercise
from grader.running.batch import discover
from grader.teacher.similarity import SimilarityOptions, SimilarityReport, similar
from grader.teacher.similarity.index import common_hashes, pair_score
from grader.teacher.similarity.pairing import clusters
from grader.teacher.similarity.report import Pair
from grader.teacher.similarity.tokens import NAME, tokens_of
from grader.teacher.similarity.winnow import stable_hash, winnow

_KEPT = set(keyword.kwlist) | set(dir(builtins)) | {"sys", "self", "main"}


def renamed(source: str) -> str:
    """Every identifier of the student's own (not attributes) renamed."""
    names: dict[str, str] = {}
    out = []
    previous = ""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string not in _KEPT and previous != ".":
            tok = tok._replace(string=names.setdefault(tok.string, f"thing_{len(names)}"))
        out.append(tok)
        previous = tok.string
    return tokenize.untokenize(out)


def reformatted(source: str) -> str:
    """Another layout: what ast.unparse writes (quotes, spacing, wrapping, no comments)."""
    return ast.unparse(ast.parse(source)) + "\n"


def reordered(source: str) -> str:
    """The top-level functions and classes in reverse order."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)

    def text(node: ast.stmt) -> str:
        assert node.end_lineno is not None
        return "".join(lines[node.lineno - 1 : node.end_lineno]) + "\n\n"

    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    first = tree.body.index(defs[0])
    head = [n for n in tree.body[:first]]
    tail = [n for n in tree.body[first:] if n not in defs]
    return "".join(text(n) for n in [*head, *reversed(defs), *tail])


def recommented(source: str) -> str:
    """Every comment reworded, and comments added at the end of every third line."""
    out = [
        t._replace(string="# my own words") if t.type == tokenize.COMMENT else t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
    ]
    lines = tokenize.untokenize(out).splitlines()
    return "".join(
        line + (f"  # step {i}" if i % 3 == 0 and line.strip() and "#" not in line else "") + "\n"
        for i, line in enumerate(lines)
    )


def dead_code(source: str, flavour: int = 0) -> str:
    """An unused statement after every third simple statement, at its indentation."""
    tree = ast.parse(source)
    spots = sorted(
        {
            (n.end_lineno, n.col_offset)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.Expr)) and n.end_lineno is not None
        }
    )
    junk = [
        "unused_{k} = [x * {k} for x in range(3)]",
        "log_{k} = {{'step': {k}, 'debug': False}}",
        "if {k} < 0:\n{pad}    print('never')",
    ][flavour]
    inserts = {
        end: " " * col + junk.format(k=k, pad=" " * col)
        for k, (end, col) in enumerate(spots)
        if k % 3 == 0
    }
    out = []
    for number, line in enumerate(source.splitlines(), start=1):
        out.append(line)
        if number in inserts:
            out.append(inserts[number])
    return "\n".join(out) + "\n"


def everything(source: str) -> str:
    return dead_code(recommented(renamed(reordered(source))), flavour=1)


Disguise = Callable[[str], str]
# each disguise applied to another honest student, so no two copies share an original
DISGUISES: dict[str, tuple[str, Disguise]] = {
    "renamed": ("accepted_block_objects", renamed),
    "reformatted": ("accepted_admission_numbers", reformatted),
    "reordered": ("accepted_last_blocks_only", reordered),
    "recommented": ("accepted_shared_counts_only", recommented),
    "dead_code": ("wrong_preempts_oldest", lambda s: dead_code(s, 2)),
    "everything": ("wrong_copies_full_block", everything),
}


@pytest.fixture(scope="module")
def kv_pages(root: Root) -> Exercise:
    return load_exercise("kv-pages", root)


def _honest(root: Root, folder: Path) -> list[str]:
    material = root.material / "kv-pages"
    names = []
    for kind in ("accepted", "wrong"):
        for path in sorted((material / kind).glob("*.py")):
            name = f"{kind}_{path.stem}"
            (folder / f"{name}.py").write_bytes(path.read_bytes())
            names.append(name)
    return names


@pytest.fixture(scope="module")
def disguised_class(
    root: Root, kv_pages: Exercise, tmp_path_factory: pytest.TempPathFactory
) -> tuple[SimilarityReport, list[str]]:
    folder = tmp_path_factory.mktemp("class")
    honest = _honest(root, folder)
    for disguise, (original, change) in DISGUISES.items():
        text = change((folder / f"{original}.py").read_text(encoding="utf-8"))
        compile(text, disguise, "exec")  # a disguise is still a program
        (folder / f"copy_{disguise}.py").write_text(text, encoding="utf-8")
    report = similar(kv_pages, discover([str(folder)]), SimilarityOptions(threshold=0.0))
    return report, honest


def _copied(pair: Pair) -> bool:
    return any({pair.a, pair.b} == {o, f"copy_{d}"} for d, (o, _) in DISGUISES.items())


def test_every_disguised_pair_ranks_above_every_honest_pair(
    disguised_class: tuple[SimilarityReport, list[str]],
) -> None:
    report, honest = disguised_class
    ranks = {(p.a, p.b): rank for rank, p in enumerate(report.pairs)}
    copies = [rank for (a, b), rank in ranks.items() if _copied(report.pairs[rank])]
    honest_ranks = [rank for (a, b), rank in ranks.items() if a in honest and b in honest]
    assert len(copies) == len(DISGUISES)
    assert honest_ranks, "the honest students share some fragments"
    assert max(copies) < min(honest_ranks)


def test_honest_pairs_stay_under_the_default_threshold(
    disguised_class: tuple[SimilarityReport, list[str]],
) -> None:
    report, honest = disguised_class
    default = SimilarityOptions().threshold
    top_honest = max(p.score for p in report.pairs if p.a in honest and p.b in honest)
    lowest_copy = min(p.score for p in report.pairs if _copied(p))
    assert top_honest < default <= lowest_copy


@pytest.mark.parametrize("disguise", list(DISGUISES))
def test_each_disguise_alone_is_found(
    disguise: str, disguised_class: tuple[SimilarityReport, list[str]]
) -> None:
    report, _ = disguised_class
    original, _change = DISGUISES[disguise]
    (pair,) = [p for p in report.pairs if {p.a, p.b} == {original, f"copy_{disguise}"}]
    assert pair.score >= SimilarityOptions().threshold
    assert pair.regions, "the matched lines are shown"
    for region in pair.regions:
        assert region.a_first <= region.a_last and region.b_first <= region.b_last


def test_the_reference_and_the_common_fragments_are_left_out(
    disguised_class: tuple[SimilarityReport, list[str]],
) -> None:
    report, _ = disguised_class
    assert report.ignored.reference > 0
    assert report.ignored.common > 0
    # a wrong solution that is the reference but for a few lines keeps only those as its own
    own = {c.name: c.fingerprints for c in report.submissions}
    assert own["wrong_preempted_to_back"] < own["accepted_block_objects"] / 5


def test_the_histogram_counts_every_pair(
    disguised_class: tuple[SimilarityReport, list[str]],
) -> None:
    report, _ = disguised_class
    n = len(report.submissions)
    assert report.compared_pairs == n * (n - 1) // 2
    assert sum(report.histogram.counts) == report.compared_pairs


def test_a_source_that_does_not_tokenize_is_scored_on_what_did() -> None:
    found = tokens_of("x = (1 +\nprint(x)\n")
    assert found.error is not None and "does not tokenize" in found.error
    assert found.tokens, "the tokens before the error are kept"
    dedent = tokens_of("if x:\n        a = 1\n    b = 2\n")
    assert dedent.error is not None and "line 3" in dedent.error


def test_names_literals_and_comments_are_normalised() -> None:
    one = tokens_of("total = 3  # sum\nprint(total, 'a')\n")
    other = tokens_of('acc = 7\nprint(acc, "zz")  # shown\n')
    assert [t.text for t in one.tokens] == [t.text for t in other.tokens]
    assert NAME in [t.text for t in one.tokens] and "print" in [t.text for t in one.tokens]


def test_the_hash_is_stable_and_winnowing_keeps_line_spans() -> None:
    # blake2b, not Python's salted hash: this number is the same in every process
    assert stable_hash(["@", "=", "#"]) == 0x8B77044C0150B8D2
    prints = winnow(tokens_of("a = 1\nb = a + 2\nprint(b)\n" * 3).tokens, k=5, window=3)
    assert prints and all(1 <= fp.first_line <= fp.last_line <= 9 for fp in prints)
    assert [fp.position for fp in prints] == sorted({fp.position for fp in prints})


def test_a_fragment_only_two_share_is_never_common() -> None:
    sets = [frozenset({1, 2}), frozenset({1, 3}), frozenset({4})]
    assert common_hashes(sets, 0.5) == frozenset()  # 2 of 3: exactly a copy's look
    assert common_hashes([*sets, frozenset({1})], 0.5) == frozenset({1})


def test_a_tiny_file_cannot_score_one() -> None:
    assert pair_score(2, 2, 300, floor=8) == 0.25
    assert pair_score(200, 200, 300, floor=8) == 1.0


def test_clusters_are_connected_components_of_more_than_two() -> None:
    def pair(a: str, b: str, score: float) -> Pair:
        return Pair(a, b, score, score, score, 1, ())

    found = clusters(
        [pair("a", "b", 0.9), pair("b", "c", 0.8), pair("d", "e", 0.9), pair("c", "x", 0.1)],
        0.5,
    )
    assert found == (("a", "b", "c"),)


def test_the_token_stream_is_the_same_on_every_python() -> None:
    """3.12 split f-strings into tokens of their own, and 3.11 and 3.13 added builtins: the
    same class gave another report on another Python. CI runs this on 3.10 and 3.13."""
    source = (
        "def show(x):\n    print(f\"{x!r:>{8}} and {f'{x}'}\", ExceptionGroup, type)\n"
        "match x:\n    case _:\n        pass\n"
    )
    symbols = [t.text for t in tokens_of(source).tokens]
    assert symbols == [
        "def", NAME, "(", NAME, ")", ":", ";", "{",
        "print", "(", "$", ",", NAME, ",", "type", ")", ";", "}",
        "match", NAME, ":", ";", "{", "case", "_", ":", ";", "{", "pass", ";", "}", "}",
    ]  # fmt: skip
    line = next(t for t in tokens_of(source).tokens if t.text == "$")
    assert (line.first_line, line.last_line) == (2, 2)
