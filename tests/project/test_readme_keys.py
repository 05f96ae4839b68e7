"""The documented key table (docs/viewer.md, "Keys") is the help window's (``keys.HELP``), entry for entry, so
neither drifts."""

from __future__ import annotations

from tests.conftest import REPO_ROOT
from viewer.ui.keys import HELP


def test_docs_key_table_is_the_help_table():
    lines = (REPO_ROOT / "docs" / "viewer.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| key | action |")
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        key, action = (cell.strip() for cell in line.strip("|").split(" | "))
        rows.append((key, action))
    assert rows == [(k.replace("|", "/"), a) for k, a in HELP]
