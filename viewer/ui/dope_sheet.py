"""The timeline bar: transport controls, the ruler (scrub by dragging), key ticks and the per-channel dope sheet.

Draws with imgui at the positions ``timeline.layout`` gives, so the pure geometry there is what a click
hits. It only changes ``ViewerState`` (the clock, the clip, the mode, the selection, the display toggles).

Scrubbing: pressing anywhere on the ruler starts ``clock.begin_scrub()`` (which pauses), every frame the
button is held moves the playhead under the pointer, and releasing ends the scrub (which resumes playback
if it was playing). The release frame also seeks to the release point: with imgui's trickled input
queue a fast drag's last move arrives together with the release.
"""
from __future__ import annotations

from imgui_bundle import imgui

from viewer.animation.modes import AUTHORED_TO_MODE
from viewer.compare import mode_rgb255
from viewer.playback.rules import LOOP_MODES
from viewer.ui import timeline as tl
from viewer.ui.panels import FloatRect
from viewer.ui.state import ViewerState

GRAB_PX = 6  # the scrub area reaches this far past both ends of the ruler

# sRGB colours (r, g, b, a) in 0..255; a channel row takes its authored interpolation's mode colour
# (``compare.MODE_COLORS``), so the dope sheet and the compare view agree.
KEY_COLOR = (235, 225, 180, 255)
PLAYHEAD = (255, 160, 40, 255)
RULER_BG = (38, 40, 46, 255)
ROW_BG = (30, 32, 37, 255)
ROW_ALT_BG = (34, 36, 41, 255)
TICK = (150, 154, 165, 255)
MINOR_TICK = (90, 93, 102, 255)
LABEL = (205, 208, 215, 255)
DIM = (130, 134, 145, 255)
LOOP_LABELS = {"loop": "loop", "once": "once", "pingpong": "ping-pong"}

BAR_FLAGS = (imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.no_move | imgui.WindowFlags_.no_saved_settings
             | imgui.WindowFlags_.no_scroll_with_mouse | imgui.WindowFlags_.no_bring_to_front_on_focus
             | imgui.WindowFlags_.no_focus_on_appearing)


def col(rgba: tuple[int, int, int, int]) -> int:
    return imgui.IM_COL32(*rgba)


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
    _summary_row(state, lay)
    if state.display.channels and state.clip is not None:
        _channel_rows(state, lay)
    _playhead(state, lay)
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
    message = state.message
    if message:
        imgui.same_line()
        imgui.text_colored(imgui.ImVec4(0.95, 0.75, 0.45, 1.0), message)
    return field


def _clip_combo(state: ViewerState) -> None:
    clips = state.scene.clips
    imgui.set_next_item_width(230)
    preview = state.clip_label(state.clip_index) if state.clip else "no animation"
    if imgui.begin_combo("##clip", preview):
        for i in range(len(clips)):
            chosen, _ = imgui.selectable(state.clip_label(i), i == state.clip_index)
            if chosen:
                state.select_clip(i)
        imgui.end_combo()


def _ruler(state: ViewerState, lay: tl.Layout) -> None:
    r, y, dl, clock = lay.ruler, lay.ruler_y, imgui.get_window_draw_list(), state.clock
    dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(lay.width, y + tl.RULER_H), col(RULER_BG))
    dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 3), col(LABEL), tl.format_time(clock.t, state.fps))
    dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 16), col(DIM), f"of {clock.duration:.3f} s  {state.fps:g} fps")
    bottom = y + tl.RULER_H
    for tick in tl.ticks(r, state.fps):
        x = r.x_of(tick.t)
        if tick.major:
            dl.add_line(imgui.ImVec2(x, bottom - 10), imgui.ImVec2(x, bottom), col(TICK))
            seconds, frame = f"{tick.t:g}s", str(tick.frame)
            width = max(imgui.calc_text_size(seconds).x, imgui.calc_text_size(frame).x)
            tx = x + 2 if x + 2 + width <= lay.width else x - 2 - width  # the last label stays on screen
            dl.add_text(imgui.ImVec2(tx, y + 1), col(LABEL), seconds)
            dl.add_text(imgui.ImVec2(tx, y + 13), col(DIM), frame)
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


def _summary_row(state: ViewerState, lay: tl.Layout) -> None:
    dl, y = imgui.get_window_draw_list(), lay.summary_y
    dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(lay.width, y + tl.ROW_H), col(ROW_BG))
    clip = state.clip
    channels = len(clip.channels) if clip else 0
    imgui.set_cursor_screen_pos(imgui.ImVec2(2 * tl.PAD, y))
    arrow = "[-]" if state.display.channels else "[+]"
    if imgui.invisible_button("##expand", imgui.ImVec2(tl.LABEL_W - 3 * tl.PAD, tl.ROW_H)) and channels:
        state.display.channels = not state.display.channels
    keys = clip.key_times if clip else ()
    dl.add_text(imgui.ImVec2(2 * tl.PAD, y + 2), col(LABEL), f"{arrow} {len(keys)} keys, {channels} ch")
    _key_ticks(state, lay, keys, y, KEY_COLOR, "##summary")


def _key_ticks(state: ViewerState, lay: tl.Layout, keys, y: float, color, item_id: str) -> None:
    """Diamonds at the key times on one row; a click near one (``TICK_PICK_PX``) pauses and goes to it."""
    dl, r = imgui.get_window_draw_list(), lay.ruler
    mid = y + tl.ROW_H / 2
    for key in keys:
        x = r.x_of(float(key))
        dl.add_quad_filled(imgui.ImVec2(x, mid - 5), imgui.ImVec2(x + 4, mid), imgui.ImVec2(x, mid + 5),
                           imgui.ImVec2(x - 4, mid), col(color))
    imgui.set_cursor_screen_pos(imgui.ImVec2(r.x0 - GRAB_PX, y))
    if imgui.invisible_button(item_id, imgui.ImVec2(r.x1 - r.x0 + 2 * GRAB_PX, tl.ROW_H)):
        key = tl.nearest_key(keys, r, imgui.get_io().mouse_pos.x)
        if key is not None:
            state.clock.pause()
            state.clock.seek(key)


def _channel_rows(state: ViewerState, lay: tl.Layout) -> None:
    """One row per channel inside a child window that scrolls past ``MAX_ROWS`` rows."""
    clip = state.clip
    imgui.set_cursor_screen_pos(imgui.ImVec2(0, lay.rows_y))
    imgui.push_style_var(imgui.StyleVar_.window_padding, imgui.ImVec2(0, 0))
    imgui.push_style_var(imgui.StyleVar_.item_spacing, imgui.ImVec2(0, 0))
    imgui.begin_child("##channels", imgui.ImVec2(lay.width, lay.rows_h), 0, imgui.WindowFlags_.no_scrollbar)
    top = imgui.get_cursor_screen_pos().y
    dl = imgui.get_window_draw_list()
    for i, ch in enumerate(clip.channels):
        y = top + i * tl.ROW_H
        dl.add_rect_filled(imgui.ImVec2(0, y), imgui.ImVec2(lay.width, y + tl.ROW_H),
                           col(ROW_ALT_BG if i % 2 else ROW_BG))
        color = (*mode_rgb255(AUTHORED_TO_MODE[ch.curve.interpolation]), 255)
        selected = state.selected_node == ch.node
        imgui.set_cursor_screen_pos(imgui.ImVec2(2 * tl.PAD, y))
        if imgui.invisible_button(f"##label{i}", imgui.ImVec2(tl.LABEL_W - 3 * tl.PAD, tl.ROW_H)):
            state.select_node(ch.node)
        label = _fit(state.channel_label(i), tl.LABEL_W - 5 * tl.PAD)
        dl.add_text(imgui.ImVec2(3 * tl.PAD, y + 2), col(PLAYHEAD if selected else color), label)
        _key_ticks(state, lay, ch.curve.times, y, color, f"##keys{i}")
    x = lay.ruler.x_of(state.clock.t)  # the child draws over the bar's own playhead line: draw it again
    dl.add_line(imgui.ImVec2(x, lay.rows_y), imgui.ImVec2(x, lay.rows_y + lay.rows_h), col(PLAYHEAD), 2.0)
    imgui.end_child()
    imgui.pop_style_var(2)


def _fit(text: str, width: float) -> str:
    """``text`` cut in the middle ("b_LeftF~ · rotation") until it is at most ``width`` pixels wide."""
    if imgui.calc_text_size(text).x <= width:
        return text
    for keep in range(len(text) - 1, 2, -1):
        head = keep - keep // 2
        short = text[:head] + "~" + text[len(text) - keep // 2:]
        if imgui.calc_text_size(short).x <= width:
            return short
    return text[:3]


def _playhead(state: ViewerState, lay: tl.Layout) -> None:
    """The orange line at the current time, over the ruler and every row."""
    dl = imgui.get_window_draw_list()
    x = lay.ruler.x_of(state.clock.t)
    dl.add_line(imgui.ImVec2(x, lay.ruler_y), imgui.ImVec2(x, lay.height), col(PLAYHEAD), 2.0)
    dl.add_triangle_filled(imgui.ImVec2(x - 6, lay.ruler_y), imgui.ImVec2(x + 6, lay.ruler_y),
                           imgui.ImVec2(x, lay.ruler_y + 8), col(PLAYHEAD))
