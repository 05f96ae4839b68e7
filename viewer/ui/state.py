"""Everything the overlay and the keyboard may change: the clock, the clip, the selection, the compare and
display settings. Plain Python (no imgui, no GL), so key handling and clip switching are tested on their own.

The app reads this once per frame (which clip, what time, which mode, what to draw); the overlay and the
key map write it. Scene GPU resources are not here: a reload swaps ``scene`` and the app rebuilds them.
"""

from __future__ import annotations

import math
import time

from viewer.animation.clip import Clip, combine
from viewer.animation.modes import MODES
from viewer.animation.seams import Seams, loop_seams
from viewer.compare.against import Against, Divergence, PaneChoice, PaneSource, chosen_clip, file_sources, mode_sources
from viewer.compare.players import ITEMS
from viewer.compare.views import MAX_PANES, MIN_PANES
from viewer.playback.clock import Clock
from viewer.render.scene_view import Display  # noqa: F401 — the toggles live with what they switch
from viewer.scene.scene import Scene
from viewer.ui.dope_rows import Row, channel_label, dope_rows

DEFAULT_FPS = 30.0
DEFAULT_COMPARE = ("step", "linear", "catmull-rom")


MESSAGE_SECONDS = 6.0


class ViewerState:
    """The viewer's editable state for one loaded scene.

    Args:
        scene: the loaded file.
        clock: playback clock (made here when omitted, paused at 0).
        clip_index: which animation plays (ignored when the file has none).
        mode: interpolation mode name (``viewer.animation.modes.MODES``), "authored" by default.
        fps: frame rate of the ruler's frame numbers and of frame stepping.
        compare: modes or engines of the compare panes; given, the viewer starts in compare view.
    """

    def __init__(
        self,
        scene: Scene,
        clock: Clock | None = None,
        clip_index: int = 0,
        mode: str = "authored",
        fps: float = DEFAULT_FPS,
        compare: tuple[str, ...] | None = None,
    ) -> None:
        self.scene = scene
        self.clock = clock or Clock()
        self.clock.frame_rate = fps
        self.clip_index = -1
        """The clip picked last (the clip list's title); ``active`` holds every clip playing."""
        self.active: tuple[int, ...] = ()
        """Indices of the clips playing together on the one clock, in file order."""
        self._combined: dict[tuple[int, ...], Clip] = {}
        self._seams: dict[tuple[int, str], Seams] = {}
        self.selected_node: int | None = None
        self.mode = mode
        self.display = Display(compare=compare is not None)
        self.compare_modes: list[str] = list(compare or DEFAULT_COMPARE)
        """One pane per mode, in order (2 to 4, each mode at most once)."""
        self.compare_clips: list[int | None] = [None] * len(self.compare_modes)
        """Per pane, a clip of the file chosen for it (None: the window's clip; the first pane always shows it)."""
        self.choice_b = PaneChoice()
        """Against another file: B's clip and mode as chosen (``--animation-b``, ``--mode-b``, the Compare panel)."""
        self.curve_channel: int | None = None
        """Channel the curve window plots (None: the selected node's first)."""
        self.curve_euler = True
        """Rotation curves as Euler degrees (else quaternion components)."""
        self._message, self._message_at = "", -math.inf
        self.clock_source = time.monotonic  # real seconds, for how long a message stays (tests replace it)
        self.side_w: int | None = None
        """Width of the docked panel column once the user dragged it (None: a share of the window)."""
        self.frame_seconds = 0.0
        """Real seconds per drawn frame, smoothed (the bar shows it as fps)."""
        self.pose_seconds = 0.0
        """Real seconds of the window's pose update (sample + pose + joints), smoothed (the bar shows it)."""
        self.channel_filter = ""
        """Text typed in the dope sheet's filter (case-insensitive substring of "node · path")."""
        self.selected_only = False
        """The dope sheet shows only the selected node's channels."""
        self.view_range: tuple[float, float] | None = None
        """Clip times the ruler shows (None: the whole clip); wheel zooms, middle drag pans, F fits."""
        self.view_camera: int | None = None
        """The file's camera the 3D view looks through (None: the orbit camera)."""
        self.requested: str | None = None
        """A window command a button asked for ("export", "screenshot"); the window runs it after the frame."""
        self.menu_time = 0.0
        """The clip time a right click on the ruler opened its menu at."""
        self.node_filter = ""
        """Text typed in the node tree's search field (case-insensitive substring of node names)."""
        self.tree_revealed: int | None = None
        """The selected node the tree last opened its ancestors for and scrolled to; a selection that
        differs (a node picked in the 3D view) makes the tree reveal it once."""
        self.aa_label = ""
        """The anti-aliasing the 3D view got this frame ("MSAA 4×", "FXAA", "off"): what "auto" chose."""
        self.against: Against | None = None
        """File B held against this file (``--against``, a file dropped on a pane): panes A | B and the strip."""
        self.select_clip(clip_index if scene.clips else 0)

    @property
    def message(self) -> str:
        """One line shown in the bar — the last error, opened file or saved screenshot — for
        ``MESSAGE_SECONDS`` after it was set; then empty (a "saved …" that never leaves reads as stuck)."""
        return self._message if self.clock_source() - self._message_at < MESSAGE_SECONDS else ""

    @message.setter
    def message(self, text: str) -> None:
        self._message, self._message_at = text, self.clock_source()

    def note_pose(self, seconds: float) -> None:
        """Fold one pose update's duration into ``pose_seconds`` (a 10-update moving average)."""
        self.pose_seconds = seconds if self.pose_seconds <= 0.0 else 0.9 * self.pose_seconds + 0.1 * seconds

    def note_frame(self, dt: float) -> None:
        """Fold one frame's real duration (seconds) into ``frame_seconds`` (a 10-frame moving average)."""
        if dt > 0.0 and math.isfinite(dt):
            self.frame_seconds = dt if self.frame_seconds <= 0.0 else 0.9 * self.frame_seconds + 0.1 * dt

    @property
    def clip(self) -> Clip | None:
        """What plays: the one active clip, several combined (``animation.clip.combine``), or None when the
        file has no animations. A combination is built once per set, so its tables are cached with it."""
        clips = self.scene.clips
        if len(self.active) > 1:
            if self.active not in self._combined:
                self._combined[self.active] = combine([clips[i] for i in self.active])
            return self._combined[self.active]
        return clips[self.clip_index] if 0 <= self.clip_index < len(clips) else None

    @property
    def fps(self) -> float:
        return self.clock.frame_rate

    def select_clip(self, index: int) -> bool:
        """Switch to animation ``index`` from its start, keeping play / pause; False if there is none.

        Selecting the clip already playing changes nothing (so pressing its number key twice is harmless).
        """
        if not 0 <= index < len(self.scene.clips):
            self.active = ()
            self._apply_clip(None)
            return False
        if index != self.clip_index or self.active != (index,):
            self.clip_index, self.active = index, (index,)
            self.clock.clear_range()  # another clip: its own whole length plays
            self._apply_clip(self.scene.clips[index])
            self.clock.home()
        return True

    def set_active(self, indices) -> bool:
        """Play the clips ``indices`` together (file order, at least one; unknown indices are ignored).

        The time stays where it is (clamped to the new span), so ticking another clip on does not restart
        the ones already playing. False when nothing valid was given (nothing changes then).
        """
        chosen = tuple(sorted({i for i in indices if 0 <= i < len(self.scene.clips)}))
        if not chosen:
            return False
        if chosen != self.active:
            self.active = chosen
            if self.clip_index not in chosen:
                self.clip_index = chosen[0]
            self._apply_clip(self.clip)
        return True

    def toggle_active(self, index: int) -> bool:
        """Tick clip ``index`` on or off in the set playing together; the last one cannot go (False)."""
        if index in self.active:
            return len(self.active) > 1 and self.set_active(i for i in self.active if i != index)
        return self.set_active((*self.active, index))

    def toggle_all(self) -> bool:
        """All clips together, or — when all already play — only the clip picked last (A)."""
        every = tuple(range(len(self.scene.clips)))
        if not every:
            return False
        return self.set_active((self.clip_index,) if self.active == every else every)

    def _apply_clip(self, clip: Clip | None) -> None:
        self.view_range = None  # the ruler fits what plays now
        self.curve_channel = None  # channel indices belong to the clip: the curves follow the selection again
        self.clock.set_duration(clip.duration if clip else 0.0)
        self.clock.set_keys(clip.key_times if clip else ())

    def set_scene(self, scene: Scene, keep: bool = True) -> None:
        """Take another file. ``keep`` (a reload): keep the clip number, time and selection where the file
        still has them; otherwise (a new file) start at its first clip, t = 0, nothing selected."""
        t, active, span, view = self.clock.t, self.active, self.clock.range, self.view_range
        index = self.clip_index if keep and 0 <= self.clip_index < len(scene.clips) else 0
        self.scene = scene
        self.clip_index, self.active, self._combined, self._seams, self._rows_key = -1, (), {}, {}, None
        if self.select_clip(index) and keep:
            self.set_active(active)
            self.clock.seek(min(t, self.clock.duration))
            if span is not None:  # a reload keeps the loop range and the ruler's zoom where they still fit
                self.clock.set_range(*span)
            self.view_range = view
        self.select_node(self.selected_node if keep else None)
        if not keep:  # another file: its clips are not the old one's
            self.compare_clips = [None] * len(self.compare_modes)
        if self.against is not None:  # the pairs and reports were A's: measure the new A against the same B
            self.set_against(self.against.b)
        placed = self.cameras()
        if self.view_camera not in placed:
            self.view_camera = None
        if not keep or (self.display.variant or 0) >= len(scene.variants):  # another file's variants are not these
            self.display.variant = None

    def set_against(self, b: Scene | None) -> None:
        """Hold file ``b`` against the current file (None: stop): the view splits into A | B. B's chosen clip and
        mode stay while B does (a reload or another A), and go with it."""
        if self.against is None or b is not self.against.b:
            self.choice_b = PaneChoice()
        self.against = Against(self.scene, b) if b is not None else None
        self.display.compare = b is not None or self.display.compare

    def pane_sources(self) -> list[PaneSource]:
        """What each pane shows: A's clip and mode and B's (its choice, else the match in A's mode) in the against
        view; else each pane's mode of the window's clip or of the clip chosen for it."""
        if self.against is not None:
            clip_b, mode_b = self.against.source_b(self.clip, self.mode, self.choice_b)
            return file_sources(self.scene, self.clip, self.against.b, clip_b, self.mode, mode_b)
        clips = [self.pane_clip(i) for i in range(len(self.compare_modes))]
        return mode_sources(self.scene, self.clip, self.compare_modes, clips)

    def pane_clip(self, index: int) -> Clip | None:
        """The clip chosen for pane ``index`` (None: it shows the window's clip, or in B its match)."""
        if self.against is not None:
            return chosen_clip(self.against.b, self.choice_b.clip) if index == 1 else None
        chosen = self.compare_clips[index] if 0 < index < len(self.compare_clips) else None
        return chosen_clip(self.scene, chosen)

    def set_pane_clip(self, index: int, clip: int | None) -> bool:
        """Show clip ``clip`` of the pane's file in pane ``index`` (None: follow the window's clip). The first
        pane is the window's: its clip is the one playing (``select_clip``). False when there is no such pane
        or clip."""
        scene = self.against.b if self.against is not None and index == 1 else self.scene
        panes = 2 if self.against is not None else len(self.compare_modes)
        if not 0 <= index < panes or (clip is not None and chosen_clip(scene, clip) is None):
            return False
        if index == 0:
            return clip is not None and self.select_clip(clip)
        if self.against is not None:
            self.choice_b = PaneChoice(clip, self.choice_b.mode)
        else:
            self.compare_clips += [None] * (len(self.compare_modes) - len(self.compare_clips))
            self.compare_clips[index] = clip
        return True

    def divergence(self) -> Divergence | None:
        """The divergence strip's data for what plays now, A against B's source (None: no B, or B has no clip to
        measure)."""
        return self.against.divergence(self.clip, self.mode, self.choice_b) if self.against is not None else None

    def select_node(self, node: int | None) -> None:
        """Select a node by glTF index (None clears); out-of-range indices clear too."""
        self.selected_node = node if node is not None and 0 <= node < len(self.scene.nodes) else None

    def add_pane(self) -> bool:
        """Add a pane with the first mode not yet shown; False when there are already ``MAX_PANES``."""
        free = [m for m in MODES if m not in self.compare_modes]
        if len(self.compare_modes) >= MAX_PANES or not free:
            return False
        self.compare_modes.append(free[0])
        self.compare_clips = self.compare_clips[: len(self.compare_modes) - 1]
        self.compare_clips += [None] * (len(self.compare_modes) - len(self.compare_clips))
        return True

    def remove_pane(self, index: int) -> bool:
        """Remove pane ``index``; False when only ``MIN_PANES`` are left (or no such pane)."""
        if len(self.compare_modes) <= MIN_PANES or not 0 <= index < len(self.compare_modes):
            return False
        del self.compare_modes[index]
        if index < len(self.compare_clips):
            del self.compare_clips[index]
        self.compare_clips[:1] = [None]  # the first pane plays the window's clip
        return True

    def set_pane(self, index: int, mode: str | None) -> bool:
        """Show ``mode`` in pane ``index``; a pane already showing it swaps to this pane's old mode. Against
        another file, pane 0 is the window's (its mode changes) and pane 1 is B's (None: A's mode; an engine's
        name: B as that engine plays it)."""
        if self.against is not None:
            if index == 1 and (mode is None or mode in ITEMS):
                self.choice_b = PaneChoice(self.choice_b.clip, mode)
                return True
            if index == 0 and mode in MODES:
                self.mode = mode
                return True
            return False
        if mode not in ITEMS or not 0 <= index < len(self.compare_modes):  # a mode, or an engine's playback
            return False
        if mode in self.compare_modes:
            other = self.compare_modes.index(mode)
            self.compare_modes[other] = self.compare_modes[index]
        self.compare_modes[index] = mode
        return True

    def cameras(self) -> list[int]:
        """Indices of the file's cameras that a node carries (the ones the view can look through)."""
        return [i for i in range(len(self.scene.cameras)) if (self.scene.nodes.camera == i).any()]

    def clip_label(self, index: int) -> str:
        """``"2. Walk (0.71 s)"``: number key, name, duration."""
        clip = self.scene.clips[index]
        return f"{index + 1}. {clip.name} ({clip.duration:.2f} s)"

    def channel_label(self, channel: int) -> str:
        """``"LeftArm · rotation"``: the target node's name and the animated path."""
        return channel_label(self.scene.nodes.names, self.clip, channel)

    def seams(self) -> Seams:
        """The loop seam of every channel of what plays, in the current mode (computed once per clip and mode)."""
        key = (id(self.clip), self.mode)
        if key not in self._seams:
            self._seams[key] = loop_seams(self.clip, self.mode)
        return self._seams[key]

    def dope_rows(self) -> list[Row]:
        """The dope sheet's rows now: per clip when several play, after the name and selection filters
        (kept while none of those change: the bar asks twice a frame)."""
        key = (id(self.clip), self.channel_filter, self.selected_only, self.selected_node)
        if getattr(self, "_rows_key", None) != key:
            self._rows_key, self._rows = (
                key,
                dope_rows(
                    self.clip, self.scene.nodes.names, self.channel_filter, self.selected_only, self.selected_node
                ),
            )
        return self._rows

    def title(self) -> str:
        """Window title: the file and the clip (or how many play together)."""
        clip = self.clip
        if len(self.active) > 1:
            what = f"{len(self.active)} of {len(self.scene.clips)} clips together"
        else:
            what = f"{clip.name} ({self.clip_index + 1}/{len(self.scene.clips)})" if clip else "no animation"
        versus = f" against {self.against.b.path.name}" if self.against is not None else ""
        return f"animview — {self.scene.path.name}{versus} — {what}"
