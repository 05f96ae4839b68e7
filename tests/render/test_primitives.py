"""Every primitive mode and index type draws: strips and fans as their triangle lists, UNSIGNED_BYTE /
SHORT / INT indices alike, LINES and POINTS, vertex colours, computed normals.

Pictures of the same shape written different ways must be identical pixel for pixel.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.render.conftest import STRIP, lit_quad_file, one_primitive, render_plain


def test_strip_and_fan_draw_like_their_triangle_lists(gl, tmp_path):
    triangles = render_plain(gl, one_primitive(tmp_path / "t", STRIP, 4, [0, 1, 3, 0, 3, 2]))
    strip = render_plain(gl, one_primitive(tmp_path / "s", STRIP, 5))  # unindexed strip
    fan = render_plain(gl, one_primitive(tmp_path / "f", STRIP, 6, [0, 1, 3, 2]))  # indexed fan
    assert (triangles[32, 32] == (255, 188, 0)).all()  # linear 0.5 → sRGB 188
    assert (strip == triangles).all()
    assert (fan == triangles).all()


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_every_index_type(gl, tmp_path, dtype):
    reference = render_plain(gl, one_primitive(tmp_path / "r", STRIP, 4, [0, 1, 3, 0, 3, 2]))
    picture = render_plain(gl, one_primitive(tmp_path / "i", STRIP, 4, [0, 1, 3, 0, 3, 2], index_dtype=dtype))
    assert (picture == reference).all()


def test_lines_line_strip_loop_and_points(gl, tmp_path):
    square = STRIP[[0, 1, 3, 2]]
    loop = render_plain(gl, one_primitive(tmp_path / "l", square, 2))
    lines = render_plain(gl, one_primitive(tmp_path / "L", square, 1, [0, 1, 1, 2, 2, 3, 3, 0]))
    strip = render_plain(gl, one_primitive(tmp_path / "s", square, 3, [0, 1, 2, 3, 0]))
    points = render_plain(gl, one_primitive(tmp_path / "p", square, 0))
    assert (loop == lines).all() and (strip == lines).all()
    assert lines[32, 32].max() == 0  # hollow
    assert (lines[:, :, 0] == 255).sum() > 4 * 40  # four edges drawn
    assert 4 <= (points[:, :, 0] == 255).sum() <= 4 * 16  # four small dots


def test_vertex_colors_vec3_float_and_vec4_normalized_bytes(gl, tmp_path):
    white = {"extensions": {"KHR_materials_unlit": {}}}
    rgb = np.tile(np.array([[0.0, 1.0, 0.0]], np.float32), (4, 1))
    rgba = np.tile(np.array([[0, 255, 0, 255]], np.uint8), (4, 1))
    a = render_plain(gl, one_primitive(tmp_path / "a", STRIP, 5, material=white, attributes={"COLOR_0": (rgb, False)}))
    b = render_plain(gl, one_primitive(tmp_path / "b", STRIP, 5, material=white, attributes={"COLOR_0": (rgba, True)}))
    assert tuple(a[32, 32]) == (0, 255, 0)
    assert (a == b).all()


def test_computed_normals_light_a_face_facing_the_camera(gl, tmp_path):
    """No NORMAL given: the computed normal faces +Z (towards the camera), so the quad is lit, evenly."""
    grey = {"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1], "metallicFactor": 0.0}}
    indexed = render_plain(gl, lit_quad_file(tmp_path / "i", grey))
    unindexed = render_plain(gl, one_primitive(tmp_path / "u", STRIP[[0, 1, 3, 0, 3, 2]], 4, material=grey))
    centre = indexed[16:48, 16:48].astype(int)
    assert centre.min() > 60 and np.ptp(centre[..., 0]) <= 2
    assert np.abs(unindexed.astype(int) - indexed.astype(int)).max() <= 1


def closed_cube_file(tmp_path, double_sided: bool):
    """A closed outward cube of half-size 0.5 at the origin, lit, double-sided or not."""
    c = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)], np.float32)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    idx = [i for q in quads for i in (q[0], q[1], q[2], q[0], q[2], q[3])]
    material = {"doubleSided": double_sided, "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.3, 0.2, 1]}}
    return one_primitive(tmp_path, c, 4, idx, material=material)


def test_closed_double_sided_surface_seen_from_outside_looks_the_same_culled(gl, tmp_path):
    """A closed outward double-sided surface has its back faces culled when the camera is outside it
    (an llvmpipe MSAA speed-up): the picture is that of the single-sided cube, up to single samples on
    silhouette edges that the fill rule gives to the back face."""
    from tests.render.conftest import FixedCamera
    from viewer.base import math3d
    from viewer.base.math3d import perspective

    cam = FixedCamera(math3d.look_at([1.5, 1.2, 2.0], [0, 0, 0], [0, 1, 0]), perspective(0.8, 1.0, 0.1, 20.0))
    double = render_plain(gl, closed_cube_file(tmp_path / "d", True), cam, size=(96, 96), samples=4)
    single = render_plain(gl, closed_cube_file(tmp_path / "s", False), cam, size=(96, 96), samples=4)
    assert (np.abs(double.astype(int) - single).max(axis=2) > 8).sum() <= 3


def test_camera_inside_a_closed_double_sided_surface_sees_its_inside(gl, tmp_path):
    from tests.render.conftest import FixedCamera
    from viewer.base import math3d
    from viewer.base.math3d import perspective

    cam = FixedCamera(math3d.look_at([0, 0, 0.2], [0, 0, -1], [0, 1, 0]), perspective(1.0, 1.0, 0.01, 20.0))
    inside = render_plain(gl, closed_cube_file(tmp_path / "d", True), cam, size=(32, 32))
    assert inside[16, 16].max() > 0  # the far inner wall is drawn
    culled = render_plain(gl, closed_cube_file(tmp_path / "s", False), cam, size=(32, 32))
    assert culled.max() == 0  # single-sided: nothing faces the camera
