"""Layering (DESIGN.md): the core imports no GL, window or UI code.

Checked twice: dynamically (import the core in a fresh interpreter and look at ``sys.modules``) and
statically (no ``import`` of those packages anywhere in the core modules' source, even inside functions).
"""
from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

FORBIDDEN = ("moderngl", "moderngl_window", "imgui_bundle", "pyglet")
VIEWER = REPO_ROOT / "viewer"
CORE_FILES = ["errors.py", "math3d.py", "scene.py", "pose.py", "bounds.py", "skin_bounds.py", "sampling.py",
              "compare.py", "writer.py", "bake.py", "lights.py", "hierarchy.py"]
CORE_PACKAGES = ["gltf", "animation", "playback", "fast"]
# The library's judging half (what a file holds and what is wrong with it) is core too: a check runs without GL.
CORE_FILES += ["library/report.py", "library/discover.py", "library/check.py", "library/findings.py",
               "library/findings_keys.py", "library/findings_resample.py", "library/findings_file.py"]

PROBE = """
import importlib, json, pkgutil, sys
import viewer.base.errors, viewer.gltf, viewer.base.math3d, viewer.scene.scene, viewer.animation, viewer.pose.pose, viewer.playback
import viewer.files.sampling, viewer.compare.views, viewer.pose.bounds, viewer.files.writer, viewer.files.bake, viewer.scene.lights
import viewer.library.check, viewer.library.discover
for pkg in (viewer.animation, viewer.gltf, viewer.playback):
    for info in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(pkg.__name__ + "." + info.name)
print(json.dumps({"modules": sorted(sys.modules)}))
"""


@functools.lru_cache(maxsize=1)
def _probe_modules() -> tuple[str, ...]:
    """``sys.modules`` of a fresh interpreter after importing the core (run once per session)."""
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return tuple(json.loads(proc.stdout.splitlines()[-1])["modules"])


def _core_sources() -> list[Path]:
    files = [VIEWER / f for f in CORE_FILES]
    for pkg in CORE_PACKAGES:
        files += sorted((VIEWER / pkg).glob("*.py"))
    return files


def _forbidden(name: str | None) -> bool:
    return bool(name) and name.split(".")[0] in FORBIDDEN


def test_importing_the_core_does_not_import_numba():
    """numba costs 0.15-0.35 s to import: only ``fast.start()`` loads it, off the path to a first picture."""
    assert "numba" not in _probe_modules()


def test_core_imports_no_gl_window_or_ui_in_a_fresh_process():
    modules = _probe_modules()
    loaded = sorted(m for m in modules if _forbidden(m))
    assert not loaded, f"core import pulled in {loaded}"
    # the probe really imported every animation submodule
    for sub in ("keyframes", "modes", "table", "clip"):
        assert f"viewer.animation.{sub}" in modules


def test_core_source_has_no_forbidden_import():
    offenders = []
    for path in _core_sources():
        assert path.is_file(), path
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module] if node.level == 0 else []
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                    "import_module", "__import__"):
                names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            else:
                continue
            offenders += [f"{path.relative_to(REPO_ROOT)}:{node.lineno} {n}" for n in names if _forbidden(n)]
    assert not offenders, offenders


def test_static_check_covers_every_core_module_the_probe_loads():
    modules = _probe_modules()
    checked = {p.resolve() for p in _core_sources()}
    loaded_viewer = [m for m in modules if m == "viewer" or m.startswith("viewer.")]
    # every viewer module the core pulls in must be part of the core (no route round the static check)
    for name in loaded_viewer:
        rel = Path(*name.split("."))
        path = REPO_ROOT / rel.with_suffix(".py")
        if not path.is_file():
            path = REPO_ROOT / rel / "__init__.py"
        if path.name == "__init__.py" and path.parent == VIEWER:
            continue  # viewer/__init__.py: checked below
        if path.resolve() not in checked:
            src = path.read_text(encoding="utf-8")
            assert not any(f"import {f}" in src or f"from {f}" in src for f in FORBIDDEN), name
    init = (VIEWER / "__init__.py").read_text(encoding="utf-8")
    assert not any(f"import {f}" in init or f"from {f}" in init for f in FORBIDDEN)


def _imports(path: Path) -> list[str]:
    """Every module name ``path`` imports (absolute imports, at any depth of the file)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return names


@pytest.mark.parametrize("folder, forbidden", [
    ("ui", ("viewer.export", "viewer.app.window", "viewer.cli")),        # the UI draws; it never exports or wires
    ("render", ("viewer.ui", "viewer.export", "viewer.app.window", "viewer.cli")),  # GPU passes only: no window, overlay, files
    ("export", ("viewer.app.window", "viewer.cli")),                    # files from frames, without the window
])
def test_folders_import_only_downward(folder, forbidden):
    offenders = [f"{p.relative_to(REPO_ROOT)}: {name}" for p in sorted((VIEWER / folder).glob("*.py"))
                 for name in _imports(p) if name.startswith(forbidden)]
    assert not offenders, offenders


def test_no_import_cycle_between_viewer_modules():
    """Module-level imports between viewer modules form no cycle (imports inside functions are allowed
    to break one deliberately; none is needed today)."""
    graph: dict[str, set[str]] = {}
    for path in VIEWER.rglob("*.py"):
        rel = path.relative_to(REPO_ROOT).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deps = set()
        for node in tree.body:  # module level only
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("viewer"):
                deps.add(node.module)
                deps |= {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name.startswith("viewer")}
        graph[name] = deps
    known = set(graph)
    graph = {m: {d for d in deps if d in known and d != m} for m, deps in graph.items()}
    for m in list(graph):  # a package's __init__ importing its own submodules is not a cycle
        graph[m] = {d for d in graph[m] if not d.startswith(m + ".")}
    state: dict[str, int] = {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for d in graph[m]:
            if state.get(d) == 1:
                pytest.fail("import cycle: " + " → ".join(stack[stack.index(d):] + [m, d]))
            if d not in state:
                visit(d, stack + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
