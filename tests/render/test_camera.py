"""Cameras (``viewer.render.camera``): fitting bounds, orbit / pan / zoom, glTF cameras. No GL needed."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import khronos_model
from tests.gltf_builder import GltfBuilder
from viewer.base import math3d
from viewer.base.math3d import perspective
from viewer.pose.bounds import clip_bounds
from viewer.pose.pose import Pose
from viewer.render.camera import OrbitCamera, gltf_camera, orthographic
from viewer.scene.scene import load


def ndc(points: np.ndarray, view: np.ndarray, proj: np.ndarray) -> np.ndarray:
    clip = np.c_[points, np.ones(len(points))] @ (proj @ view).T
    return clip[:, :3] / clip[:, 3:]


def corners(lo, hi) -> np.ndarray:
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])


@settings(max_examples=60, deadline=None)
@given(
    size=st.tuples(*[st.floats(0.01, 100.0)] * 3),
    center=st.tuples(*[st.floats(-50.0, 50.0)] * 3),
    yaw=st.floats(-math.pi, math.pi),
    pitch=st.floats(-1.4, 1.4),
    aspect=st.floats(0.3, 3.0),
)
def test_fit_keeps_every_corner_in_view_and_one_near_the_edge(size, center, yaw, pitch, aspect):
    lo, hi = np.array(center) - np.array(size) / 2, np.array(center) + np.array(size) / 2
    cam = OrbitCamera(yaw=yaw, pitch=pitch).fit(lo, hi, aspect)
    p = ndc(corners(lo, hi), cam.view(), cam.projection(aspect))
    assert (np.abs(p[:, :2]) <= 1.0 / 1.1 + 1e-6).all()  # inside, with the fit margin
    assert np.abs(p[:, :2]).max() > 0.85 / 1.1  # and not needlessly far away
    assert (np.abs(p[:, 2]) < 1.0).all()  # between near and far
    np.testing.assert_allclose(cam.target, (lo + hi) / 2)


def test_default_view_is_from_the_front_right_and_above():
    cam = OrbitCamera().fit(np.array([-1.0, -1, -1]), np.array([1.0, 1, 1]))
    eye = cam.eye()
    assert eye[2] > abs(eye[0]) > 0 and eye[1] > 0  # +Z towards the viewer, a little right, above


def test_orbit_pan_zoom():
    cam = OrbitCamera().fit(np.zeros(3) - 1, np.zeros(3) + 1)
    d = cam.distance
    cam.zoom(0.5)
    assert cam.distance == pytest.approx(d / 2)
    cam.orbit(0.0, 10.0)
    assert cam.pitch == pytest.approx(math.radians(89.0))  # clamped short of the pole
    before = cam.target.copy()
    right = cam.view()[0, :3]
    cam.pan(0.1, 0.0)
    moved = cam.target - before
    assert np.dot(moved, right) < 0 and np.allclose(np.cross(moved, right), 0, atol=1e-9)  # drag right: scene follows


def test_walking_fox_stays_in_view_over_the_whole_clip():
    scene = load(khronos_model("Fox"))
    clip = next(c for c in scene.clips if c.name == "Walk")
    lo, hi = clip_bounds(scene, clip)
    cam = OrbitCamera().fit(lo, hi, 4 / 3)
    pose = Pose(scene)
    for t in np.linspace(0.0, clip.duration, 9):
        pose.set_time(clip, t)
        p = ndc(pose.primitive_positions(1, scene.meshes[0].primitives[0]), cam.view(), cam.projection(4 / 3))
        assert (np.abs(p) <= 1.0).all()


def test_infinite_and_orthographic_projections():
    inf = perspective(1.0, 1.5, 0.1, None)
    finite = perspective(1.0, 1.5, 0.1, 1e9)
    np.testing.assert_allclose(inf, finite, atol=1e-6)
    o = orthographic(2.0, 1.0, 0.5, 10.0)
    p = o @ np.array([2.0, -1.0, -10.0, 1.0])
    np.testing.assert_allclose(p, [1.0, -1.0, 1.0, 1.0])


def test_gltf_camera_sees_from_its_node_ignoring_scale(tmp_path):
    b = GltfBuilder()
    b.add("cameras", {"type": "perspective", "perspective": {"yfov": 0.7, "znear": 0.1}})
    q = math3d.quat_from_axis_angle([0, 1, 0], math.pi / 2)  # looks along -X
    b.add_node(camera=0, translation=[5.0, 0.0, 0.0], rotation=q.tolist(), scale=[3.0, 3.0, 3.0])
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path))
    cam = gltf_camera(scene, 0)
    view, proj = cam.matrices(Pose(scene), 1.0)
    p = ndc(np.array([[0.0, 0.0, 0.0]]), view, proj)  # the origin is straight ahead
    np.testing.assert_allclose(p[0, :2], 0.0, atol=1e-9)
    np.testing.assert_allclose(np.linalg.det(view[:3, :3]), 1.0)
    with pytest.raises(ValueError):
        gltf_camera(scene, 1)
