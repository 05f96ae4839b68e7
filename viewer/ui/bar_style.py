"""Colours of the timeline bar, shared by its parts (``dope_sheet`` draws the bar, ``channel_rows`` the
per-channel rows). sRGB (r, g, b, a) in 0..255; a channel row takes its authored interpolation's mode colour
(``compare.MODE_COLORS``), so the dope sheet and the compare view agree."""

from __future__ import annotations

from imgui_bundle import imgui

KEY_COLOR = (235, 225, 180, 255)
PLAYHEAD = (255, 160, 40, 255)
RULER_BG = (38, 40, 46, 255)
ROW_BG = (30, 32, 37, 255)
ROW_ALT_BG = (34, 36, 41, 255)
HEADER_BG = (48, 52, 62, 255)
SELECTED_BG = (70, 58, 38, 255)  # the selected node's rows: a warm background, the text keeps its mode colour
TICK = (150, 154, 165, 255)
MINOR_TICK = (90, 93, 102, 255)
LABEL = (205, 208, 215, 255)
DIM = (130, 134, 145, 255)
SEAM = (240, 80, 70, 255)  # a channel that jumps at the loop seam
RANGE = (110, 210, 120, 255)  # loop range brackets
OUTSIDE_RANGE = (0, 0, 0, 140)  # shade over the times the loop range leaves out


def col(rgba: tuple[int, int, int, int]) -> int:
    return imgui.IM_COL32(*rgba)
