"""Sections of the docked column (``dock.py`` stacks them): display toggles, node readout and tree; and the
key help window (centre).

The readout shows the selected node's *local* values at the current time as the pose holds them:
translation, rotation as a quaternion [x, y, z, w] and as intrinsic X-Y-Z Euler angles in degrees,
scale, and morph weights; then what the clip animates besides (``property_lines``): its visibility, single
morph weights, and the properties of its material(s), camera and light (KHR_animation_pointer), so picking a
mesh shows its colour changing. Panels only change ``ViewerState`` (selection, display toggles, mode).
"""

from __future__ import annotations

import math

import numpy as np
from imgui_bundle import imgui

from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import MODES
from viewer.base import math3d
from viewer.compare import views as compare
from viewer.gltf.object_model import PROPERTIES
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene
from viewer.ui import look_panel, node_tree
from viewer.ui.keys import HELP
from viewer.ui.state import ViewerState

TREE_ROW_H = node_tree.TREE_ROW_H
WEIGHT_ROW_H = 21  # one morph weight bar
PANEL_FLAGS = imgui.WindowFlags_.no_saved_settings | imgui.WindowFlags_.no_focus_on_appearing
# A window's (x, y, w, h) in pixels as imgui reports it (floats); the one definition for every ui module
# (the core's whole-pixel rectangles are ``compare.PixelRect``).
FloatRect = tuple[float, float, float, float]
BOOL_FIELDS = frozenset(p.field for p in PROPERTIES if p.type == "bool")  # read as true / false
# Radians in the Object Model; degrees beside them, since that is how people think of a field of view.
ANGLE_FIELDS = frozenset(("yfov", "innerConeAngle", "outerConeAngle", "anisotropyRotation"))
SHOWN: list[tuple[str, str]] = []
"""The readout's ``property_lines`` as last drawn, for tests (pixels do not say which numbers were drawn)."""
DEFAULT_VARIANT = "default"  # the file's own materials; fits the combo box unclipped
VARIANT_RECTS: dict = {}
"""The variant chooser's rectangle as last drawn ("combo") and, while it is open, each entry's (by variant, None
the default), for tests to click."""


def window_rect() -> FloatRect:
    """The current window's rectangle, for the overlay's "does the UI take this click" test."""
    pos, size = imgui.get_window_pos(), imgui.get_window_size()
    return pos.x, pos.y, size.x, size.y


def view_section(state: ViewerState) -> None:
    """Checkboxes for skeleton, wireframe, grid, bounds and the interpolation mode every channel is sampled
    with ("authored": each sampler's own)."""
    d = state.display
    _, d.skeleton = imgui.checkbox("skeleton (J)", d.skeleton)
    _, d.wireframe = imgui.checkbox("wireframe (W)", d.wireframe)
    _, d.grid = imgui.checkbox("grid (G)", d.grid)
    _, d.bounds = imgui.checkbox("bounds (B)", d.bounds)
    _, d.compare = imgui.checkbox("compare modes (C)", d.compare)
    _, d.in_place = imgui.checkbox("motion in place (M)", d.in_place)
    if imgui.is_item_hovered():
        imgui.set_tooltip("hold the motion root's travel on the ground, so a walk stays on the spot")
    _, d.follow = imgui.checkbox("camera follows (T)", d.follow)
    if imgui.is_item_hovered():
        imgui.set_tooltip("the camera moves with the selected node, or with the motion root")
    imgui.set_next_item_width(130)
    index = MODES.index(state.mode) if state.mode in MODES else 0
    changed, index = imgui.combo("interpolation", index, list(MODES))
    if changed:
        state.mode = MODES[index]
    cameras = state.cameras()
    if cameras:
        names = ["orbit (mouse)"] + [f"{i}: {state.scene.cameras[i].name}" for i in cameras]
        current = 0 if state.view_camera not in cameras else 1 + cameras.index(state.view_camera)
        imgui.set_next_item_width(130)
        changed, current = imgui.combo("camera", current, names)
        if changed:
            state.view_camera = None if current == 0 else cameras[current - 1]
    variant_choice(state)
    if imgui.tree_node_ex("look", imgui.TreeNodeFlags_.default_open):
        look_panel.look_controls(state)
        imgui.tree_pop()
    if imgui.button("help (?)"):
        d.help = not d.help
    imgui.same_line()
    if imgui.button("export GIF (E)"):
        state.requested = "export"
    if imgui.is_item_hovered():
        imgui.set_tooltip("the loop range (or the whole clip) as a GIF of the 3D view, next to the screenshots")


def variant_choice(state: ViewerState) -> None:
    """The KHR_materials_variants chooser, for a file that has variants only (elsewhere it would offer nothing):
    the file's own materials first, then each variant; the renderer switches at the next frame it draws."""
    VARIANT_RECTS.clear()
    names = state.scene.variants.names
    if not names:
        return
    d = state.display
    labels = [DEFAULT_VARIANT] + [f"{k}: {name}" for k, name in enumerate(names)]
    current = 0 if d.variant is None or d.variant >= len(names) else d.variant + 1
    imgui.set_next_item_width(130)
    pos, height = imgui.get_cursor_screen_pos(), imgui.get_frame_height()
    VARIANT_RECTS["combo"] = (pos.x, pos.y, 130.0, height)
    if not imgui.begin_combo("variant", labels[current]):
        if imgui.is_item_hovered():
            imgui.set_tooltip("KHR_materials_variants: the file's named material sets (--variant NAME|K)")
        return
    for k, label in enumerate(labels):
        if imgui.selectable(label, k == current)[0]:
            d.variant = None if k == 0 else k - 1
        lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        VARIANT_RECTS[None if k == 0 else k - 1] = (lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)
    imgui.end_combo()


def node_section(state: ViewerState, pose: Pose, tree_rows: int) -> None:
    """The selected node's local T / R / S / weights now, and the node tree with its search field
    (``node_tree``: click to select, reveals a node picked in the 3D view), at most ``tree_rows`` rows
    tall (it scrolls)."""
    _readout(state, pose)
    imgui.separator()
    node_tree.draw(state, tree_rows)


def _readout(state: ViewerState, pose: Pose) -> None:
    node = state.selected_node
    if node is None:
        imgui.text_disabled("no node selected: pick one below or in the view")
        return
    names = state.scene.nodes.names
    imgui.text(f"#{node} {names[node]}")
    animated = _animated_paths(state, node)
    imgui.text_disabled("animated: " + (", ".join(animated) if animated else "nothing in this clip"))
    if not pose.drawable[node]:  # the warning went to stderr; say it where the user is looking
        imgui.text_colored(imgui.ImVec4(1.0, 0.55, 0.35, 1.0), "not drawn: world matrix beyond float32")
    imgui.text(f"T  {_vec(pose.translation[node])}")
    imgui.text(f"R  {_vec(pose.rotation[node])}")
    imgui.text(f"   {_vec(math3d.quat_to_euler_degrees(pose.rotation[node]), 2)} deg XYZ")
    imgui.text(f"S  {_vec(pose.scale[node])}")
    SHOWN[:] = property_lines(state.scene, state.clip, pose, node) if state.clip else []
    for label, value in SHOWN:  # one line where it fits, else the value under its label
        if imgui.calc_text_size(f"{label}  {value}").x <= imgui.get_content_region_avail().x:
            imgui.text(f"{label}  {value}")
        else:
            imgui.text_disabled(label)
            imgui.text(f"   {value}")
    weights = pose.weights[node]
    if weights is not None and len(weights):
        _weight_bars(weights, _target_names(state, node))


def _target_names(state: ViewerState, node: int) -> tuple[str, ...]:
    mesh = state.scene.nodes.mesh[node]
    return state.scene.meshes[mesh].target_names if mesh >= 0 else ()


def _weight_bars(weights, names: tuple[str, ...]) -> None:
    """Every morph weight as a labelled bar (0..1 filled; the number shows values outside it too)."""
    for k, w in enumerate(weights):
        label = names[k] if k < len(names) else f"w{k}"
        imgui.text(f"{label[:10]:<10}")
        imgui.same_line()
        fraction = float(np.clip(np.nan_to_num(w), 0.0, 1.0))
        imgui.progress_bar(fraction, imgui.ImVec2(-1.0, WEIGHT_ROW_H - 4), f"{w:.3f}")


def _animated_paths(state: ViewerState, node: int) -> list[str]:
    clip = state.clip
    if clip is None:
        return []
    return [compare.readout_key(clip.channels[c]) for c in compare.related_channels(state.scene, clip, node)]


def property_lines(scene: Scene, clip: Clip, pose: Pose, node: int) -> list[tuple[str, str]]:
    """``("material 0 · baseColorFactor", "1.0000 0.5000 …")``: (label, value) of each animated value of the node
    that the T / R / S lines do not show — its visibility, single morph weights, its material(s), camera and
    light — as ``pose`` holds them now."""
    lines = []
    for c in compare.related_channels(scene, clip, node):
        ch = clip.channels[c]
        if ch.consumer != "node":
            value = pose.properties.get((ch.consumer, ch.index), {}).get(ch.path)
        elif ch.path == "visible":
            value = pose.own_visible[node : node + 1]
        elif ch.path == "weights" and ch.element is not None and pose.weights[node] is not None:
            value = pose.weights[node][ch.element : ch.element + 1]
        else:
            continue  # T / R / S and whole weight arrays have their own lines and bars
        if value is not None:
            lines.append((compare.readout_key(ch), value_text(ch, value)))
    return lines


def value_text(ch: Channel, value, digits: int = 4) -> str:
    """A channel's value for reading: booleans as true / false, vectors as components, angles in radians with
    degrees beside them."""
    v = np.asarray(value, dtype=np.float64).reshape(-1)
    if ch.path in BOOL_FIELDS and len(v) == 1:
        return "true" if v[0] >= 0.5 else "false"
    text = _vec(v, digits)
    if len(v) == 1 and ch.consumer != "node" and (ch.path in ANGLE_FIELDS or ch.path.endswith(".rotation")):
        text += f" ({math.degrees(v[0]):.{max(digits - 2, 1)}f} deg)"
    return text


def _vec(v: np.ndarray, digits: int = 4) -> str:
    """Fixed columns; magnitudes of 10^6 and up (a 1e39 translation has 40 digits) in e-notation."""
    return " ".join(
        f"{x:{digits + 4}.{digits}f}" if abs(x) < 1e6 else f"{x:{digits + 4}.{digits - 1}e}"
        for x in np.asarray(v, dtype=np.float64)
    )


def draw_help(state: ViewerState, width: int, height: int) -> FloatRect | None:
    """The key list, centred; None when hidden."""
    if not state.display.help:
        return None
    imgui.set_next_window_pos(imgui.ImVec2(width / 2, height / 2), imgui.Cond_.appearing, imgui.ImVec2(0.5, 0.5))
    opened, keep = imgui.begin("Keys", True, PANEL_FLAGS | imgui.WindowFlags_.always_auto_resize)
    if opened and imgui.begin_table("##keys", 2):
        for key, what in HELP:
            imgui.table_next_row()
            imgui.table_next_column()
            imgui.text(key)
            imgui.table_next_column()
            imgui.text(what)
        imgui.end_table()
    rect = window_rect()
    imgui.end()
    if not keep:
        state.display.help = False
    return rect
