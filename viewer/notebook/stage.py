"""One player's GL side: its own EGL context, the plain source and the panes source, and what a shot asks of them.

The player hands a ``Shot`` — a frozen description of one picture: time, size, clip, mode, the panes, the camera —
and gets pixels back; it never touches GL itself. The context is made here, on the kernel's thread, and every
draw happens on that thread (moderngl holds the GIL while llvmpipe rasterizes, so a worker thread would not free
the kernel, only add a hand-over). Panes (``--compare`` modes, or A | B against another file) are an
``export.compare.CompareOffscreen`` built for one layout and size and kept until either changes; the plain view
is one ``PlainFrames`` re-aimed for the life of the player.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from viewer.animation.clip import Clip
from viewer.compare.against import PaneChoice
from viewer.export.compare import CompareLook, CompareOffscreen
from viewer.export.offscreen import create_context
from viewer.notebook.frames import PlainFrames, plain_view
from viewer.render.camera import OrbitCamera
from viewer.render.shaders import ProgramCache
from viewer.scene.scene import Scene


@dataclass(frozen=True)
class Shot:
    """One picture to draw.

    Attributes:
        t: clip time, seconds.
        size: (width, height) pixels.
        clip: the clip (None: the rest pose).
        mode: interpolation mode (of pane A against another file).
        items: 2–4 modes or engines, one pane each; () for the plain view.
        against: file B, shown as panes A | B (then ``items`` is not used), with the divergence strip.
        choice_b: B's clip and mode when not the matched clip in A's mode.
        selected: the node marked (plain view) and followed (panes).
        camera: the orbit camera moved by the user (None: the camera ``render`` fits).
    """

    t: float
    size: tuple[int, int]
    clip: Clip | None
    mode: str = "authored"
    items: tuple[str, ...] = ()
    against: Scene | None = None
    choice_b: PaneChoice = PaneChoice()
    selected: int | None = None
    camera: OrbitCamera | None = None

    @property
    def panes(self) -> bool:
        return self.against is not None or len(self.items) >= 2


class Stage:
    """The context and frame sources of one scene; ``draw(shot)`` returns (height, width, 3) uint8."""

    def __init__(self, scene: Scene, size: tuple[int, int], clip: Clip | None, mode: str) -> None:
        self.scene = scene
        self.ctx = create_context()
        try:
            self.programs = ProgramCache(self.ctx)
            self.plain = PlainFrames(scene, clip, plain_view(size, mode), ctx=self.ctx, programs=self.programs)
        except BaseException:
            self.ctx.release()
            raise
        self._panes: CompareOffscreen | None = None
        self._panes_key: tuple | None = None
        self._panes_camera: OrbitCamera | None = None  # the one the panes source fitted, as render's
        self._last: Shot | None = None

    def draw(self, shot: Shot) -> np.ndarray:
        """The picture ``shot`` describes (the panes' labels and strip drawn as ``render`` draws them)."""
        self._last = shot
        if not shot.panes:
            self.plain.aim(shot.clip, shot.mode, shot.size)
            return self.plain.draw(shot.t, shot.camera, shot.selected)
        panes = self._panes_for(shot)
        panes.camera = self._panes_camera if shot.camera is None else shot.camera
        panes.look.node = shot.selected
        return panes.frame(shot.t)

    def _panes_for(self, shot: Shot) -> CompareOffscreen:
        key = (id(shot.clip), shot.mode, shot.items, id(shot.against), shot.choice_b, shot.size)
        if key != self._panes_key:
            self._release_panes()
            look = CompareLook(modes=shot.items or CompareLook.modes, against=shot.against, strip=True)
            look.choice_b = shot.choice_b
            view = plain_view(shot.size, shot.mode)
            self._panes = CompareOffscreen(self.scene, shot.clip, view, ctx=self.ctx, programs=self.programs, look=look)
            self._panes_camera = self._panes.camera
            self._panes_key = key
        return self._panes

    def auto_camera(self, shot: Shot) -> OrbitCamera:
        """A copy of the camera ``render`` fits for ``shot``'s layout (a drag starts from it)."""
        if shot.panes:
            self._panes_for(shot)
            return replace(self._panes_camera)
        self.plain.aim(shot.clip, shot.mode, shot.size)
        return replace(self.plain.auto_camera)

    def pick(self, x: float, y: float) -> int | None:
        """The node nearest frame pixel (x, y) in the last picture drawn (in the pane under it), else None."""
        if self._last is None:
            return None
        if self._last.panes and self._panes is not None:
            return self._panes.panes.pick(x, y)
        return self.plain.pick(x, y)

    def _release_panes(self) -> None:
        if self._panes is not None:
            self._panes.release()
            self._panes, self._panes_key = None, None

    def release(self) -> None:
        """Free every GL object and the context (the stage cannot draw afterwards)."""
        if self.ctx is None:
            return
        self._release_panes()
        self.plain.release()
        self.programs.release()
        self.ctx.release()
        self.ctx = None
