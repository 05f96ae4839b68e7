"""``animview render FILE --compare step,linear,… -o OUT``: the compare view composed into headless frames.

One offscreen frame holds a pane per mode (side by side, 2 × 2 for four), all posed at the same time and
seen by one camera, each labelled with its mode; with trails, every pane shows every mode's path (its own
opaque, the others faded) with key dots and a marker at the time; with curves, a strip along the bottom
plots the selected channel in every mode with the playhead. Frames come out of the same ``Renderer`` as
the window, drawn with ``render.panes``; it is an ``Offscreen`` source, so every writer in
``export.writers`` takes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from viewer.animation.clip import Clip
from viewer.compare import views as compare
from viewer.export.offscreen import Offscreen
from viewer.export.plot import draw_curves, draw_labels
from viewer.pose.bounds import clip_bounds
from viewer.render.compare_view import CompareView

CURVE_FRACTION = 0.3  # of the frame's height, for the curve strip


@dataclass
class CompareLook:
    """What the composed frames show.

    Attributes:
        modes: 2–4 interpolation modes, one pane each.
        trails: draw motion trails.
        curves: add the curve strip at the bottom.
        node: node the trails follow and the curves show (None: trails follow every animated node and the
            curves show the clip's first channel).
        ghosts: draw the mesh at every key time, faded, in each pane.
    """

    modes: tuple[str, ...] = ("step", "linear", "catmull-rom")
    trails: bool = False
    curves: bool = False
    node: int | None = None
    ghosts: bool = False


def curve_channel(clip: Clip, node: int | None) -> int | None:
    """The channel the curve strip plots: the node's translation, else its first channel; else channel 0."""
    rows = [c for c, ch in enumerate(clip.channels) if node is None or ch.node == node]
    if not rows:
        return None
    moving = [c for c in rows if clip.channels[c].path == "translation"]
    return (moving or rows)[0]


class CompareOffscreen(Offscreen):
    """An ``Offscreen`` whose frames are compare panes (labels, trails, curves).

    Takes ``Offscreen``'s arguments (scene, clip, view, ctx, …) and, by name, ``look``: what the panes show.
    """

    def __init__(self, *args: Any, look: CompareLook | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.look = look or CompareLook()
        w, h = self.view.size
        self.channel = curve_channel(self.clip, self.look.node) if self.clip is not None and self.look.curves else None
        self.strip_h = int(round(h * CURVE_FRACTION)) if self.channel is not None else 0
        self.rects = compare.pane_rects(len(self.look.modes), w, h - self.strip_h)
        self.panes = CompareView(self.ctx, self.renderer.programs, self.scene)  # the window's compare view, offscreen
        self.curves = (
            {m: compare.curve(self.clip, self.channel, m) for m in self.look.modes} if self.channel is not None else {}
        )
        self._fit_panes()

    def _fit_panes(self) -> None:
        """Ground and auto camera fitted to every mode's bounds (an overshooting mode stays in view)."""
        boxes = [clip_bounds(self.scene, self.clip, mode=m) for m in self.look.modes]
        lo = np.min([b[0] for b in boxes], axis=0)
        hi = np.max([b[1] for b in boxes], axis=0)
        self.make_current()
        self.renderer.set_ground(lo, hi)
        if self.view.camera == "auto":
            _, _, w, h = self.rects[0]
            self.camera.fit(lo, hi, w / max(h, 1))
            self.camera.distance /= self.view.zoom

    def frame(self, t: float, components: int = 3) -> np.ndarray:
        """The composed picture at clip time ``t`` (seconds), (height, width, components) uint8."""
        w, height = self.view.size
        self.make_current()
        fbo = self.target.fbo
        fbo.use()
        fbo.clear(*self.view.options.background, 1.0)
        look = self.look
        self.panes.draw(
            self.renderer,
            self.camera,
            fbo,
            (0, 0, w, height - self.strip_h),
            height,
            self.clip,
            t,
            look.modes,
            self.view.options,
            look.trails,
            look.node,
            look.ghosts,
        )
        rgb = draw_labels(self.target.read(3), self.rects, self.look.modes)
        if self.curves:
            ch = self.clip.channels[self.channel]
            title = ch.label(self.scene.nodes.names) + (" (Euler degrees)" if ch.curve.rotation else "")
            strip = (0, height - self.strip_h, self.view.size[0], self.strip_h)
            rgb = draw_curves(rgb, strip, self.curves, ch.path, title, t)
        if components == 4:
            return np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)])
        return np.ascontiguousarray(rgb)

    def release(self) -> None:
        self.make_current()
        self.panes.release()
        super().release()
