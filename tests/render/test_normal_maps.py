"""Normal maps on mirrored UVs: NormalTangentMirrorTest (Khronos), measured in the picture.

The model is a grid of tiles, each with a hemispherical bump: the first tile of every row is real geometry,
the others the same bump as a normal map, with UVs plain, mirrored in U or mirrored in V (and turned by a
different angle in each row). Seen straight on through an orthographic camera, a normal-mapped tile must shade
like its row's geometry tile — a tangent frame with the wrong handedness on
a mirrored half lights the bump from the other side (an inverted bump) and leaves a seam down the middle.

Measured: the mean absolute difference of linear luminance inside the bump between each normal-mapped tile and
its reference in the row (``PAIRS``). Checked three ways: with the file's tangents, with tangents
generated (TANGENT removed), and with the file's handedness flipped — which must fail, so the measure can.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.conftest import pbr_model
from tests.render.conftest import FixedCamera, render_plain, srgb_decode
from viewer.pose.bounds import pose_bounds
from viewer.pose.pose import Pose
from viewer.render.camera import orthographic
from viewer.scene.scene import load

SIZE = (960, 720)
BACKGROUND = (0.0, 0.0, 0.0)
# (reference tile, normal-mapped tile) in a row of 8: the grey set against its geometry tile; the gold (metal)
# set against its plain normal-mapped tile, since a metal's reflections of the studio differ between a real
# bump (parallax) and a mapped one
PAIRS = [(0, 1), (0, 2), (0, 3), (5, 6), (5, 7)]
MATCH = 0.025  # mean |Δ luminance| (linear) a normal-mapped tile may differ from its reference
FLIPPED = 0.1  # … and what a flipped handedness must exceed somewhere


def with_tangents(scene, change):
    """``scene`` with every primitive's attributes passed through ``change`` (a test-only edit)."""
    meshes = tuple(
        dataclasses.replace(
            m, primitives=tuple(dataclasses.replace(p, attributes=change(dict(p.attributes))) for p in m.primitives)
        )
        for m in scene.meshes
    )
    copy = dataclasses.replace(scene) if dataclasses.is_dataclass(scene) else scene
    object.__setattr__(copy, "meshes", meshes)
    return copy


def runs(occupied: np.ndarray, min_len: int) -> list[tuple[int, int]]:
    """[start, end) of each run of True at least ``min_len`` long."""
    edges = np.flatnonzero(np.diff(np.r_[0, occupied.astype(np.int8), 0]))
    return [(a, b) for a, b in zip(edges[::2], edges[1::2]) if b - a >= min_len]


def tile_differences(gl, scene) -> np.ndarray:
    """(rows, normal-mapped tiles per row) mean |Δ luminance| against the row's geometry tile."""
    pose = Pose(scene)
    pose.set_time(None, 0.0)
    lo, hi = pose_bounds(pose)
    mid, half = 0.5 * (lo + hi), 0.55 * (hi - lo)
    view = np.eye(4)
    view[:3, 3] = -(mid + np.array([0.0, 0.0, 2.0 * half.max() + 1.0]))
    half_h = max(half[1], half[0] * SIZE[1] / SIZE[0])  # orthographic: every tile is seen the same way
    camera = FixedCamera(view, orthographic(half_h * SIZE[0] / SIZE[1], half_h, 0.01, 4.0 * half.max() + 2.0))
    rgb = render_plain(gl, scene, camera, SIZE, samples=4, background=BACKGROUND)
    luminance = srgb_decode(rgb).mean(axis=-1)
    occupied = rgb.max(axis=-1) > 3
    cols = runs(occupied.mean(axis=0) > 0.3, 20)
    rows = [r for r in runs(occupied.mean(axis=1) > 0.3, 20) if r[1] - r[0] > 0.6 * (cols[0][1] - cols[0][0])]
    assert len(cols) == 8 and len(rows) == 5, (cols, rows)
    out = np.zeros((len(rows), len(PAIRS)))
    for i, (y0, y1) in enumerate(rows):
        crops = []
        for x0, x1 in cols:
            h, w = y1 - y0, x1 - x0
            crops.append(luminance[y0 + h // 5 : y1 - h // 5, x0 + w // 5 : x1 - w // 5])  # the bump
        size = min(c.shape for c in crops)
        crops = [c[: size[0], : size[1]] for c in crops]
        for k, (reference, mapped) in enumerate(PAIRS):
            out[i, k] = np.abs(crops[mapped] - crops[reference]).mean()
    return out


def test_file_tangents_shade_like_geometry_on_every_mirrored_tile(gl):
    diff = tile_differences(gl, load(pbr_model("NormalTangentMirrorTest")))
    assert diff.max() < MATCH, diff.round(3)


def test_generated_tangents_shade_like_geometry_on_every_mirrored_tile(gl):
    scene = with_tangents(
        load(pbr_model("NormalTangentMirrorTest")), lambda a: {k: v for k, v in a.items() if k != "TANGENT"}
    )
    diff = tile_differences(gl, scene)
    assert diff.max() < MATCH, diff.round(3)


def test_a_flipped_handedness_is_seen(gl):
    def flip(attributes):
        t = np.array(attributes["TANGENT"], np.float32)
        t[:, 3] *= -1.0
        return {**attributes, "TANGENT": t}

    diff = tile_differences(gl, with_tangents(load(pbr_model("NormalTangentMirrorTest")), flip))
    assert diff.max() > FLIPPED, diff.round(3)
