"""Where the shipped data files are: ``shaders/`` and ``assets/``, in a checkout and when installed.

In the repository they are top-level folders; an installed wheel carries them inside the package as
``viewer/shaders`` and ``viewer/assets`` (pyproject maps them so). The folder beside the package's
own files is asked first, so an installed copy wins; the repository's top-level folder is the
fallback for a checkout or an editable install. (``importlib.resources.files`` is no help here: the
data folders have no ``__init__.py``, so it returns a ``MultiplexedPath`` whose ``str`` is no path.)
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # viewer/: this module lives in viewer/base
REPO_ROOT = PACKAGE.parent


def _folder(name: str) -> Path:
    """The folder holding ``name`` ("shaders" or "assets") as a real path on disk."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else REPO_ROOT / name


def shader_dir() -> Path:
    """The folder of the GLSL sources (``*.glsl``)."""
    return _folder("shaders")


def asset_dir() -> Path:
    """The folder of the built-in assets (demo model, fonts)."""
    return _folder("assets")


def shader_path(filename: str) -> Path:
    """Path of one shader file, e.g. ``shader_path("mesh.glsl")``.

    Raises:
        FileNotFoundError: the file is not shipped (a packaging fault, not a user error).
    """
    path = shader_dir() / filename
    if not path.is_file():
        raise FileNotFoundError(f"shader {filename!r} not found in {shader_dir()}")
    return path


def asset_path(filename: str) -> Path:
    """Path of one asset file; raises ``FileNotFoundError`` when it is not shipped."""
    path = asset_dir() / filename
    if not path.is_file():
        raise FileNotFoundError(f"asset {filename!r} not found in {asset_dir()}")
    return path
