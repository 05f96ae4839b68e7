"""Demos of rigid node animation: the tutorial triangle, the three interpolation modes, irregular key timing.

Each function returns the finished ``.gltf`` text (see ``builder.DemoWriter.dumps``).
"""

from __future__ import annotations

import numpy as np

from viewer.demo import shapes
from viewer.demo.builder import DemoWriter, quat_about, quat_about_rate

Z_AXIS = (0.0, 0.0, 1.0)

# The glTF tutorial's "Simple Animation": its triangle and its five rotation keys, value for value
# (0.707 as the tutorial writes it, not √½: the viewer normalizes rotation keys when it samples them).
TUTORIAL_POSITIONS = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
TUTORIAL_TIMES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
TUTORIAL_ROTATIONS = np.array(
    [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.707, 0.707],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.707, -0.707],
        [0.0, 0.0, 0.0, 1.0],
    ]
)

# Interpolation demo: one set of keys, played STEP / LINEAR / CUBICSPLINE side by side.
MODE_TIMES = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
MODE_HEIGHTS = np.array([-1.0, 1.0, -0.5, 1.0, -1.0])  # translation y at each key
# Slopes (units/s): zero at the ends (ease in / out); at the inner keys they keep going past the key
# value, so the cubic overshoots each peak and dip before turning back.
MODE_HEIGHT_SLOPES = np.array([0.0, 3.0, -3.0, 3.0, 0.0])
MODE_ANGLES = np.radians([0.0, 45.0, 0.0, -45.0, 0.0])  # rocking about z
MODE_ANGLE_RATES = np.radians([0.0, 60.0, -90.0, -60.0, 0.0])  # rad/s, again overshooting ±45°
MODE_COLUMNS = (
    ("STEP", -3.0, (0.9, 0.3, 0.25, 1.0)),
    ("LINEAR", 0.0, (0.3, 0.8, 0.35, 1.0)),
    ("CUBICSPLINE", 3.0, (0.25, 0.5, 0.95, 1.0)),
)

# Irregular timing: short and long intervals mixed, on a zig-zag in the XY plane.
IRREGULAR_TIMES = np.array([0.0, 0.3, 0.45, 1.5, 1.7, 3.0])
IRREGULAR_PATH = np.array(
    [[-2.5, -0.5, 0.0], [-1.5, 1.0, 0.0], [-1.0, -1.0, 0.0], [0.5, 1.2, 0.0], [1.5, -0.8, 0.0], [2.5, 0.6, 0.0]]
)


def triangle() -> str:
    """The tutorial's rotating triangle (one full turn about z in 1 s, LINEAR), with normals to light it."""
    w = DemoWriter()
    mat = w.material("triangle", (0.95, 0.6, 0.2, 1.0), double_sided=True)
    mesh = w.mesh("triangle", TUTORIAL_POSITIONS, np.tile([0.0, 0.0, 1.0], (3, 1)), np.array([0, 1, 2]), mat)
    node = w.node("triangle", rotation=(0.0, 0.0, 0.0, 1.0), mesh=mesh)
    w.animation("Rotate", [dict(node=node, path="rotation", times=TUTORIAL_TIMES, values=TUTORIAL_ROTATIONS)])
    return w.dumps([node])


def interpolation() -> str:
    """Three cubes with the same keys: STEP (left), LINEAR (middle), CUBICSPLINE (right)."""
    w = DemoWriter()
    positions, normals, indices = shapes.box((1.0, 1.0, 1.0), divisions=1)
    quats = quat_about(Z_AXIS, MODE_ANGLES)
    quat_tangents = quat_about_rate(Z_AXIS, MODE_ANGLES, MODE_ANGLE_RATES)
    nodes, channels = [], []
    for name, x, color in MODE_COLUMNS:
        mesh = w.mesh(f"{name} cube", positions, normals, indices, w.material(name, color))
        node = w.node(name, translation=(x, MODE_HEIGHTS[0], 0.0), mesh=mesh)
        keys = np.stack([np.full(5, x), MODE_HEIGHTS, np.zeros(5)], axis=1)
        if name == "CUBICSPLINE":
            slopes = np.stack([np.zeros(5), MODE_HEIGHT_SLOPES, np.zeros(5)], axis=1)
            keys = _cubic_output(keys, slopes)
            rotations = _cubic_output(quats, quat_tangents)
        else:
            rotations = quats
        channels.append(dict(node=node, path="translation", times=MODE_TIMES, values=keys, interpolation=name))
        channels.append(dict(node=node, path="rotation", times=MODE_TIMES, values=rotations, interpolation=name))
        nodes.append(node)
    w.animation("Interpolation modes", channels)
    return w.dumps(nodes)


def _cubic_output(values: np.ndarray, tangents: np.ndarray) -> np.ndarray:
    """CUBICSPLINE sampler output: per key in-tangent, value, out-tangent (equal tangents: a C¹ curve)."""
    return np.stack([tangents, values, tangents], axis=1).reshape(-1, values.shape[1])


def irregular() -> str:
    """A ball on a zig-zag with irregular key times (LINEAR), and small markers at the key positions."""
    w = DemoWriter()
    ball = w.mesh("ball", *shapes.uv_sphere(0.25, rings=12, segments=24), w.material("ball", (0.95, 0.55, 0.1, 1.0)))
    markers = shapes.merge(*(shapes.box((0.12, 0.12, 0.12), 1, tuple(p)) for p in IRREGULAR_PATH))
    keys_mesh = w.mesh("key markers", *markers, w.material("key marker", (0.6, 0.6, 0.65, 1.0)))
    ball_node = w.node("ball", translation=IRREGULAR_PATH[0], mesh=ball)
    keys_node = w.node("key positions", mesh=keys_mesh)
    w.animation(
        "Irregular timing", [dict(node=ball_node, path="translation", times=IRREGULAR_TIMES, values=IRREGULAR_PATH)]
    )
    return w.dumps([ball_node, keys_node])


__all__ = ["triangle", "interpolation", "irregular"]
