"""``animview render FILE --compare step,linear,… -o OUT`` and ``animview render A --against B -o OUT``: the
compare and against views composed into headless frames.

One offscreen frame holds a pane per source (``compare.against.PaneSource``: a mode of the clip or an engine
playing it, or file A and
file B side by side — B in its matched clip and A's mode, or the clip and mode of ``CompareLook.choice_b``; 2 × 2
for four), all posed at the same time and seen by one camera, each labelled; with trails, every pane shows every
pane's path (its own opaque, the others faded) with key dots and a marker at the time; with curves, a strip
along the bottom plots the selected channel in every mode with the playhead; against B with ``strip``, the
divergence strip runs along the bottom with the playhead and the worst time. Frames come out of the same
``Renderer`` as the window, drawn with ``render.panes``; it is an ``Offscreen`` source, so every writer in
``export.writers`` takes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from viewer.animation.clip import Clip
from viewer.compare import views as compare
from viewer.compare.against import Against, Divergence, PaneChoice, PaneSource, file_sources, mode_sources
from viewer.export.offscreen import Offscreen
from viewer.export.plot import draw_curves, draw_labels, draw_strip
from viewer.pose.bounds import clip_bounds
from viewer.render.compare_view import CompareView, PaneLook
from viewer.scene.scene import Scene

CURVE_FRACTION = 0.3  # of the frame's height, for the curve strip
STRIP_FRACTION, STRIP_MIN_PX = 0.08, 28  # the divergence strip's height: of the frame's, at least


@dataclass
class CompareLook:
    """What the composed frames show.

    Attributes:
        modes: 2–4 interpolation modes or engines (``compare.players.ITEMS``), one pane each.
        trails: draw motion trails.
        curves: add the curve strip at the bottom.
        node: node the trails follow and the curves show (None: trails follow every animated node and the
            curves show the clip's first channel).
        ghosts: draw the mesh at every key time, faded, in each pane.
        against: file B, shown in a second pane beside the file (then ``modes`` is not used).
        strip: with ``against``, the divergence strip along the bottom.
        overlay_b: with ``against``, B drawn translucent inside A's pane.
        choice_b: with ``against``, B's clip and mode when not the matched clip and A's mode.
    """

    modes: tuple[str, ...] = ("step", "linear", "catmull-rom")
    trails: bool = False
    curves: bool = False
    node: int | None = None
    ghosts: bool = False
    against: Scene | None = None
    strip: bool = False
    overlay_b: bool = False
    choice_b: PaneChoice = PaneChoice()


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
        self.sources, self.pair, self.divergence = self._sources()
        self.strip_h = int(round(h * CURVE_FRACTION)) if self.channel is not None else 0
        if self.look.strip and self.pair is not None:
            self.strip_h = max(STRIP_MIN_PX, int(round(h * STRIP_FRACTION)))
        self.rects = compare.pane_rects(len(self.sources), w, h - self.strip_h)
        self.panes = CompareView(self.ctx, self.renderer.programs, self.scene)  # the window's compare view, offscreen
        self.curves = {  # per pane, as it plays: an engine's rewritten clip on its player's clock
            s.label: compare.curve(s.clip, self.channel, s.mode, played=s.time if s.engine else None)
            for s in self.sources
            if self.channel is not None and s.clip is not None
        }
        self._fit_panes()

    def _sources(self) -> tuple[list[PaneSource], Against | None, Divergence | None]:
        """The panes' sources, and against another file the pair and its divergence (measured once)."""
        b = self.look.against
        if b is None:
            return mode_sources(self.scene, self.clip, self.look.modes), None, None
        pair, mode, choice = Against(self.scene, b), self.view.mode, self.look.choice_b
        clip_b, mode_b = pair.source_b(self.clip, mode, choice)
        sources = file_sources(self.scene, self.clip, b, clip_b, mode, mode_b)
        return sources, pair, pair.divergence(self.clip, mode, choice)

    def _fit_panes(self) -> None:
        """Ground and auto camera fitted to every pane's bounds (an overshooting mode stays in view)."""
        boxes = [clip_bounds(s.scene, s.clip, mode=s.mode) for s in self.sources]
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
        look, div = self.look, self.divergence
        match = self.pair.match if self.pair is not None else None
        scale = div.node_scale if div is not None else 0.0
        panes = PaneLook(look.trails, look.node, look.ghosts, overlay=look.overlay_b, match=match, scale=scale)
        area = (0, 0, w, height - self.strip_h)
        self.panes.draw(self.renderer, self.camera, fbo, area, height, self.sources, t, self.view.options, panes)
        rgb = draw_labels(self.target.read(3), self.rects, self.sources)
        if self.curves:
            ch = self.clip.channels[self.channel]
            title = ch.label(self.scene.nodes.names) + (" (Euler degrees)" if ch.curve.rotation else "")
            strip = (0, height - self.strip_h, self.view.size[0], self.strip_h)
            colors = {s.label: s.color for s in self.sources}
            rgb = draw_curves(rgb, strip, self.curves, ch.path, title, t, colors=colors)
        elif self.strip_h:
            duration = self.clip.duration if self.clip is not None else 0.0
            rgb = draw_strip(rgb, (0, height - self.strip_h, w, self.strip_h), div, duration, t)
        if components == 4:
            return np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)])
        return np.ascontiguousarray(rgb)

    def release(self) -> None:
        self.make_current()
        self.panes.release()
        super().release()
