"""``viewer.show(...)``: a file (or a loaded scene) as a ``Player`` in a notebook, its arguments checked first.

This module is what the ``animview.api`` entry point names, so ``import viewer; viewer.show`` finds it without
the core importing the notebook layer. It imports nothing heavy until called: without the ``notebook`` extra,
calling it says which command installs it; a missing or broken file raises ``GltfError`` (one line, with the
JSON pointer), a bad argument ``ValueError`` (one line) — before any widget or GL context is made.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXTRA = "pip install 'animview[notebook]'"
NEEDS = ("jupyter_rfb", "ipywidgets")  # simplejpeg only speeds JPEG up: Pillow does it without


def require_extra() -> None:
    """Raise ImportError naming the install command when a package of the ``notebook`` extra is missing."""
    missing = [name for name in NEEDS if _missing(name)]
    if missing:
        raise ImportError(f"viewer.show needs the notebook extra ({', '.join(missing)} missing): {EXTRA}")


def _missing(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # a module set to None in sys.modules, or a broken install
        return True


def show(
    path_or_scene,
    animation: int | str | None = None,
    mode: str = "authored",
    compare=(),
    against=None,
    size: tuple[int, int] = (640, 480),
):
    """Play a glTF file in the notebook; returns the ``Player`` widget (display it: last expression of a cell).

    Args:
        path_or_scene: a .gltf / .glb path, or a ``Scene`` from ``viewer.load``.
        animation: the clip shown first, by index or name (default the first).
        mode: interpolation mode: authored, step, linear, cubicspline, catmull-rom, cubic-zero.
        compare: 2–4 modes or engines side by side, as ``animview render --compare`` (e.g. ["step", "linear"]).
        against: another file (path or ``Scene``) shown as panes A | B with the divergence strip, as ``diff``.
        size: (width, height) of the view in CSS pixels (frames follow the view when it is resized).

    Raises:
        GltfError: the file (or ``against``) is missing or not valid glTF.
        ValueError: an unknown animation, mode or compare item, or a bad size.
        TypeError: ``path_or_scene`` or ``against`` is neither a path nor a ``Scene``.
        ImportError: the ``notebook`` extra is not installed (the message says the command).
    """
    require_extra()
    from viewer.animation.modes import MODES
    from viewer.compare.players import ITEMS
    from viewer.compare.views import MAX_PANES, MIN_PANES
    from viewer.notebook.sizing import check_size

    scene = _scene(path_or_scene, "path_or_scene")
    b = None if against is None else _scene(against, "against")
    index = clip_index(scene, animation)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    items = _items(compare)
    if items and not MIN_PANES <= len(items) <= MAX_PANES:
        raise ValueError(f"compare takes {MIN_PANES} to {MAX_PANES} modes or engines, got {len(items)}")
    unknown = [m for m in items if m not in ITEMS]
    if unknown or len(set(items)) != len(items):
        raise ValueError(f"compare items must be different names of {', '.join(ITEMS)}, got {list(items)}")
    if items and b is not None:
        raise ValueError("against shows the two files side by side; leave out compare")
    css = check_size(size)
    from viewer.notebook.player import Player

    return Player(scene, index, mode, items, b, css)


def _scene(value, name: str):
    """A ``Scene`` as given, or loaded from a path (``GltfError`` for a missing or broken file)."""
    from viewer.scene.scene import Scene, load

    if isinstance(value, Scene):
        return value
    if isinstance(value, (str, Path)):
        return load(value)
    raise TypeError(
        f"{name} must be a path to a .gltf / .glb file or a Scene from viewer.load, got {type(value).__name__}"
    )


def _items(compare) -> tuple[str, ...]:
    if isinstance(compare, str):
        return tuple(s.strip() for s in compare.split(",") if s.strip())
    return tuple(compare or ())


def clip_index(scene, animation: int | str | None) -> int:
    """The clip ``animation`` names — an index (negative counts from the end) or a name — else ValueError."""
    clips = scene.clips
    if animation is None:
        return 0
    if isinstance(animation, str):
        names = [c.name for c in clips]
        if animation in names:
            return names.index(animation)
        raise ValueError(f"no animation named {animation!r} in {scene.path.name} (it has {names})")
    if isinstance(animation, bool) or not isinstance(animation, int):
        raise ValueError(f"animation must be a clip index or name, got {animation!r}")
    if not -len(clips) <= animation < len(clips):
        raise ValueError(f"no animation {animation} in {scene.path.name} (it has {len(clips)})")
    return animation % len(clips)
