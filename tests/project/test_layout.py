"""The house rules a newcomer relies on: docs/ARCHITECTURE.md names every folder and module of viewer/ as they are,
every folder says in its docstring what it holds, no file grows past what one reading takes, and tests/ mirrors
viewer/ folder for folder."""

from __future__ import annotations

import ast
import re

from tests.conftest import REPO_ROOT

VIEWER = REPO_ROOT / "viewer"
ARCHITECTURE = REPO_ROOT / "docs" / "ARCHITECTURE.md"
MAX_LINES = 350


def folders() -> list:
    return sorted(p for p in VIEWER.iterdir() if p.is_dir() and (p / "__init__.py").is_file())


def table_rows() -> dict[str, str]:
    """The folders-and-modules table: first cell (e.g. ``pose/``) → the rest of the row."""
    rows = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`([\w./]+)`\s*\|(.*)", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def test_architecture_table_names_every_folder_and_module():
    rows = table_rows()
    missing = []
    for folder in folders():
        row = rows.get(folder.name + "/")
        if row is None:
            missing.append(f"{folder.name}/ (no row)")
            continue
        for module in sorted(folder.glob("*.py")):
            if module.stem != "__init__" and not re.search(rf"`{module.stem}`", row):
                missing.append(f"{folder.name}/{module.name}")
    assert not missing, f"docs/ARCHITECTURE.md does not name: {missing}"


def test_architecture_names_no_path_that_is_gone():
    """Every ``folder/`` row and every ``something.py`` / ``folder/module.py`` path the document names exists."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    gone = [name for name in table_rows() if name.endswith("/") and not (VIEWER / name / "__init__.py").is_file()]
    for path in re.findall(r"`((?:[\w]+/)*[\w]+\.(?:py|glsl|md))`", text):
        if not any((root / path).is_file() for root in (REPO_ROOT, VIEWER, REPO_ROOT / "shaders")):
            gone.append(path)
    assert not gone, gone


def test_every_folder_says_what_it_holds():
    for folder in folders():
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 15, f"viewer/{folder.name}/__init__.py needs a paragraph saying why"


def test_no_file_in_viewer_is_longer_than_one_reading():
    long = {
        str(p.relative_to(REPO_ROOT)): n
        for p in VIEWER.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"over {MAX_LINES} lines: {long}"


def test_tests_mirror_viewer():
    tests = REPO_ROOT / "tests"
    absent = [f.name for f in folders() if not (tests / f.name / "__init__.py").is_file()]
    assert not absent, f"tests/ has no folder for: {absent}"
    loose = sorted(p.name for p in tests.glob("test_*.py"))
    assert not loose, f"tests at the top of tests/ belong in a folder: {loose}"
