"""Demos of mesh deformation: a skinned three-joint arm, and a box with two morph targets.

Each function returns the finished ``.gltf`` text (see ``builder.DemoWriter.dumps``).
"""

from __future__ import annotations

import numpy as np
from pygltflib import Skin

from viewer.demo import shapes
from viewer.demo.builder import ARRAY_BUFFER, DemoWriter, quat_about

Z_AXIS = (0.0, 0.0, 1.0)

# Skinned arm: three 1-unit segments along +Y (upper arm, forearm, hand), centred on the origin.
ARM_BASE = -1.5  # y of the shoulder joint (the arm's bottom end)
ARM_LENGTH = 3.0
ARM_RADIUS = 0.22
JOINT_NAMES = ("shoulder", "elbow", "wrist")
JOINT_HEIGHTS = np.array([0.0, 1.0, 2.0])  # along the arm, from its base
BLEND_HALF_WIDTH = 0.25  # weights blend over ±this many units around the elbow and the wrist
WAVE_TIMES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
WAVE_ELBOW = np.radians([0.0, 45.0, 60.0, 45.0, 60.0, 45.0, 0.0])  # about z; the shoulder stays still
WAVE_WRIST = np.radians([0.0, 40.0, -40.0, 40.0, -40.0, 40.0, 0.0])

# Morph box: a 2-unit box whose faces bulge into pillows (target 0) and which twists about Y (target 1).
MORPH_DIVISIONS = 8
BULGE = 0.45  # outward push at a face centre, units
TWIST = 0.6  # radians of turn about +Y per unit of height
MORPH_TIMES = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
MORPH_WEIGHTS = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]])


def blend_ramp(h: np.ndarray, at: float, half_width: float = BLEND_HALF_WIDTH) -> np.ndarray:
    """Smoothstep from 0 (below ``at − half_width``) to 1 (above ``at + half_width``)."""
    s = np.clip((h - (at - half_width)) / (2.0 * half_width), 0.0, 1.0)
    return s * s * (3.0 - 2.0 * s)


def arm_weights(h: np.ndarray) -> np.ndarray:
    """Skin weights (n, 4) for shoulder, elbow, wrist (and an unused 4th) by height h along the arm.

    Rigid inside each segment, blended smoothly across the elbow and the wrist; each row sums to 1.
    """
    to_elbow, to_wrist = blend_ramp(h, JOINT_HEIGHTS[1]), blend_ramp(h, JOINT_HEIGHTS[2])
    return np.stack([1.0 - to_elbow, to_elbow - to_wrist, to_wrist, np.zeros_like(h)], axis=1)


def skinned_arm() -> str:
    """A capped cylinder skinned to shoulder → elbow → wrist; the "Wave" animation bends elbow and wrist."""
    w = DemoWriter()
    heights = np.linspace(0.0, ARM_LENGTH, 25)  # a ring every 1/8 unit, so the bends stay round
    positions, normals, indices = shapes.cylinder(ARM_RADIUS, heights + ARM_BASE, segments=16)
    weights = arm_weights(positions[:, 1] - ARM_BASE).astype(np.float32)
    weights[:, 0] = 1.0 - weights[:, 1:].sum(axis=1)  # exact sum to 1 in float32
    joints = np.tile(np.array([0, 1, 2, 0], np.uint8), (len(positions), 1))
    skin_attributes = {
        "JOINTS_0": w.add_accessor(joints, target=ARRAY_BUFFER),
        "WEIGHTS_0": w.add_accessor(weights, target=ARRAY_BUFFER),
    }
    mesh = w.mesh(
        "arm", positions, normals, indices, w.material("arm", (0.85, 0.7, 0.55, 1.0)), extra_attributes=skin_attributes
    )
    arm = w.node("arm", mesh=mesh, skin=0)
    rises = np.diff(ARM_BASE + JOINT_HEIGHTS, prepend=0.0)  # each joint's rest height above its parent
    # Joint nodes: the shoulder at the arm's base, each child one segment further up its parent's +Y.
    joint_nodes = [arm + 1 + k for k in range(len(JOINT_NAMES))]
    for k, name in enumerate(JOINT_NAMES):
        extra = {"children": [joint_nodes[k + 1]]} if k + 1 < len(JOINT_NAMES) else {}
        w.node(name, translation=(0.0, float(rises[k]), 0.0), rotation=(0.0, 0.0, 0.0, 1.0), **extra)
    inverse_bind = np.tile(np.eye(4), (len(JOINT_NAMES), 1, 1))
    inverse_bind[:, 1, 3] = -(ARM_BASE + JOINT_HEIGHTS)  # undo each joint's bind-pose world translation
    w.add(
        "skins",
        Skin(
            name="arm skin",
            inverseBindMatrices=w.add_accessor(inverse_bind),
            joints=joint_nodes,
            skeleton=joint_nodes[0],
        ),
    )
    w.animation(
        "Wave",
        [
            dict(node=joint_nodes[1], path="rotation", times=WAVE_TIMES, values=quat_about(Z_AXIS, WAVE_ELBOW)),
            dict(node=joint_nodes[2], path="rotation", times=WAVE_TIMES, values=quat_about(Z_AXIS, WAVE_WRIST)),
        ],
    )
    return w.dumps([arm, joint_nodes[0]])


def bulged(positions: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Box positions pushed out along their face normal by BULGE·(1 − a²)(1 − b²), a, b the in-face coordinates.

    Face edges do not move, so neighbouring faces stay joined.
    """
    in_face = positions * (1.0 - np.abs(normals))  # the normal's axis zeroed (cube of half-size 1)
    amount = BULGE * np.prod(1.0 - in_face**2, axis=1)
    return positions + amount[:, None] * normals


def twisted(positions: np.ndarray) -> np.ndarray:
    """Positions turned about +Y by TWIST·y radians."""
    angle = TWIST * positions[:, 1]
    c, s = np.cos(angle), np.sin(angle)
    x, y, z = positions.T
    return np.stack([c * x + s * z, y, -s * x + c * z], axis=1)


def morph_shape() -> str:
    """A box with morph targets "bulge" and "twist" (POSITION and NORMAL deltas) and a "Morph" weights clip."""
    w = DemoWriter()
    positions, normals, indices = shapes.box((2.0, 2.0, 2.0), divisions=MORPH_DIVISIONS)
    targets = []
    for moved in (bulged(positions, normals), twisted(positions)):
        targets.append({"POSITION": moved - positions, "NORMAL": shapes.vertex_normals(moved, indices) - normals})
    mesh = w.mesh(
        "morph box",
        positions,
        normals,
        indices,
        w.material("morph", (0.55, 0.45, 0.9, 1.0)),
        targets=targets,
        weights=(0.0, 0.0),
        target_names=("bulge", "twist"),
    )
    node = w.node("morph shape", mesh=mesh)
    w.animation("Morph", [dict(node=node, path="weights", times=MORPH_TIMES, values=MORPH_WEIGHTS.reshape(-1))])
    return w.dumps([node])
