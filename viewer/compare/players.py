"""What a compare pane plays: one of the spec's interpolation modes of the clip, or the clip as an engine plays it.

A pane "as engine E plays it" needs no new machinery: ``engines.Engine.clip`` rewrites the clip into an ordinary
``Clip`` with the same channels in the same order, played in mode ``authored``, and ``Engine.player_time`` says
where E's default player is at each moment of the shared clock (three.js wraps to the first pose at the loop's
end, Filament holds the last). So a pane's source keeps its (scene, clip, mode) shape and gains a clock
mapping; poses, trails, curves, ghosts and readouts take the rewritten clip as they take the file's. The
rewritten clip gets its own ``key`` — poses key their compiled frames and bindings by it, and the file's clip
in mode authored must not be mistaken for it. Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.animation.clip import Clip
from viewer.animation.modes import MODES
from viewer.compare.views import MODE_COLORS, modes_argument, parse_modes
from viewer.engines import NAMES, Engine, get
from viewer.scene.scene import Scene

ITEMS = tuple(MODES) + tuple(NAMES)
"""What ``--compare`` and the Compare panel's pane combo offer: the modes, then the engines."""
# One colour per engine (sRGB hex), apart from the modes' (MODE_COLORS) and from each other, so a pane's label,
# trail and curve say which engine it is wherever they are drawn.
_HEX = (
    "spec:b3f2d9 three:26d9d9 babylon:fa73b3 ksv:b3f240 filament:ff8c1a godot:668cbf gltfast:f2f280 pygfx:b38059 "
    "blender:e0a060 vtk:8fd0ff"
)
ENGINE_COLORS = {
    n: tuple(int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)) for n, h in (p.split(":") for p in _HEX.split())
}
SPARE_COLORS = ((0.55, 0.90, 0.55), (0.90, 0.70, 0.95), (0.60, 0.80, 1.00))  # an engine added since the table
PANE_COLORS = {**MODE_COLORS, **{n: ENGINE_COLORS.get(n, SPARE_COLORS[i % 3]) for i, n in enumerate(NAMES)}}


def is_engine(item: str) -> bool:
    return item in NAMES


def title(item: str) -> str:
    """A pane's name for ``item``: an engine's own title ("three.js"), else the mode's name."""
    return get(item).title if is_engine(item) else item


def parse_items(text: str) -> tuple[str, ...]:
    """``"spec,three,filament"`` → the items, checked: 2–4 distinct modes or engine names (ValueError, one line)."""
    return parse_modes(text, ITEMS, "interpolation mode or engine")


def items_argument(text: str) -> tuple[str, ...]:
    """``parse_items`` for argparse (``--compare``): a bad list is an argument error, one line."""
    return modes_argument(text, ITEMS, "interpolation mode or engine")


@dataclass(frozen=True)
class Played:
    """What a pane plays: ``clip`` sampled in ``mode``, at ``engine``'s player time (None: the clock's own)."""

    clip: Clip | None
    mode: str
    engine: Engine | None = None

    def time(self, t):
        """Clip time(s) at clock time(s) ``t`` (seconds): the engine's player wraps or holds at the end."""
        if self.engine is None or self.clip is None:
            return t
        out = self.engine.player_time(np.asarray(t, dtype=np.float64), self.clip.duration)
        return float(out) if np.ndim(t) == 0 else out


def engine_clip(scene: Scene, clip: Clip, name: str) -> Clip:
    """``clip`` of ``scene`` as engine ``name`` imports it (``Engine.clip`` keeps it: the panes ask every frame)."""
    return get(name).clip(clip, scene)


def played(scene: Scene, clip: Clip | None, item: str) -> Played:
    """What a pane of ``item`` (a mode or an engine name) plays of ``clip``: an engine's rewritten clip in mode
    authored at its player's time, else the clip in that mode."""
    if not is_engine(item):
        return Played(clip, item)
    return Played(None if clip is None else engine_clip(scene, clip, item), "authored", get(item))


def played_at(scene: Scene, clip: Clip, items, t: float) -> dict[str, tuple[Clip, float, str]]:
    """Per engine among ``items``, the (clip, clip time, mode) it shows at clock ``t``: ``views.readout``'s
    ``played``, so an engine's values sit beside the modes' with their difference from the spec's."""
    out = {}
    for item in items:
        if is_engine(item):
            p = played(scene, clip, item)
            out[item] = (p.clip, p.time(float(t)), p.mode)
    return out
