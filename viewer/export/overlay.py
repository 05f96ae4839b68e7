"""``animview render … --overlay``: the viewer's timeline and panels drawn into offscreen frames.

The same ``Overlay`` the window uses draws over each frame, fed a ``ViewerState`` whose clock is at the
frame's time and playing (so the bar shows what a person watching playback sees). The pictures of README and
docs/viewer.md come from here. It is an ``Offscreen`` source: every writer in ``export.writers``
takes it. It lives in ``export/``, not ``ui/``: the UI draws; only export owns offscreen contexts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from viewer.animation.clip import Clip
from viewer.export.offscreen import Offscreen, pose_bounds_at
from viewer.playback.clock import Clock
from viewer.pose.bounds import clip_bounds
from viewer.render.compare_view import CompareView
from viewer.render.overlay_lines import OverlayLines
from viewer.render.scene_view import SceneDrawing, SceneView
from viewer.ui.overlay import Overlay
from viewer.ui.state import ViewerState


@dataclass
class OverlayLook:
    """What the overlay shows in rendered frames.

    Attributes:
        selected: node whose readout the panel shows; None picks the first animated node.
        channels: expand the dope sheet into one row per channel.
        fps: frame rate of the ruler's frame numbers.
        playing: draw the transport as playing (its button then reads "Pause").
        skeleton: draw joints and bones over the mesh.
        bounds: draw the posed bounding box.
    """

    selected: int | None = None
    channels: bool = True
    fps: float = 30.0
    playing: bool = True
    skeleton: bool = False
    bounds: bool = False


class OverlayOffscreen(Offscreen):
    """An ``Offscreen`` whose frames carry the timeline and panels on top.

    Takes ``Offscreen``'s arguments (scene, clip, view, ctx, …) and, by name, ``look``: what the overlay shows.
    """

    def __init__(self, *args: Any, look: OverlayLook | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        scene, clip, look = self.scene, self.clip, look or OverlayLook()
        clock = Clock()
        self.state = ViewerState(scene, clock, clip.index if clip is not None else 0, self.view.mode, look.fps)
        self.state.display.channels = look.channels
        self.state.display.skeleton, self.state.display.bounds = look.skeleton, look.bounds
        # the command line's grid and look, shown in the View section as the window would show them
        self.state.display.grid, self.state.display.look = self.view.options.grid, self.view.options.look
        self.state.display.variant = self.view.options.variant
        self.state.select_node(look.selected if look.selected is not None else _first_animated(clip))
        self.state.tree_revealed = self.state.selected_node  # a still picture shows the readout, not the tree
        if look.playing and clip is not None:
            clock.play()
        self.overlay = Overlay(self.ctx, self.view.size)
        self.lines = OverlayLines(self.ctx, self.renderer.programs, scene)
        self.panes = CompareView(self.ctx, self.renderer.programs, scene)  # unused until the overlay exports panes
        self._dt = 1.0 / look.fps
        self.overlay.frame(self.state, self.pose, self._dt)  # auto-sized panels take their size on frame one
        self._fit_above_bar()

    def _fit_above_bar(self) -> None:
        """Refit the auto camera to the part of the frame above the bar (the bar would hide the feet)."""
        if self.view.camera != "auto":
            return
        _, _, w, h = self.overlay.layout.scene_viewport()
        if self.view.frame_at is not None:
            lo, hi = pose_bounds_at(self.scene, self.clip, self.view.frame_at, self.view.mode)
        else:
            lo, hi = clip_bounds(self.scene, self.clip, mode=self.view.mode)
        self.camera.fit(lo, hi, w / h)
        self.camera.distance /= self.view.zoom

    def frame(self, t: float, components: int = 3) -> np.ndarray:
        """The picture at clip time ``t`` (seconds) with the overlay, (height, width, components) uint8."""
        self.pose.set_time(self.clip, t, self.view.mode)
        self.state.clock.seek(t)
        self.overlay.frame(self.state, self.pose, self._dt)
        d = self.state.display
        view = SceneView(self.clip, t, selected=self.state.selected_node if d.skeleton else None, display=d)
        drawing = SceneDrawing(self.ctx, self.renderer, self.panes, self.lines, self.pose, self.camera)
        drawing.draw(self.target.fbo, self.overlay.layout.scene_viewport(), self.view.size[1], view, self.view.options)
        self.target.finish().use()  # FXAA (when on) smooths the 3D view, not the panels' text
        self.overlay.render()
        return self.target.read(components).copy()

    def release(self) -> None:
        self.overlay.release()
        self.lines.release()
        self.panes.release()
        super().release()


def _first_animated(clip: Clip | None) -> int | None:
    return next((ch.node for ch in clip.channels if ch.node >= 0), None) if clip is not None else None
