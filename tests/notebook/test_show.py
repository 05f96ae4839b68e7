"""``viewer.show``'s front door: reachable from ``import viewer`` without loading the notebook layer, bad input
refused in one line before any widget or GL context exists, and the missing extra named with its install command.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT
from tests.notebook.conftest import DEMO
from viewer.base.errors import GltfError


def test_viewer_show_is_public_and_import_viewer_stays_light():
    code = (
        "import sys, viewer\n"
        "assert 'show' in viewer.__all__\n"
        "assert not [m for m in sys.modules if m.startswith(('viewer.notebook', 'moderngl', 'ipywidgets'))]\n"
        "from viewer.notebook.show import show\n"
        "assert viewer.show is show\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


@pytest.mark.parametrize(
    ("args", "kind", "words"),
    [
        (("missing.glb",), GltfError, "file not found"),
        ((str(REPO_ROOT / "README.md"),), GltfError, "invalid JSON"),
        ((DEMO,), ValueError, "no animation named 'Nope'"),
        ((DEMO,), ValueError, "mode must be one of"),
        ((DEMO,), ValueError, "compare takes 2 to 4"),
        ((DEMO,), ValueError, "different names"),
        ((DEMO,), ValueError, "size must be between"),
        ((DEMO,), GltfError, "file not found"),
        ((42,), TypeError, "must be a path"),
    ],
)
def test_bad_input_is_one_line_before_anything_is_made(args, kind, words, monkeypatch):
    import viewer
    from viewer.notebook import stage

    monkeypatch.setattr(stage, "create_context", lambda: pytest.fail("a context was made for bad input"))
    extra = {
        "no animation named 'Nope'": {"animation": "Nope"},
        "mode must be one of": {"mode": "smooth"},
        "compare takes 2 to 4": {"compare": ["step"]},
        "different names": {"compare": ["step", "wobbly"]},
        "size must be between": {"size": (8, 100000)},
    }.get(words, {})
    if kind is GltfError and args == (DEMO,):
        extra = {"against": "nowhere/b.glb"}
    with pytest.raises(kind) as info:
        viewer.show(*args, **extra)
    text = str(info.value)
    assert words in text and "\n" not in text


def test_without_the_extra_show_names_the_command(monkeypatch):
    import viewer

    monkeypatch.setitem(sys.modules, "jupyter_rfb", None)
    with pytest.raises(ImportError, match=r"pip install 'animview\[notebook\]'") as info:
        viewer.show(DEMO)
    assert "jupyter_rfb" in str(info.value)
