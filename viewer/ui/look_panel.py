"""The look controls of the View section: environment light and background, tone mapper, exposure, and
the file's lights against the studio key, anti-aliasing — the same choices ``animview render`` takes as flags.

They only change ``ViewerState.display``'s look fields; ``render.scene_view`` turns them into the
renderer's options each frame, for the window and its exports alike.
"""

from __future__ import annotations

from imgui_bundle import imgui

from viewer.render.antialias import AA_MODES
from viewer.ui.state import ViewerState

TONEMAPS = ("pbr-neutral", "aces", "none")
TONEMAP_LABELS = ["PBR Neutral", "ACES filmic", "none (clamp)"]
AA_LABELS = ["auto", "MSAA 4×", "FXAA", "off"]  # in the order of AA_MODES
WIDTH = 130


def look_controls(state: ViewerState) -> None:
    d = state.display.look
    _, d.environment = imgui.checkbox("environment light", d.environment)
    if imgui.is_item_hovered():
        imgui.set_tooltip("image-based light from the built-in studio (soft boxes in a grey room)")
    imgui.set_next_item_width(WIDTH)
    _, d.env_intensity = imgui.slider_float("intensity", d.env_intensity, 0.0, 4.0, "%.2f")
    _, d.env_background = imgui.checkbox("environment as background", d.env_background)
    imgui.set_next_item_width(WIDTH)
    index = TONEMAPS.index(d.tonemap) if d.tonemap in TONEMAPS else 0
    changed, index = imgui.combo("tone mapping", index, TONEMAP_LABELS)
    if changed:
        d.tonemap = TONEMAPS[index]
    imgui.set_next_item_width(WIDTH)
    _, d.exposure = imgui.slider_float("exposure (EV)", d.exposure, -4.0, 4.0, "%+.1f")
    if imgui.is_item_hovered():
        imgui.set_tooltip("stops: the shaded light is multiplied by 2^EV before tone mapping (double-click to type)")
    lights = len(state.scene.lights)
    if lights:
        file_lights = d.lights == "file" or d.lights == "auto"
        if imgui.radio_button(f"file lights ({lights})", file_lights):
            d.lights = "file"
        imgui.same_line()
        if imgui.radio_button("studio light", not file_lights):
            d.lights = "studio"
        if imgui.is_item_hovered():
            imgui.set_tooltip(
                "the default key light that follows the camera, instead of the file's KHR_lights_punctual lights"
            )
    anti_aliasing(state)


def anti_aliasing(state: ViewerState) -> None:
    """The AA choice; "auto" names what it chose for this scene and view size."""
    d = state.display.look
    index = AA_MODES.index(d.aa) if d.aa in AA_MODES else 0
    labels = list(AA_LABELS)
    if state.aa_label:
        labels[0] = f"auto ({state.aa_label})"
    imgui.set_next_item_width(WIDTH)
    changed, index = imgui.combo("anti-aliasing", index, labels)
    if changed:
        d.aa = AA_MODES[index]
    if imgui.is_item_hovered():
        imgui.set_tooltip(
            "MSAA: exact edges. FXAA: a post pass that smooths edges it finds; much cheaper on\n"
            "dense meshes on a CPU rasterizer. auto: MSAA unless the scene has more triangles\n"
            "than a quarter of the view's pixels"
        )
