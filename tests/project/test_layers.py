"""Layering (docs/ARCHITECTURE.md): folders import only downward, no module imports one that imports it back, and
the core imports no GL, window or UI code.

Imports are read from the source at every depth of a file (inside functions too: an import put in a function to
dodge a cycle is still a cycle), and the core is also imported in a fresh interpreter to look at ``sys.modules``.
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

# The folders of viewer/ from the bottom up, as docs/ARCHITECTURE.md's rank table: a folder may import only
# folders of a lower rank (and itself).
# ``viewer/__init__.py`` (the public API: load, Scene, Pose, sample_animations) stands between pose/files and the
# rest (``viewer.show`` is notebook/'s, found through the ``animview.api`` entry point, never imported by name);
# ``viewer/__main__.py`` is the command, at the top.
RANKS = {
    "base": 0,
    "gltf": 1,
    "fast": 1,
    "playback": 1,
    "animation": 2,
    "scene": 3,
    "engines": 3.5,
    "pose": 4,
    "files": 4,
    "__init__": 4.5,
    "compare": 5,
    "demo": 5,
    "reduce": 5.5,
    "render": 6,
    "ui": 7,
    "export": 8,
    "bench": 9,
    "library": 9,
    "app": 9,
    "notebook": 9,
    "cli": 10,
    "__main__": 11,
}
# The core: no GL, no window, no UI — everything ranked at or below reduce, and the library's judging half.
CORE_FOLDERS = [f for f, r in RANKS.items() if r <= RANKS["reduce"] and not f.startswith("__") and f != "demo"]
CORE_FILES = [
    "library/__init__.py",
    "library/report.py",
    "library/discover.py",
    "library/check.py",
    "library/findings.py",
    "library/findings_keys.py",
    "library/findings_resample.py",
    "library/findings_file.py",
]

PROBE = """
import importlib, json, pkgutil, sys
import viewer
for name in %r:
    pkg = importlib.import_module("viewer." + name)
    for info in pkgutil.iter_modules(pkg.__path__):
        if name == "fast" and info.name in ("kernels", "warm", "build"):
            continue  # the compiled half: numba, loaded only by fast.start()
        importlib.import_module(pkg.__name__ + "." + info.name)
import viewer.library.check, viewer.library.discover
print(json.dumps({"modules": sorted(sys.modules)}))
""" % (CORE_FOLDERS,)


def module_name(path: Path) -> str:
    rel = path.relative_to(REPO_ROOT).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def module_path(name: str) -> Path | None:
    base = REPO_ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def viewer_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every viewer module ``path`` imports, at any depth of the file; ``from a import b``
    counts as ``a.b`` where that is a module, else as ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:  # relative: resolve against this file's package
                package = module_name(path).split(".")
                package = package if path.name == "__init__.py" else package[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + [node.module])
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.append((node.lineno, sub if module_path(sub) else base))
    return [(line, name) for line, name in found if name == "viewer" or name.startswith("viewer.")]


def all_imports(path: Path) -> list[str]:
    """Every module name ``path`` imports, at any depth (for the forbidden-package check)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module",
            "__import__",
        ):
            names += [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return names


def folder_of(name: str) -> str:
    """The rank key of a viewer module: its folder, or ``__init__`` / ``__main__`` for the two top files."""
    parts = name.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def viewer_sources() -> list[Path]:
    return sorted(VIEWER.rglob("*.py"))


@functools.lru_cache(maxsize=1)
def _probe_modules() -> tuple[str, ...]:
    """``sys.modules`` of a fresh interpreter after importing the core (run once per session)."""
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return tuple(json.loads(proc.stdout.splitlines()[-1])["modules"])


def _core_sources() -> list[Path]:
    files = [VIEWER / f for f in CORE_FILES]
    for folder in CORE_FOLDERS:
        files += sorted((VIEWER / folder).glob("*.py"))
    return files


def _forbidden(name: str | None) -> bool:
    return bool(name) and name.split(".")[0] in FORBIDDEN


def test_every_folder_has_a_rank_and_viewer_has_no_loose_modules():
    folders = {p.name for p in VIEWER.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert folders == {f for f in RANKS if not f.startswith("__")}, "a folder of viewer/ without a rank in RANKS"
    loose = sorted(p.name for p in VIEWER.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"], f"modules at viewer/'s top belong in a folder: {loose}"


def test_folders_import_only_downward():
    offenders = []
    for path in viewer_sources():
        me = module_name(path)
        mine = "__main__" if path.name == "__main__.py" and path.parent == VIEWER else folder_of(me)
        for line, name in viewer_imports(path):
            theirs = folder_of(name)
            if theirs != mine and RANKS[theirs] >= RANKS[mine]:
                offenders.append(f"{path.relative_to(REPO_ROOT)}:{line} ({mine}) imports {name} ({theirs})")
    assert not offenders, "\n".join(offenders)


def test_no_import_cycle_at_any_depth():
    """No viewer module imports, at module level or inside a function, a module that imports it back."""
    graph: dict[str, set[str]] = {}
    for path in viewer_sources():
        me = module_name(path)
        deps = {name for _, name in viewer_imports(path) if name != me}
        if path.name == "__init__.py":  # a package's __init__ loading its own submodules is no cycle
            deps = {d for d in deps if not d.startswith(me + ".")}
        graph[me] = deps
    graph = {m: {d for d in deps if d in graph} for m, deps in graph.items()}
    state: dict[str, int] = {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                pytest.fail("import cycle: " + " → ".join(stack[stack.index(d) :] + [m, d]))
            if d not in state:
                visit(d, stack + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_cycle_finder_sees_an_import_inside_a_function(tmp_path):
    """The parser the two tests above rely on reads function bodies, so a deferred import is counted."""
    src = tmp_path / "probe.py"
    src.write_text("def f():\n    from viewer.pose import bounds\n    import viewer.scene.scene\n")
    assert sorted(n for _, n in viewer_imports(src)) == ["viewer.pose.bounds", "viewer.scene.scene"]


def test_importing_the_core_does_not_import_numba():
    """numba costs 0.15-0.35 s to import: only ``fast.start()`` loads it, off the path to a first picture."""
    assert "numba" not in _probe_modules()


def test_core_imports_no_gl_window_or_ui_in_a_fresh_process():
    modules = _probe_modules()
    loaded = sorted(m for m in modules if _forbidden(m))
    assert not loaded, f"core import pulled in {loaded}"
    # the probe really imported every core folder's modules
    for sub in ("animation.keyframes", "animation.table", "pose.bounds", "scene.lights", "files.bake", "compare.views"):
        assert f"viewer.{sub}" in modules


def test_core_source_has_no_forbidden_import():
    offenders = []
    for path in _core_sources():
        assert path.is_file(), path
        offenders += [f"{path.relative_to(REPO_ROOT)} {n}" for n in all_imports(path) if _forbidden(n)]
    assert not offenders, offenders


def test_static_check_covers_every_core_module_the_probe_loads():
    checked = {p.resolve() for p in _core_sources()} | {(VIEWER / "__init__.py").resolve()}
    for name in _probe_modules():
        if name == "viewer" or name.startswith("viewer."):
            path = module_path(name)
            assert path is not None and path.resolve() in checked, name
    init = VIEWER / "__init__.py"
    assert not any(_forbidden(n) for n in all_imports(init))
