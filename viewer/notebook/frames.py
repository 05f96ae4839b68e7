"""The player's pictures: ``render``'s own frame sources, kept alive between frames and re-aimed.

A player draws many frames of one scene at sizes, clips and modes that change while it lives; building an
``Offscreen`` per change would upload the meshes and decode the textures again. ``PlainFrames`` is the plain
source that keeps its renderer and only re-aims: another size gets a new target (and the anti-aliasing
``render`` would choose for it), another clip or mode the ground and auto camera ``render`` fits to that clip
in that mode. So, with the camera untouched, a frame is the very picture ``animview render FILE --frame clip
--time T --mode M --size WxH`` writes; with a node selected its marker is drawn over it as the window does.
Compare and against panes are ``export.compare.CompareOffscreen`` as it is (``Stage`` builds one per layout).
"""

from __future__ import annotations

import numpy as np

from viewer.animation.clip import Clip
from viewer.export.offscreen import Offscreen, View
from viewer.pose.bounds import clip_bounds
from viewer.render.antialias import choose_for
from viewer.render.overlay_lines import OverlayLines, pick
from viewer.render.target import OffscreenTarget


class PlainFrames(Offscreen):
    """An ``Offscreen`` that can be re-aimed (``aim``), drawn through another camera, with a selected node."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lines = OverlayLines(self.ctx, self.renderer.programs, self.scene)
        self.auto_camera = self.camera  # what render's camera is for the aim now
        self._boxes: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}
        self._aim = (self.clip, self.view.mode)

    def aim(self, clip: Clip | None, mode: str, size: tuple[int, int]) -> None:
        """Draw ``clip`` in ``mode`` at ``size`` (width, height) pixels from now on."""
        size = (int(size[0]), int(size[1]))
        resized, reaimed = size != tuple(self.view.size), (clip, mode) != self._aim
        if not (resized or reaimed):
            return
        self.make_current()
        if resized:
            self.target.release()
            self.view.size = size
            samples, fxaa = choose_for(self.scene, self.view.options.look.aa, self.view.samples, size)
            self.target = OffscreenTarget(self.ctx, size, samples, fxaa, self.renderer.programs)
        self.clip, self.view.mode, self._aim = clip, mode, (clip, mode)
        lo, hi = self._box(clip, mode)
        if reaimed:
            self.renderer.set_ground(lo, hi)
        self.auto_camera = self.camera = self._camera(lo, hi)

    def _box(self, clip: Clip | None, mode: str) -> tuple[np.ndarray, np.ndarray]:
        """The whole clip's bounds in ``mode`` (sampling the clip densely: once per clip and mode)."""
        key = (-1 if clip is None else id(clip), mode)
        if key not in self._boxes:
            self._boxes[key] = clip_bounds(self.scene, clip, mode=mode)
        return self._boxes[key]

    def draw(self, t: float, camera=None, selected: int | None = None) -> np.ndarray:
        """The picture at clip time ``t`` (seconds), (height, width, 3) uint8, through ``camera`` (None: the auto
        camera ``render`` uses), with ``selected``'s marker."""
        self.camera = self.auto_camera if camera is None else camera
        self.pose.set_time(self.clip, t, self.view.mode)
        self.make_current()
        self.renderer.render(self.pose, self.camera, self.target.fbo, self.view.options)
        if selected is not None:
            self.lines.draw(self.pose, self.view_projection(), False, False, selected)
        return self.target.read(3)

    def view_projection(self) -> np.ndarray:
        """(4, 4) projection × view of the last frame (math convention)."""
        w, h = self.view.size
        view, proj = self.camera.matrices(self.pose, w / max(h, 1))
        return proj @ view

    def pick(self, x: float, y: float) -> int | None:
        """The node drawn nearest frame pixel (x, y) in the last frame, if any is near enough."""
        candidates = np.arange(len(self.scene.nodes))
        return pick(self.pose.world, candidates, self.view_projection(), self.view.size, x, y)

    def release(self) -> None:
        self.make_current()
        self.lines.release()
        super().release()


def plain_view(size: tuple[int, int], mode: str) -> View:
    """The ``View`` ``render`` makes for a frame without options: auto camera, default look, 4× MSAA."""
    return View(size=(int(size[0]), int(size[1])), mode=mode)
