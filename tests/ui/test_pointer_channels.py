"""Pointer channels in the UI: the readout, the compare readout and the Curves view show a node's own channels
and those of its material, camera and light. Files come from ``test_animation_pointer``'s builder; expected
values are the keys and their linear blends written out here, not what the code under test computes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.animation.test_pointer import BASE, _scene_file, visibility
from tests.app.conftest import Driver
from viewer.compare import views as compare
from viewer.pose.pose import Pose
from viewer.scene.scene import load
from viewer.ui import curve_view, panels

COLOURS = [[1, 0, 0, 1], [0, 0, 1, 1], [0, 1, 0, 1]]
LIGHT = "/extensions/KHR_lights_punctual/lights/0/intensity"
COLOUR = dict(pointer=BASE, times=[0, 1, 2], values=COLOURS)
INTENSITY = dict(pointer=LIGHT, times=[0, 2], values=[5.0, 9.0])
CHANNELS = [  # rows: 0 colour, 1 visibility of node 0, 2 intensity, 3 yfov, 4 node 1's weight 1
    COLOUR,
    visibility([1, 0, 1]),
    INTENSITY,
    dict(pointer="/cameras/0/perspective/yfov", times=[0, 2], values=[0.8, 1.2]),
    dict(pointer="/nodes/1/weights/1", times=[0, 2], values=[0.0, 1.0]),
]
MATERIAL = "material 0 · baseColorFactor"


@pytest.fixture
def path(tmp_path):
    return _scene_file(tmp_path, CHANNELS)


def _pose(scene, t):
    pose = Pose(scene)
    pose.set_time(scene.clips[0], t)
    return pose


def test_related_channels_are_own_then_material_camera_light(path):
    scene = load(path)
    clip = scene.clips[0]
    assert clip.channels[0].label(scene.nodes.names) == MATERIAL
    assert compare.related_channels(scene, clip, 0) == [1, 0, 2]  # visible, material 0, light 0
    assert compare.related_channels(scene, clip, 1) == [4]  # its mesh has no material; its weight
    assert compare.related_channels(scene, clip, 2) == [3]  # camera 0
    assert compare.related_channels(scene, clip, 3) == []  # camera 1 is not animated
    assert compare.related_channels(scene, clip, -1) == [] and compare.related_channels(scene, clip, 9) == []


def test_readout_lines_hold_the_values_now(path):
    scene = load(path)
    clip = scene.clips[0]
    lines = dict(panels.property_lines(scene, clip, _pose(scene, 0.5), 0))
    assert list(lines) == ["visible", MATERIAL, "light 0 · intensity"]
    colour = [float(x) for x in lines[MATERIAL].split()]
    np.testing.assert_allclose(colour, [0.5, 0, 0.5, 1], atol=1e-4)
    assert lines["visible"] == "true" and float(lines["light 0 · intensity"]) == pytest.approx(6.0)
    assert dict(panels.property_lines(scene, clip, _pose(scene, 1.5), 0))["visible"] == "false"
    yfov = dict(panels.property_lines(scene, clip, _pose(scene, 1.0), 2))["camera 0 · yfov"]
    assert yfov.split()[0] == "1.0000" and "(57.30 deg)" in yfov  # radians, degrees beside them
    weight = dict(panels.property_lines(scene, clip, _pose(scene, 1.0), 1))["weights[1]"]
    assert float(weight) == pytest.approx(0.5)


def test_compare_readout_interpolates_pointer_channels_per_mode(path):
    scene = load(path)
    clip = scene.clips[0]
    values = compare.readout(clip, 0, 0.25, ("authored", "step", "linear"), scene)
    np.testing.assert_allclose(values["step"][MATERIAL], COLOURS[0], atol=1e-6)
    np.testing.assert_allclose(values["linear"][MATERIAL], [0.75, 0, 0.25, 1], atol=1e-6)
    np.testing.assert_allclose(values["step"]["Δ " + MATERIAL], [0.25, 0, -0.25, 0], atol=1e-6)
    assert values["step"]["light 0 · intensity"][0] == pytest.approx(5.0)
    assert values["linear"]["light 0 · intensity"][0] == pytest.approx(5.5)
    assert set(compare.readout(clip, 0, 0.25, ("step",))["step"]) == {"visible", "Δ visible"}  # no scene: own
    camera = compare.readout(clip, 2, 1.0, ("step", "linear"), scene)
    assert camera["step"]["camera 0 · yfov"][0] == pytest.approx(0.8)
    assert camera["linear"]["camera 0 · yfov"][0] == pytest.approx(1.0)


def test_curves_of_pointer_channels_are_no_rotations(path):
    scene = load(path)
    clip = scene.clips[0]
    colour = compare.curve(clip, 0, "linear")
    assert colour.euler is None and colour.components(euler=True)[2] == list("rgba")
    assert compare.curve(clip, 3, "linear").components(euler=True)[2] == ["yfov"]
    assert compare.curve(clip, 4, "linear").components(euler=False)[2] == ["w1"]
    assert not clip.channels[0].curve.rotation  # a material colour is never shown as Euler angles
    assert panels.value_text(clip.channels[1], [0.0]) == "false"


def test_the_viewer_shows_the_selected_mesh_material(path):
    d = Driver(path, size=(1280, 1200), compare=("step", "linear"))  # tall enough for the Curves plots
    try:
        state = d.app.state
        d.clock.seek(0.5)
        state.select_node(0)
        d.frames(2, 0.0)
        shown = dict(panels.SHOWN)
        np.testing.assert_allclose([float(x) for x in shown[MATERIAL].split()], [0.5, 0, 0.5, 1], atol=1e-4)
        assert 0 in curve_view.node_rows(state) and state.channel_label(0) == MATERIAL
        state.curve_channel = 0
        d.frames(2, 0.0)
        assert d.app.overlay.widgets["curve_plots"]  # the colour's moving components are plotted
        state.select_node(2)  # the camera node: its yfov curve follows the selection
        d.frames(2, 0.0)
        assert state.curve_channel == 3 and dict(panels.SHOWN)["camera 0 · yfov"].split()[0] == "0.9000"
        state.select_node(3)  # nothing animated there: the curve stays
        d.frames(2, 0.0)
        assert state.curve_channel == 3
    finally:
        d.close()


def test_a_mesh_with_only_a_material_animation_shows_its_colour_curve(tmp_path):
    d = Driver(_scene_file(tmp_path, [INTENSITY, COLOUR]), size=(1280, 1200), compare=("step", "linear"))
    try:
        d.app.state.select_node(0)
        d.frames(2, 0.0)
        assert compare.related_channels(d.app.scene, d.app.state.clip, 0) == [1, 0]  # material before light
        assert d.app.state.curve_channel == 1  # the colour, though the light's channel comes first in the file
    finally:
        d.close()
