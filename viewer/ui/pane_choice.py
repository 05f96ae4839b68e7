"""The Compare panel's source rows: which clip of its file, and which mode, each pane after the first shows.

One source model for every pane (``compare.against.PaneChoice``, held by ``ViewerState``): the first pane is the
window's own clip and mode (the clip list and the View section set them), and a later pane follows it until a
clip or a mode is chosen here. Against another file, B's clip list is B's own and its first entry is the clip
``animview diff`` pairs with A's; in the modes view a pane's mode stays its own (each mode once: the readout
and the curves are per mode). The file of a pane is changed by dropping a file onto it, not here. It only
changes ``ViewerState``: the panes, the divergence strip and the error colours follow from it next frame.
"""

from __future__ import annotations

from imgui_bundle import imgui

from viewer.compare.players import ITEMS, title
from viewer.ui.panels import FloatRect
from viewer.ui.state import ViewerState

RECTS: dict[str, FloatRect] = {}
"""Window rectangles of the combos as last drawn ("clip 1", "mode 1": pane 1 is the second, B) and of the entries
of an open list ("mode 1: step"), for tests and scripted clicks (pixels do not say where a widget is)."""


def remember(name: str) -> None:
    """Keep the last drawn item's rectangle as ``RECTS[name]``."""
    lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
    RECTS[name] = (lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)


def half_width(reserve: float = 0.0) -> float:
    """Pixels for each of two combos side by side on one row, ``reserve`` pixels left for what follows them: a
    source row is one row high, so the panels under it stay where they were."""
    spacing = imgui.get_style().item_spacing.x
    return max((imgui.get_content_region_avail().x - reserve - spacing * (2 if reserve else 1)) / 2, 60.0)


def combo(
    name: str, items: list[str], current: int, width: float, keys: list[str] | None = None, flags: int = 0
) -> int | None:
    """A combo of ``items`` showing ``current``, ``width`` pixels wide, without a label (its first entry says what
    it chooses); returns the entry picked, else None. Its rectangle and those of its open entries go to
    ``RECTS`` (entries by ``keys``, default ``items``). ``flags``: imgui's ``ComboFlags_`` (a list taller than
    eight entries, the modes and engines, opens whole with ``height_large``)."""
    imgui.set_next_item_width(width)
    opened = imgui.begin_combo(f"##{name}", items[current], flags)
    remember(name)
    picked = None
    if opened:
        for k, (item, key) in enumerate(zip(items, keys or items)):
            if imgui.selectable(item, k == current)[0]:
                picked = k
            remember(f"{name}: {key}")
        imgui.end_combo()
    return picked


def clip_items(state: ViewerState, index: int) -> tuple[list[str], int]:
    """Pane ``index``'s clip combo: the entries — first the clip it follows, then every clip of its file — and
    the one shown now."""
    against = state.against
    scene = against.b if against is not None else state.scene
    if against is not None:
        matched = against.clip_b(state.clip)
        first = f"matched: {matched.name}" if matched is not None else "matched: none"
    else:
        first = f"playing: {state.clip.name}" if state.clip is not None else "playing: none"
    chosen = state.pane_clip(index)
    items = [first] + [f"{c.index}: {c.name}" for c in scene.clips]
    return items, 0 if chosen is None else chosen.index + 1


def clip_combo(state: ViewerState, index: int, width: float) -> None:
    """Choose the clip pane ``index`` shows (the first entry: follow the window's clip again). The first pane's
    is the window's clip, shown but not chosen here (the bar's clip list plays another)."""
    items, current = clip_items(state, index)
    imgui.begin_disabled(index == 0)
    picked = combo(f"clip {index}", items, current, width, ["follow"] + items[1:])
    imgui.end_disabled()
    if imgui.is_item_hovered(imgui.HoveredFlags_.allow_when_disabled):
        imgui.set_tooltip("the clip this pane plays" if index else "the window's clip: the bar's clip list sets it")
    if picked is not None:
        state.set_pane_clip(index, None if picked == 0 else picked - 1)


def mode_combo_b(state: ViewerState, width: float) -> None:
    """Choose B's mode against another file (the first entry: A's mode, whichever it is), or the engine whose
    playback of B is held against A (the modes, then the engines, as the compare view's pane combo lists them)."""
    chosen = state.choice_b.mode
    current = 0 if chosen is None else ITEMS.index(chosen) + 1
    items = [f"as A: {state.mode}"] + [title(item) for item in ITEMS]
    picked = combo("mode 1", items, current, width, ["as A"] + list(ITEMS), imgui.ComboFlags_.height_large)
    if imgui.is_item_hovered():
        imgui.set_tooltip("the interpolation mode B plays in, or the engine that plays B")
    if picked is not None:
        state.set_pane(1, None if picked == 0 else ITEMS[picked - 1])


def against_rows(state: ViewerState) -> None:
    """A's source (the window's clip and mode) and B's: its file, then its clip and mode combos on one row."""
    a, b = state.pane_sources()
    imgui.text_colored(imgui.ImVec4(*a.color, 1.0), f"A  {a.label}")
    imgui.text_colored(imgui.ImVec4(*b.color, 1.0), f"B  {b.scene.path.name}")
    if imgui.is_item_hovered():
        imgui.set_tooltip("drop another file on pane B to compare with it")
    width = half_width()
    clip_combo(state, 1, width)
    imgui.same_line()
    mode_combo_b(state, width)
