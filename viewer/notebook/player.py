"""``Player``: the animview view as a notebook widget — the streamed picture, its controls and a Python API.

The playback clock stays in Python (``playback.Clock``, through the window's ``ui.state.ViewerState``: clip,
mode, selection): a frame shows the clock's time when it is drawn, so a slow renderer or link skips frames and
never slows the animation; while playing, each frame sent asks for the next and jupyter_rfb holds it until the
browser has room (``canvas``). Everything a control changes is a trait (``traits``: ``time``, ``playing``, ``speed``,
``loop``, ``mode``, ``animation``, ``compare``, ``against_shown``, ``selected``), so a cell sets the same values
(``player.mode = "step"``) and observes them (``player.observe(f, names="time")``: once per frame drawn and on
every seek). Nothing here blocks the kernel: a draw is one frame's work, run between the kernel's messages — on
the main thread, or on the subshell thread JupyterLab sends widget messages to (``gl_thread`` keeps GL on one
thread; a lock keeps a draw and what must follow it, a pick, together).
"""

from __future__ import annotations

import math
import threading
import time as walltime

import numpy as np
from traitlets import observe

from viewer.compare.views import MIN_PANES
from viewer.notebook import fallback
from viewer.notebook.canvas import FrameView
from viewer.notebook.controls import Controls
from viewer.notebook.fallback_page import fallback_page
from viewer.notebook.gestures import Gestures, move_clock
from viewer.notebook.gl_thread import StageThread
from viewer.notebook.readout import node_values, readout_html
from viewer.notebook.sizing import check_size, frame_size
from viewer.notebook.stage import Shot
from viewer.notebook.traits import PlayerTraits
from viewer.playback.clock import Clock
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene
from viewer.ui.state import ViewerState

STATUS_SECONDS = 0.25  # while playing, the status line and readout change at most this often


class Player(PlayerTraits):
    """A scene playing in a notebook (made by ``viewer.show``).

    Args:
        scene: the loaded file.
        animation: index of the clip shown first.
        mode: interpolation mode (``viewer.animation.modes.MODES``).
        compare: 2–4 modes or engines shown side by side (() for the plain view).
        against: another file shown as panes A | B, with the divergence strip (as ``render --against``).
        size: (width, height) of the view in CSS pixels; frames follow the view's size once shown.
        time_source: real seconds for the clock (monotonic; tests give a fake one).
    """

    def __init__(
        self,
        scene: Scene,
        animation: int = 0,
        mode: str = "authored",
        compare: tuple[str, ...] = (),
        against: Scene | None = None,
        size: tuple[int, int] = (640, 480),
        time_source=walltime.perf_counter,
    ) -> None:
        super().__init__()
        self.scene, self.against_scene = scene, against
        self.state = ViewerState(scene, Clock(time_source=time_source), clip_index=animation, mode=mode)
        self._css = check_size(size)
        self._size = frame_size(*self._css)
        self.stage = StageThread(scene, self._size, self.state.clip, mode)  # GL on its own thread
        self._lock = threading.RLock()  # a draw and a cell's frame() or pick from another thread, one at a time
        self.canvas = FrameView(self._draw_frame, self._on_event, self._css)
        self.gestures = Gestures()
        self.camera = None  # the orbit camera once the mouse moved it; None: the one render fits
        self._pose = Pose(scene)  # for the readout, apart from the stage's
        self._quiet = False
        self._shown_at = -math.inf
        self._fps = 0.0  # frames drawn per second while playing, smoothed
        self._last_draw = -math.inf
        labels = [self.state.clip_label(i) for i in range(len(scene.clips))] or ["(no animation)"]
        self.controls = Controls(self, labels, against.path.name if against is not None else None)
        self.children = self.controls.rows(self.canvas, self.canvas.errors)
        self.mode, self.animation = mode, animation
        self.compare, self.against_shown = tuple(compare), against is not None
        self._show_status(force=True)

    # ---------------------------------------------------------------- the Python API

    @property
    def duration(self) -> float:
        """The clip's length in seconds (0 without animation)."""
        return self.state.clock.duration

    def play(self) -> None:
        """Start playing from the current time (a ``once`` clip at its end starts over)."""
        self.playing = True

    def pause(self) -> None:
        self.playing = False

    def frame(self, t: float | None = None, size: tuple[int, int] | None = None) -> np.ndarray:
        """The picture the view shows — at time ``t`` (seconds; default the current one) and ``size`` (width, height;
        default the view's frame size) — as (height, width, 3) uint8. With the camera untouched it is the picture
        ``animview render`` writes for that time, mode, size (``--frame clip``) or panes."""
        t = self.state.clock.t if t is None else float(t)
        with self._lock:
            return self.stage.draw(self._shot(t, self._size if size is None else check_size(size)))

    def readout(self) -> dict | None:
        """The selected node's values at the current time (``readout.node_values``), or None."""
        node = self.selected
        if node is None:
            return None
        with self._lock:
            self._pose.set_time(self.state.clip, self.state.clock.t, self.mode)
            return node_values(self._pose, self.state.clip, node)

    def static_copy(self, frames: int | None = None, cap: int = fallback.CAP_BYTES) -> tuple[str, dict]:
        """The self-contained HTML player nbconvert shows (``fallback``) and what it kept."""
        shot = self._shot(0.0, self._size)
        b = shot.against.path.name if shot.against is not None else None
        sets = fallback.copy_sets(shot.items, b, (self.mode, *self.fallback_modes))  # the panes, else the modes
        clip = self.state.clip
        title = f"{self.scene.path.name} · {clip.name if clip is not None else 'rest pose'}"
        count = self.fallback_frames if frames is None else frames
        with self._lock:
            return fallback.fallback_html(
                self._draw_for_copy, title, self.duration, sets, self._size, fallback_page, count, cap
            )

    def close(self) -> None:
        """Stop, free the GL context and close the widgets."""
        self.state.clock.pause()
        for child in (self.canvas, *self.children):
            child.close()
        self.stage.release()
        super().close()

    def _repr_mimebundle_(self, **kwargs):
        """The widget, plus what outlives the kernel: the static copy (``text/html``) and a poster (``image/jpeg``)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):
            bundle["text/html"] = self.static_copy()[0]
            bundle["image/jpeg"] = fallback.poster(self.frame())
        return bundle

    # ---------------------------------------------------------------- drawing

    def _shot(self, t: float, size: tuple[int, int], mode: str | None = None) -> Shot:
        """What the view shows at ``t``; with ``mode``, the plain view in that mode (the static copy's sets)."""
        against = self.against_scene if self.against_shown and mode is None else None
        panes = len(self.compare) >= MIN_PANES and against is None and mode is None
        items = tuple(self.compare) if panes else ()
        return Shot(
            t, size, self.state.clip, mode or self.mode, items, against, selected=self.selected, camera=self.camera
        )

    def _draw_for_copy(self, mode: str | None, t: float, size: tuple[int, int]) -> np.ndarray:
        return self.stage.draw(self._shot(t, size, mode))

    def _draw_frame(self) -> np.ndarray | None:
        """jupyter_rfb's draw (on whichever thread its loop runs): advance the clock by the real time since the last
        frame, draw, ask for the next."""
        clock = self.state.clock
        if self.stage.closed:  # a timer of jupyter_rfb's that outlived close()
            return None
        with self._lock:
            started = walltime.perf_counter()
            if clock.playing:
                clock.update()
            try:
                pixels = self.stage.draw(self._shot(clock.t, self._size))
            except Exception:
                clock.pause()
                self._set_quietly(playing=False)
                raise
            self._after_frame(started)
        if clock.playing:
            self.canvas.request_draw()
        return pixels

    def _after_frame(self, started: float) -> None:
        """Traits to the clock's values; the frame rate shown is frames drawn per second while playing (jupyter_rfb
        draws the next frame only when the browser has room, so it is the rate delivered)."""
        clock = self.state.clock
        was_playing = self.playing
        self._set_quietly(time=clock.t, playing=clock.playing)
        gap = started - self._last_draw
        self._last_draw = started
        if was_playing and 0 < gap < 1.0:
            self._fps = 1.0 / gap if self._fps <= 0 else 0.9 * self._fps + 0.1 / gap
        self._show_status(force=not clock.playing)

    def _show_status(self, force: bool = False) -> None:
        """The status line and readout: at most every ``STATUS_SECONDS`` while playing, else at once."""
        now = walltime.monotonic()
        if not force and now - self._shown_at < STATUS_SECONDS:
            return
        self._shown_at = now
        w, h = self._size
        rate = f" · {self._fps:.0f} fps" if self._fps > 0 else ""
        self.controls.status.value = f"<code>{self.state.clock.t:.3f} / {self.duration:.3f} s</code> · {w}×{h}{rate}"
        self.controls.readout.value = readout_html(self.readout(), self.state.clock.t, self.mode)

    def _redraw(self) -> None:
        self.canvas.request_draw()

    def _set_quietly(self, **values) -> None:
        """Set traits to what the clock already is, without their observers seeking or playing it again."""
        self._quiet = True
        try:
            for name, value in values.items():
                setattr(self, name, value)
        finally:
            self._quiet = False

    # ---------------------------------------------------------------- events

    def _on_event(self, event: dict) -> None:
        if event.get("type") == "resize":  # jupyter_rfb asks for the draw itself
            self._css = (float(event["width"]), float(event["height"]))
            self._size = frame_size(event["width"], event["height"], float(event.get("ratio", 1.0)))
            return
        outcome = self.gestures.handle(event, self._take_camera, self._css[1])
        if outcome.camera:
            self._redraw()
        if outcome.click is not None:
            self._pick(*outcome.click)
        if outcome.action is not None:
            self._act(outcome.action)

    def _take_camera(self):
        if self.camera is None:
            self.camera = self.stage.auto_camera(self._shot(self.state.clock.t, self._size))
        return self.camera

    def _pick(self, x: float, y: float) -> None:
        """Select the node under CSS pixel (x, y) of the view (nothing there: clear the selection)."""
        sx, sy = self._size[0] / max(self._css[0], 1e-9), self._size[1] / max(self._css[1], 1e-9)
        with self._lock:
            self.stage.draw(self._shot(self.state.clock.t, self._size))  # the picture on screen, whatever drew since
            node = self.stage.pick(x * sx, y * sy)
        self.selected = node

    def _act(self, action: str) -> None:
        clock = self.state.clock
        if action == "toggle":
            self.playing = not self.playing
            return
        if action == "reset_camera":
            self.camera = None
        else:
            move_clock(clock, action)
            self._set_quietly(time=clock.t, playing=clock.playing)
        self._redraw()

    # ---------------------------------------------------------------- traits

    @observe("time")
    def _time_changed(self, change) -> None:
        if not self._quiet:
            self.state.clock.seek(change["new"])
            self._show_status(force=True)
            self._redraw()

    @observe("playing")
    def _playing_changed(self, change) -> None:
        if self._quiet:
            return
        clock = self.state.clock
        if change["new"] and not clock.playing:
            clock.play()
        elif not change["new"]:
            clock.pause()
        self._redraw()

    @observe("speed")
    def _speed_changed(self, change) -> None:
        self.state.clock.speed = change["new"]

    @observe("loop")
    def _loop_changed(self, change) -> None:
        self.state.clock.loop_mode = change["new"]
        self._redraw()

    @observe("mode")
    def _mode_changed(self, change) -> None:
        self.state.mode = change["new"]
        self._show_status(force=True)
        self._redraw()

    @observe("animation")
    def _animation_changed(self, change) -> None:
        self.state.select_clip(change["new"])
        self._set_quietly(time=self.state.clock.t)  # before the slider shrinks: it would clamp the old time
        self.controls.set_duration(self.state.clock.duration)
        self._show_status(force=True)
        self._redraw()

    @observe("compare", "against_shown", "selected")
    def _view_changed(self, change) -> None:
        if change["name"] == "selected":
            self.state.select_node(change["new"])
            self._show_status(force=True)
        self._redraw()
