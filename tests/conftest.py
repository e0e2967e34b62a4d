"""Shared fixtures: the checkout's exercises, student scripts, and golden-file handling.

Regenerate golden files after an intended format change with: pytest --update-golden
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.resources import Root, RootKind, checkout_root
from grader.sandbox import Sandbox, SandboxMode
from grader.spec import Exercise, load_exercise

TESTS = Path(__file__).resolve().parent
SCRIPTS = TESTS / "scripts"
GOLDEN = TESTS / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files")


@pytest.fixture(scope="session")
def root() -> Root:
    found = checkout_root()
    if found is None:
        pytest.skip("needs the project checkout (exercises/, cases/)")
    return Root(found, RootKind.CHECKOUT)


@pytest.fixture(scope="session")
def quantize(root: Root) -> Exercise:
    return load_exercise("quantize", root)


@pytest.fixture(scope="session")
def specdec(root: Root) -> Exercise:
    return load_exercise("specdec", root)


@pytest.fixture(scope="session")
def sandbox(root: Root) -> Sandbox:
    """The sandbox grade uses by default here, hiding the checkout's answers."""
    return Sandbox.create(SandboxMode.AUTO, hide=[root.cases, root.reference])


@pytest.fixture
def reference_dir(root: Root) -> Path:
    if not root.reference.is_dir():
        pytest.skip("reference/ is absent (an sdist): teacher material is not shipped")
    return root.reference


@pytest.fixture
def root_copy(root: Root, tmp_path: Path) -> Root:
    """A writable copy of the exercises, cases and references, to break on purpose."""
    for name in ("exercises", "cases", "reference"):
        if (root.path / name).is_dir():
            shutil.copytree(root.path / name, tmp_path / name)
    return Root(tmp_path, RootKind.EXPLICIT)


@pytest.fixture
def golden(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    update = request.config.getoption("--update-golden")

    def check(name: str, actual: str) -> None:
        path = GOLDEN / name
        if update:
            path.write_text(actual, encoding="utf-8")
        assert path.is_file(), f"missing golden file {path}; run pytest --update-golden"
        assert actual == path.read_text(encoding="utf-8")

    return check


def script(name: str) -> Path:
    return SCRIPTS / name
