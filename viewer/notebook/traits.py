"""What a player's Python API accepts: its traits and the rules a value must meet, apart from what a change does.

``Player`` (``player.py``) observes these traits and acts — seeks the clock, re-aims the view, draws —; here is
only the contract a cell and the controls write to: each trait with its help text, and each validator that clamps
a value into range (a time past the clip's end is its end, a speed is clamped as the clock clamps it) or refuses it
in one line (``TraitError``: an unknown mode or engine, a clip or node the file does not have). The validators
read the player's ``scene`` and ``state.clock``, set before any trait is.
"""

from __future__ import annotations

import math

import ipywidgets as widgets
from traitlets import Bool, Enum, Float, Int, TraitError, Tuple, validate

from viewer.animation.modes import MODES
from viewer.compare.players import ITEMS
from viewer.compare.views import MAX_PANES
from viewer.notebook import fallback
from viewer.playback.clock import LOOP_MODES
from viewer.playback.rules import clamp_speed


class PlayerTraits(widgets.VBox):
    """The player's traits and their validation (the box its widgets are laid out in)."""

    time = Float(0.0, help="clip time shown, seconds (set it to seek)")
    playing = Bool(False, help="whether time advances")
    speed = Float(1.0, help="× real time, signed (reverse plays backwards); magnitude 0.1 to 8")
    loop = Enum(LOOP_MODES, default_value="loop", help="what happens at the ends of the clip")
    mode = Enum(MODES, default_value="authored", help="interpolation mode of the plain view and of pane A")
    animation = Int(0, help="index of the clip shown")
    compare = Tuple(help="2-4 modes or engines shown side by side; fewer: the plain view")
    against_shown = Bool(False, help="show panes A | B against the other file (when one was given)")
    selected = Int(None, allow_none=True, help="the node picked (its readout shows under the view)")
    fallback_modes = Tuple(("step", "linear"), help="modes the static copy holds besides the current one")
    fallback_frames = Int(fallback.FRAMES, help="frames per mode in the static copy")

    @validate("time")
    def _valid_time(self, proposal) -> float:
        t = float(proposal["value"])
        if not math.isfinite(t):
            raise TraitError(f"time must be a finite number of seconds, got {t}")
        return min(max(t, 0.0), self.state.clock.duration)

    @validate("speed")
    def _valid_speed(self, proposal) -> float:
        try:
            return clamp_speed(proposal["value"])
        except ValueError as exc:
            raise TraitError(str(exc)) from None

    @validate("animation")
    def _valid_animation(self, proposal) -> int:
        index, count = int(proposal["value"]), len(self.scene.clips)
        if count and not 0 <= index < count or not count and index != 0:
            raise TraitError(f"animation must be 0 to {max(count - 1, 0)} for {self.scene.path.name}, got {index}")
        return index

    @validate("compare")
    def _valid_compare(self, proposal) -> tuple[str, ...]:
        items = tuple(proposal["value"])
        unknown = [m for m in items if m not in ITEMS]
        if unknown or len(set(items)) != len(items) or len(items) > MAX_PANES:
            raise TraitError(f"compare takes up to {MAX_PANES} different names of {', '.join(ITEMS)}; got {items}")
        return items

    @validate("selected")
    def _valid_selected(self, proposal):
        node = proposal["value"]
        if node is not None and not 0 <= node < len(self.scene.nodes):
            raise TraitError(f"selected must be a node index below {len(self.scene.nodes)}, got {node}")
        return node
