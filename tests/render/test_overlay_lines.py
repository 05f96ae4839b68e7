"""Skeleton / bounds lines and picking: the numpy geometry, and the lines drawn on an EGL context."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.base.resources import asset_path
from viewer.pose.bounds import pose_bounds
from viewer.pose.pose import Pose
from viewer.render.camera import OrbitCamera
from viewer.render.overlay_lines import (
    BONE_COLOR,
    SELECTED_COLOR,
    OverlayLines,
    box_edges,
    pick,
    skeleton_nodes,
    to_window,
)
from viewer.render.shaders import ProgramCache
from viewer.scene.scene import load


def test_skinned_skeleton_is_the_joints_and_their_joint_parents():
    scene = load(asset_path("skinned_arm.gltf"))
    names = scene.nodes.names
    points, bones = skeleton_nodes(scene)
    assert sorted(names[i] for i in points) == ["elbow", "shoulder", "wrist"]
    assert sorted((names[a], names[b]) for a, b in bones) == [("elbow", "shoulder"), ("wrist", "elbow")]


def test_without_skins_every_node_and_parent_link():
    scene = load(asset_path("irregular.gltf"))
    points, bones = skeleton_nodes(scene)
    assert list(points) == list(range(len(scene.nodes)))
    assert all(scene.nodes.parent[a] == b for a, b in bones)
    assert len(bones) == int((scene.nodes.parent >= 0).sum())


def test_box_edges_are_the_twelve_edges():
    e = box_edges(np.array([0.0, 0.0, 0.0]), np.array([1.0, 2.0, 3.0])).reshape(12, 2, 3)
    lengths = sorted(np.linalg.norm(e[:, 1] - e[:, 0], axis=1).round(9))
    assert lengths == [1.0] * 4 + [2.0] * 4 + [3.0] * 4


def test_to_window_and_pick_agree_with_the_projection():
    world = np.broadcast_to(np.eye(4), (3, 4, 4)).copy()
    world[1, :3, 3] = [1.0, 0.0, 0.0]
    world[2, :3, 3] = [0.0, 0.0, 10.0]  # behind the camera
    cam = OrbitCamera(target=np.zeros(3), distance=5.0, yaw=0.0, pitch=0.0)
    vp = cam.projection(2.0) @ cam.view()
    (center, right, behind), front = to_window(world[:, :3, 3], vp, (800, 400))
    assert center == pytest.approx([400.0, 200.0]) and right[0] > 400 and right[1] == pytest.approx(200.0)
    assert front.tolist() == [True, True, False]
    assert pick(world, np.arange(3), vp, (800, 400), 405, 197) == 0
    assert pick(world, np.arange(3), vp, (800, 400), *right) == 1
    assert pick(world, np.arange(3), vp, (800, 400), 600, 20) is None
    assert pick(world, np.array([], dtype=int), vp, (800, 400), 400, 200) is None


def test_lines_draw_over_the_mesh_where_the_joints_project():
    from viewer.export import create_context
    from viewer.render.target import OffscreenTarget

    try:
        ctx = create_context()
    except Exception as exc:
        pytest.skip(f"no EGL: {exc}")
    scene = load(asset_path("skinned_arm.gltf"))
    programs = ProgramCache(ctx)
    lines = OverlayLines(ctx, programs, scene)
    target = OffscreenTarget(ctx, (200, 200), samples=0)
    pose = Pose(scene)
    cam = OrbitCamera().fit(*pose_bounds(pose), 1.0)
    vp = cam.projection(1.0) @ cam.view()
    elbow = scene.nodes.names.index("elbow")
    target.fbo.use()
    target.fbo.clear(0, 0, 0, 1)
    lines.draw(pose, vp, skeleton=True, bounds=False, selected=elbow)
    rgb = target.read(3).astype(int)
    ((x, y),) = to_window(pose.world[[elbow], :3, 3], vp, (200, 200))[0]
    assert np.abs(rgb[int(y), int(x)] - np.array(SELECTED_COLOR[:3]) * 255).max() <= 2
    bone_px = np.abs(rgb - np.array(BONE_COLOR[:3]) * 255).max(axis=2) <= 2
    assert bone_px.sum() > 20
    assert ctx.error == "GL_NO_ERROR"
    lines.release()
    target.release()
    programs.release()
