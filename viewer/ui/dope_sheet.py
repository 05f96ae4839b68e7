"""The timeline bar: transport controls, the ruler (scrub by dragging), the divergence strip (against another
file), key ticks and the per-channel dope sheet.

The ruler shows a view of the clip: the wheel over it (or Ctrl+wheel over the rows) zooms around the
pointer, from the whole clip — an hour of capture — down to ``timeline.MIN_VIEW_FRAMES`` frames, a middle-button
drag anywhere on the time axis pans, F with the pointer on the bar fits the whole clip (``timeline.zoom`` / ``pan``
are the arithmetic, ``ruler_ticks`` the steps and labels: a clock's minutes over an hour, frame numbers at
frames). A loop range shows as green brackets with the times outside it shaded; the ruler's right-click menu
and the I / O keys set it.

Draws with imgui at the positions ``timeline.layout`` gives, so the pure geometry there is what a click
hits. It only changes ``ViewerState`` (the clock, the clip, the mode, the selection, the display toggles).

Scrubbing: pressing anywhere on the ruler starts ``clock.begin_scrub()`` (which pauses), every frame the
button is held moves the playhead under the pointer, and releasing ends the scrub (which resumes playback
if it was playing). The release frame also seeks to the release point: with imgui's trickled input
queue a fast drag's last move arrives together with the release.
"""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui

from viewer import fast
from viewer.playback.rules import LOOP_MODES
from viewer.ui import channel_rows, divergence_strip
from viewer.ui import ruler_ticks as rt
from viewer.ui import timeline as tl
from viewer.ui.bar_style import DIM, KEY_COLOR, LABEL, MINOR_TICK, PLAYHEAD, ROW_BG, RULER_BG, TICK, col
from viewer.ui.panels import FloatRect
from viewer.ui.state import ViewerState

ZOOM_PER_NOTCH = 1.25  # one wheel notch zooms the ruler by this factor
GRAB_PX = channel_rows.GRAB_PX
LOOP_LABELS = {"loop": "loop", "once": "once", "pingpong": "ping-pong"}

BAR_FLAGS = (
    imgui.WindowFlags_.no_decoration
    | imgui.WindowFlags_.no_move
    | imgui.WindowFlags_.no_saved_settings
    | imgui.WindowFlags_.no_scroll_with_mouse
    | imgui.WindowFlags_.no_bring_to_front_on_focus
    | imgui.WindowFlags_.no_focus_on_appearing
)


def draw_bar(state: ViewerState, lay: tl.Layout) -> dict[str, FloatRect]:
    """Draw the whole bar for this frame and apply what the user did.

    Returns:
        window rectangles (x, y, w, h): "bar" (all of it) and "time_field" (the typed-time input; tests
        click it to check that typing there does not fire shortcuts).
    """
    imgui.set_next_window_pos(imgui.ImVec2(0, lay.top))
    imgui.set_next_window_size(imgui.ImVec2(lay.width, lay.height - lay.top))
    imgui.begin("##timeline", None, BAR_FLAGS)
    time_field = _controls(state, lay)
    _ruler(state, lay)
    divergence_strip.draw(state, lay)
    _summary_row(state, lay)
    if state.display.channels and state.clip is not None:
        rows = state.dope_rows()
        channel_rows.tools_row(state, lay, sum(r.channel is not None for r in rows))
        channel_rows.channel_rows(state, lay, rows)
    channel_rows.shade_range(state, lay, lay.ruler_y, lay.tools_y)  # ruler and summary row; the rows shade their own
    _playhead(state, lay)
    _zoom_and_pan(state, lay)
    imgui.end()
    return {"bar": (0.0, lay.top, float(lay.width), lay.height - lay.top), "time_field": time_field}


def _controls(state: ViewerState, lay: tl.Layout) -> FloatRect:
    """The transport row; returns the time field's rectangle."""
    clock = state.clock
    imgui.set_cursor_screen_pos(imgui.ImVec2(2 * tl.PAD, lay.controls_y + 3))
    if imgui.button("Pause" if clock.playing else "Play", imgui.ImVec2(52, 0)):
        clock.toggle()
    for label, action in (("|<", clock.home), ("<Key", clock.prev_key), ("Key>", clock.next_key), (">|", clock.end)):
        imgui.same_line()
        if imgui.button(label):
            action()
    imgui.same_line()
    imgui.set_next_item_width(96)
    loop_index = LOOP_MODES.index(clock.loop_mode)
    changed, loop_index = imgui.combo("##loop", loop_index, [LOOP_LABELS[m] for m in LOOP_MODES])
    if changed:
        clock.loop_mode = LOOP_MODES[loop_index]
    imgui.same_line()
    if imgui.button("-"):
        clock.slower()
    imgui.same_line()
    imgui.text(f"{clock.speed:+.2f}x")
    imgui.same_line()
    if imgui.button("+"):
        clock.faster()
    imgui.same_line()
    if imgui.button("Rev"):
        clock.reverse()
    imgui.same_line()
    _, clock.pause_at_keys = imgui.checkbox("pause at keys", clock.pause_at_keys)
    imgui.same_line()
    _clip_combo(state)
    imgui.same_line()
    imgui.set_next_item_width(70)
    typed, t = imgui.input_float("s##time", clock.t, 0.0, 0.0, "%.3f")
    if typed:  # imgui applies the text as it is typed: the playhead follows
        clock.seek(t)
    lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
    field = (lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)
    if state.frame_seconds > 0.0:
        imgui.same_line()
        imgui.text_disabled(f"{1.0 / state.frame_seconds:4.0f} fps")
    if state.pose_seconds > 0.0:
        imgui.same_line()
        imgui.text_disabled(f"  pose {1e6 * state.pose_seconds:.0f} us ({fast.label()})")
        if imgui.is_item_hovered():
            imgui.set_tooltip(
                f"sample + pose + joint matrices of this frame, moving average;\nframe kernel: {fast.state()}"
            )
    message = state.message
    if message:
        imgui.same_line()
        imgui.text_colored(imgui.ImVec4(0.95, 0.75, 0.45, 1.0), message)
    return field


def _clip_combo(state: ViewerState) -> None:
    """The clip list: a click plays that clip alone (keys 1–9), a tick adds it to the clips playing together."""
    clips = state.scene.clips
    imgui.set_next_item_width(230)
    if len(state.active) > 1:
        preview = f"{len(state.active)} of {len(clips)} clips together"
    else:
        preview = state.clip_label(state.clip_index) if state.clip else "no animation"
    if imgui.begin_combo("##clip", preview, imgui.ComboFlags_.height_large):
        if len(clips) > 1 and imgui.button("all together (A)" if len(state.active) < len(clips) else "only one (A)"):
            state.toggle_all()
        for i in range(len(clips)):
            ticked, _ = imgui.checkbox(f"##together{i}", i in state.active)
            if imgui.is_item_hovered():
                imgui.set_tooltip("play together with the other ticked clips")
            if ticked:
                state.toggle_active(i)
            imgui.same_line()
            chosen, _ = imgui.selectable(state.clip_label(i), state.active == (i,))
            if chosen:
                state.select_clip(i)
        imgui.end_combo()


def _ruler(state: ViewerState, lay: tl.Layout) -> None:
    r, y, dl, clock = lay.ruler, lay.ruler_y, imgui.get_window_draw_list(), state.clock
    dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(lay.width, y + tl.RULER_H), col(RULER_BG))
    dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 3), col(LABEL), tl.format_time(clock.t, state.fps, clock.duration))
    dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 16), col(DIM), _extent(r, state.fps))
    bottom = y + tl.RULER_H
    sc, label_end = rt.scale(r, state.fps), -1e9
    for tick in rt.ticks(r, state.fps, sc):
        x = r.x_of(tick.t)
        if tick.major:
            dl.add_line(imgui.ImVec2(x, bottom - 10), imgui.ImVec2(x, bottom), col(TICK))
            bright, dim = sc.labels(tick)
            width = max(imgui.calc_text_size(bright).x, imgui.calc_text_size(dim).x)
            tx = x + 2 if x + 2 + width <= lay.width else x - 2 - width  # the last label stays on screen
            if tx < label_end + tl.PAD:  # turned back, it would run into the one before: the tick alone
                continue
            dl.add_text(imgui.ImVec2(tx, y + 1), col(LABEL), bright)
            dl.add_text(imgui.ImVec2(tx, y + 13), col(DIM), dim)
            label_end = tx + width
        else:
            dl.add_line(imgui.ImVec2(x, bottom - 4), imgui.ImVec2(x, bottom), col(MINOR_TICK))
    imgui.set_cursor_screen_pos(imgui.ImVec2(r.x0 - GRAB_PX, y))
    imgui.invisible_button("##ruler", imgui.ImVec2(r.x1 - r.x0 + 2 * GRAB_PX, tl.RULER_H))
    mouse_x = imgui.get_io().mouse_pos.x
    if imgui.is_item_activated():
        clock.begin_scrub()
    if imgui.is_item_active() or imgui.is_item_deactivated():
        clock.scrub_to(r.t_of(mouse_x))
    if imgui.is_item_deactivated():
        clock.end_scrub()
    still = imgui.HoveredFlags_.delay_normal | imgui.HoveredFlags_.stationary  # not over the labels while zooming
    if imgui.is_item_hovered(still) and not imgui.is_item_active():
        imgui.set_tooltip(
            f"view {_clock(r.start, r)} - {_clock(r.view_end, r)}\n"
            "drag: scrub   wheel: zoom   middle drag: pan   F: fit   right click: loop range"
        )
    _ruler_menu(state, r)


def _clock(t: float, r: tl.Ruler) -> str:
    return tl.clock_text(t, 3, r.duration >= 60.0, r.duration >= 3600.0)


def _extent(r: tl.Ruler, fps: float) -> str:
    """Under the readout: the clip's length and frame rate, and when zoomed how much of it the ruler shows
    (the longest of these that fits the label column; the tooltip has the view's ends)."""
    length = tl.clock_text(r.duration, 3, r.duration >= 60.0, r.duration >= 3600.0).removesuffix("s")
    length = length.removesuffix(".000") + ("s" if r.duration < 60.0 else "")  # "1:00:00", "2s", "3.708s"
    if r.end is None:
        texts = [f"of {length} {fps:g} fps", f"of {length}"]
    else:
        frames = r.span * fps
        shown = f"{frames:.0f} f" if frames < 100 else tl.clock_text(r.span, 2 if r.span < 60 else 0, r.span >= 60.0)
        texts = [f"of {length}, {shown} shown", f"{shown} shown"]
    room = tl.LABEL_W - 3 * tl.PAD
    return next((text for text in texts if imgui.calc_text_size(text).x <= room), texts[-1])


def _ruler_menu(state: ViewerState, r: tl.Ruler) -> None:
    """Right click on the ruler: put the loop range's in / out point at the clicked time, clear it, fit."""
    clock = state.clock
    if imgui.begin_popup_context_item("##ruler_menu"):
        if imgui.is_window_appearing():
            state.menu_time = r.t_of(imgui.get_mouse_pos_on_opening_current_popup().x)
        t = state.menu_time
        imgui.text_disabled(f"at {_clock(t, r)}  f {tl.frame_of(t, state.fps)}")
        if imgui.menu_item("loop from here (in)", "I", False)[0]:
            clock.set_in(t)
        if imgui.menu_item("loop to here (out)", "O", False)[0]:
            clock.set_out(t)
        if imgui.menu_item("play the whole clip", "Shift+I", False, clock.range is not None)[0]:
            clock.clear_range()
        if imgui.menu_item("fit the clip in the ruler", "F", False, state.view_range is not None)[0]:
            state.view_range = None
        what = "the loop range" if clock.range is not None else "the whole clip"
        if imgui.menu_item(f"export {what} as GIF", "E", False)[0]:
            state.requested = "export"
        imgui.end_popup()


def _zoom_and_pan(state: ViewerState, lay: tl.Layout) -> None:
    """Wheel over the ruler or the summary row (or Ctrl+wheel over the rows) zooms the ruler around the
    pointer; a middle-button drag that started on the time axis pans it."""
    io, r = imgui.get_io(), lay.ruler
    x, y = io.mouse_pos.x, io.mouse_pos.y
    on_axis = r.x0 - GRAB_PX <= x <= r.x1 + GRAB_PX and lay.ruler_y <= y < lay.height
    on_rows = y >= lay.tools_y
    if (
        io.mouse_wheel
        and on_axis
        and (io.key_ctrl or not on_rows)
        and imgui.is_window_hovered(imgui.HoveredFlags_.child_windows)
    ):
        state.view_range = tl.zoom(r, ZOOM_PER_NOTCH**io.mouse_wheel, x, tl.shortest_view(state.fps))
    if not (imgui.is_mouse_down(2) and io.mouse_delta.x):
        return
    moved = imgui.get_mouse_drag_delta(2, 0.0)  # since the press: where the drag started
    px, py = x - moved.x, y - moved.y
    if r.x0 - GRAB_PX <= px <= r.x1 + GRAB_PX and lay.ruler_y <= py < lay.height:
        state.view_range = tl.pan(r, io.mouse_delta.x)


def _summary_row(state: ViewerState, lay: tl.Layout) -> None:
    dl, y = imgui.get_window_draw_list(), lay.summary_y
    dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(lay.width, y + tl.ROW_H), col(ROW_BG))
    clip = state.clip
    channels = len(clip.channels) if clip else 0
    imgui.set_cursor_screen_pos(imgui.ImVec2(2 * tl.PAD, y))
    arrow = "[-]" if state.display.channels else "[+]"
    if imgui.invisible_button("##expand", imgui.ImVec2(tl.LABEL_W - 3 * tl.PAD, tl.ROW_H)) and channels:
        state.display.channels = not state.display.channels
    if imgui.is_item_hovered() and channels:
        imgui.set_tooltip("hide the channel rows" if state.display.channels else "one row per channel")
    keys = clip.key_times if clip else ()
    dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 2), col(LABEL), f"{arrow} {len(keys)} keys, {channels} ch")
    channel_rows.key_ticks(state, lay, keys, y, KEY_COLOR, "##summary", lambda k: _keying(clip, keys[k]))


def _keying(clip, t: float) -> str:
    """How many channels have a key at time ``t`` (the summary row merges them): a binary search per channel,
    as a long take's channels hold hundreds of thousands of keys each."""
    n = 0
    for ch in clip.channels:
        times = np.asarray(ch.curve.times, dtype=np.float64)
        i = int(np.searchsorted(times, t))
        near = times[max(i - 1, 0) : i + 1]
        n += bool(near.size and np.abs(near - t).min() <= 1e-9)
    return f"{n} of {len(clip.channels)} channels key here"


def _playhead(state: ViewerState, lay: tl.Layout) -> None:
    """The orange line at the current time, over the ruler and every row (when the time is in view)."""
    if not lay.ruler.visible(state.clock.t):
        return
    dl = imgui.get_window_draw_list()
    x = lay.ruler.x_of(state.clock.t)
    dl.add_line(imgui.ImVec2(x, lay.ruler_y), imgui.ImVec2(x, lay.height), col(PLAYHEAD), 2.0)
    dl.add_triangle_filled(
        imgui.ImVec2(x - 6, lay.ruler_y),
        imgui.ImVec2(x + 6, lay.ruler_y),
        imgui.ImVec2(x, lay.ruler_y + 8),
        col(PLAYHEAD),
    )
