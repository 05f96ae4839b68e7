"""Which rows the dope sheet shows, as plain data: clip headers and channel rows after the filters.

Kept apart from the drawing (``dope_sheet.py``) so the rules — group rows per clip when several clips
play, a name filter, "selected node only" — are tested without imgui, and the overlay asks for a row
count before it sizes the bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from viewer.animation.clip import Clip


@dataclass(frozen=True)
class Row:
    """One dope-sheet row.

    Attributes:
        channel: the clip's channel index, or None for a clip header.
        label: what the row's label column says (a header: the clip's name and channel count).
        part: index into ``clip.parts`` the row belongs to.
    """

    channel: int | None
    label: str
    part: int


def channel_label(names: Sequence[str], clip: Clip, channel: int) -> str:
    """``"LeftArm · rotation"``: the target node's name and the animated path (``Channel.label``)."""
    return clip.channels[channel].label(names)


def dope_rows(
    clip: Clip | None, names: Sequence[str], text: str = "", selected_only: bool = False, selected: int | None = None
) -> list[Row]:
    """The rows to show for ``clip``.

    Args:
        names: node names (the scene's), for labels and the filter.
        text: keep channels whose label contains it (case-insensitive); blank keeps all.
        selected_only: keep only the channels of node ``selected`` (none when nothing is selected).

    A clip header comes before each part's rows when the clip combines several (``animation.clip.combine``);
    a part whose channels are all filtered out gets no header (one whose channels later clips override
    keeps it while no filter is on, so the user sees why its rows are missing).
    """
    if clip is None:
        return []
    needle = text.strip().lower()
    grouped = len(clip.parts) > 1
    rows: list[Row] = []
    for p, part in enumerate(clip.parts):
        kept = [
            c
            for c in range(part.start, part.stop)
            if (not selected_only or clip.channels[c].node == selected)
            and needle in channel_label(names, clip, c).lower()
        ]
        if grouped and (kept or (not needle and not selected_only and part.overridden)):
            rows.append(Row(None, _header(part), p))
        rows += [Row(c, channel_label(names, clip, c), p) for c in kept]
    return rows


def _header(part) -> str:
    """``"Walk (21 ch)"``, or ``"Survey (0 of 21 ch: later clips drive the rest)"``."""
    kept = part.stop - part.start
    if part.overridden:
        return f"{part.name} ({kept} of {part.total} ch: later clips drive the rest)"
    return f"{part.name} ({kept} ch)"
