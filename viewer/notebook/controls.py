"""The player's ipywidgets: play, the time slider, speed, loop mode, clip, interpolation mode, compare panes, and
the readout and status lines — each linked to one of the player's traits, so a control and a cell setting
``player.mode = "step"`` are the same change, and the control follows a change made from Python.

Kept apart from the player because it is only layout and links: what a change does lives in the player's
observers. The slider sends every value while dragged (``continuous_update``); the player draws once per
burst (``canvas``).
"""

from __future__ import annotations

import ipywidgets as w
from traitlets import TraitError

from viewer.animation.modes import MODES
from viewer.playback.clock import LOOP_MODES, SPEED_LADDER

SMALL = w.Layout(width="auto")


def _speed_label(speed: float) -> str:
    return f"{speed:g}×"


class Controls:
    """The widgets of one player (``player``: its traits are what they change)."""

    def __init__(self, player, clip_labels: list[str], against_name: str | None) -> None:
        self.play = w.ToggleButton(
            value=False, icon="play", tooltip="play / pause (space)", layout=w.Layout(width="44px")
        )
        self.slider = w.FloatSlider(
            value=0.0,
            min=0.0,
            max=max(player.duration, 0.0),
            step=0.001,
            readout=True,
            readout_format=".3f",
            continuous_update=True,
            description="t (s)",
            layout=w.Layout(flex="1 1 auto", width="auto"),
        )
        self.status = w.HTML(layout=w.Layout(min_width="160px"))
        self.clip = w.Dropdown(options=[(label, i) for i, label in enumerate(clip_labels)], description="clip")
        self.clip.disabled = len(clip_labels) < 2
        self.speed = w.Dropdown(options=[(_speed_label(s), s) for s in SPEED_LADDER], description="speed", layout=SMALL)
        self.loop = w.Dropdown(options=list(LOOP_MODES), description="loop", layout=SMALL)
        self.mode = w.ToggleButtons(options=list(MODES), description="mode", style={"button_width": "auto"})
        self.compare = [w.ToggleButton(value=False, description=m, layout=SMALL) for m in MODES]
        self.against = w.ToggleButton(value=False, description=f"A | {against_name}", layout=SMALL)
        self.readout = w.HTML()
        links = dict(playing=self.play, time=self.slider, loop=self.loop, mode=self.mode, animation=self.clip)
        for name, control in {**links, "against_shown": self.against}.items():
            w.link((player, name), (control, "value"))  # the player's value first: it is the truth
        self.play.observe(lambda c: setattr(self.play, "icon", "pause" if c["new"] else "play"), names="value")
        self._speed_from(player.speed)
        self.speed.observe(lambda c: setattr(player, "speed", c["new"]), names="value")
        player.observe(lambda c: self._speed_from(c["new"]), names="speed")
        for button in self.compare:
            button.observe(lambda _: self._compare_to(player), names="value")
        player.observe(lambda c: self._compare_from(c["new"]), names="compare")
        self._compare_from(player.compare)
        self._against_name = against_name

    def _speed_from(self, speed: float) -> None:
        """A speed set from Python that is not on the ladder (1.3×, or reversed) joins the list rather than fail."""
        if speed not in [v for _, v in self.speed.options]:
            values = sorted({*SPEED_LADDER, speed})
            self.speed.options = [(_speed_label(v), v) for v in values]
        self.speed.value = speed

    def _compare_to(self, player) -> None:
        """The compare buttons pressed → ``player.compare`` (in the modes' order)."""
        if getattr(self, "_syncing", False):
            return
        try:
            player.compare = tuple(b.description for b in self.compare if b.value)
        except TraitError:  # a fifth pane: the button springs back
            self._compare_from(player.compare)

    def _compare_from(self, items) -> None:
        self._syncing = True
        try:
            for b in self.compare:
                b.value = b.description in items
        finally:
            self._syncing = False

    def set_duration(self, duration: float) -> None:
        """Another clip: the slider spans it."""
        self.slider.max = max(float(duration), 0.0)

    def rows(self, canvas, errors) -> list:
        """The player's layout, top to bottom."""
        compare = [w.Label("compare")] + self.compare + ([self.against] if self._against_name else [])
        return [
            w.HBox([self.play, self.slider, self.status], layout=w.Layout(align_items="center")),
            canvas,
            w.HBox([self.clip, self.speed, self.loop]),
            self.mode,
            w.HBox(compare, layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.readout,
            errors,
        ]
