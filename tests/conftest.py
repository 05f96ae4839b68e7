"""Shared test settings: where the Khronos sample models are.

One setting: the environment variable ``ANIMVIEW_KHRONOS``, defaulting to ``../shared/assets/khronos``
next to the repository; the material models are its sibling ``khronos-pbr``, the material-extension models
``khronos-ext``. Tests that need the models take the ``khronos_dir`` fixture (skips cleanly when the folder is
absent) or call ``khronos_model(name)`` / ``pbr_model(name)`` / ``ext_model(name)``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
KHRONOS_DIR = Path(os.environ.get("ANIMVIEW_KHRONOS", REPO_ROOT.parent / "shared" / "assets" / "khronos"))
KHRONOS_PBR_DIR = KHRONOS_DIR.parent / "khronos-pbr"  # the material test models, beside the animated ones
KHRONOS_EXT_DIR = KHRONOS_DIR.parent / "khronos-ext"  # material-extension models, each in a variant's folder


def _model_file(root: Path, name: str) -> Path:
    files = sorted((root / name).glob("*.gltf")) + sorted((root / name).glob("*.glb"))
    if not files:
        pytest.skip(f"Khronos sample model {name} not found in {root} (set ANIMVIEW_KHRONOS)")
    return files[0]


def khronos_model(name: str) -> Path:
    """The .gltf or .glb file of the Khronos sample model folder ``name`` (e.g. "Fox"); skips if absent."""
    return _model_file(KHRONOS_DIR, name)


def pbr_model(name: str) -> Path:
    """The .gltf or .glb of the Khronos material model folder ``name`` (e.g. "DamagedHelmet"); skips if absent."""
    return _model_file(KHRONOS_PBR_DIR, name)


def ext_model(name: str) -> Path:
    """The .gltf or .glb of the material-extension model folder ``name`` (e.g. "MaterialsVariantsShoe"), found in
    the one sample-repository variant folder it keeps (``glTF``, ``glTF-Binary``, …); skips if absent."""
    files = sorted((KHRONOS_EXT_DIR / name).glob("*/*.gltf")) + sorted((KHRONOS_EXT_DIR / name).glob("*/*.glb"))
    if not files:
        pytest.skip(f"Khronos sample model {name} not found in {KHRONOS_EXT_DIR} (set ANIMVIEW_KHRONOS)")
    return files[0]


def khronos_model_names() -> list[str]:
    """Names of the model folders present (empty when the folder is absent), for parametrizing."""
    if not KHRONOS_DIR.is_dir():
        return []
    return sorted(p.name for p in KHRONOS_DIR.iterdir() if p.is_dir())


@pytest.fixture
def khronos_dir() -> Path:
    """The Khronos sample model folder; skips the test when it is absent."""
    if not KHRONOS_DIR.is_dir():
        pytest.skip(f"Khronos sample models not found at {KHRONOS_DIR} (set ANIMVIEW_KHRONOS)")
    return KHRONOS_DIR


@pytest.fixture(scope="module")
def ctx():
    """An offscreen (EGL) OpenGL context for a test module; skips where none can be made."""
    from viewer import export

    try:
        return export.create_context()
    except export.HeadlessError as exc:
        pytest.skip(str(exc))


@pytest.fixture
def gl_available():
    """Skips a test that starts its own GL (a child ``animview render``) where no offscreen context can be made."""
    from viewer import export

    try:
        export.create_context().release()
    except export.HeadlessError as exc:
        pytest.skip(str(exc))


# Debian's Chromium for the browser tests (Playwright cannot download its own here), with flags for a sandboxless,
# offline, GPU-less machine.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def need_browser():
    """Playwright's sync API, or skip (no Playwright, no Chromium)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        pytest.skip(f"playwright is not installed ({exc}); pip install playwright")
    if not CHROMIUM.is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    return sync_playwright


@dataclass
class GL:
    """One EGL context and its program cache for the whole test session."""

    ctx: object
    programs: object


@pytest.fixture(scope="session")
def gl() -> GL:
    """The offscreen context (made by ``viewer.export``, the one place that makes them)."""
    from viewer import export
    from viewer.render.shaders import ProgramCache

    try:
        ctx = export.create_context()
    except export.HeadlessError as exc:
        pytest.skip(str(exc))
    with ctx:
        assert ctx.error == "GL_NO_ERROR"
    yield GL(ctx, ProgramCache(ctx))
    with ctx:
        assert ctx.error == "GL_NO_ERROR"
