"""Write mocap-like .glb files: a dense, noisy, skinned humanoid walk to measure keyframe reducers on.

    python tools/mocap_clips.py OUTDIR [--long]
    python tools/mocap_clips.py OUTDIR --take SECONDS [--joints N] [--fps F] [--meshopt plain|filtered] [--no-mesh]

Why: the Khronos samples carry a few dozen keys per channel, while real motion capture carries one key per
frame (60 or 120 fps) for every joint, with sensor jitter that no smooth curve passes through. A keyframe
reducer (``animview reduce``, gltf-transform ``resample``, gltfpack ``-af``) has to be judged on that kind of
data, in world space (metres at the fingertips, not radians per channel), so these files also carry a skinned
mesh whose vertices show what a reduced rotation does at the end of a chain.

What: a 60-joint skeleton (hips, a spine chain to the neck, head and head end, two arms with shoulder, twist
bones and five three-joint fingers, two legs with toes and toe ends), bone lengths in metres, 1.84 m tall. The
root's translation and every joint's rotation are animated with LINEAR keys at every frame: a walk made of a
few sines per joint (the gait frequency, its harmonics and a slow sway, each with its own amplitude and
phase), plus Gaussian jitter (rotation noise about 0.05-0.2 degrees per axis, translation noise about 0.1 mm).
Rotations are unit quaternions, each key in the same hemisphere as the one before. One skinned mesh: a
square tube of three rings per bone; the first two rings are weighted to their bone alone, the last ring
blended half and half with the bone's main child, so the inverse bind matrices (the rest pose's inverse
world matrices) and the blending are both exercised.

Files (``OUTDIR/mocap_*.glb``):

* ``mocap_walk.glb``: 60 s at 60 fps (3601 keys per channel), jitter 0.1 deg and 0.1 mm;
* ``mocap_run.glb``: 30 s at 120 fps (3601 keys), a faster gait, jitter 0.05 deg and 0.05 mm;
* ``mocap_stretch.glb``: 60 s at 60 fps, jitter 0.2 deg and 0.2 mm, and besides the root some joints
  translation-animated (shoulders, neck, toes) and some scale-animated (spine, head, hands);
* ``--long`` writes ``mocap_long.glb`` instead: 600 s at 60 fps (36 001 keys per channel, about 35 MB),
  for a speed test.
* ``--take SECONDS`` writes one long take of any size instead, for tests and benchmarks of long clips
  (``animview check`` on an hour of capture, the meshopt decoder on hundreds of megabytes): ``--joints N``
  (the first N joints of the skeleton above, parents first; beyond 60, chains of extra joints under the hips),
  ``--fps``, the root wandering over a 16 × 12 m floor (two slow incommensurate sines, never retracing a loop),
  every key LINEAR. ``--meshopt plain`` compresses every animation view with EXT_meshopt_compression's
  ATTRIBUTES codec (lossless, gltfpack's layout: a fallback buffer without data); ``--meshopt filtered`` stores
  rotations as 16-bit quaternions through the QUATERNION filter first, as ``gltfpack -cc`` does. The name is
  ``take_<N>j_<fps>fps_<seconds>s[_meshopt_plain|_meshopt_filtered].glb`` unless ``--name`` says otherwise;
  ``write_take`` is the same from Python (the memory tests of ``tests/library`` write a short take with it).
  Values are made as float32 one channel at a time: an hour of 60 joints (210 MB) takes 8 s and 0.7 GB (with
  ``--meshopt``, 35–50 s and up to 1.1 GB: the encoder is numpy).

Written through ``viewer.files.writer.ModelWriter`` (the project's one glTF writer), deterministic per seed.
Check a file with ``python -m viewer check OUTDIR/mocap_walk.glb``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pygltflib import (  # noqa: E402
    Animation,
    AnimationChannel,
    AnimationChannelTarget,
    Attributes,
    Material,
    Mesh,
    Node,
    PbrMetallicRoughness,
    Primitive,
    Scene,
    Skin,
)

from viewer.files import writer  # noqa: E402
from viewer.files.writer import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, f32_list  # noqa: E402

GENERATOR = "animview tools/mocap_clips.py"
HIPS_HEIGHT = 0.98


def skeleton(joints: int = 60) -> list[tuple[str, str | None, tuple[float, float, float], str]]:
    """(name, parent, offset from the parent in metres, kind) per joint, parents first; the main child of a
    joint (the one its mesh tube points at) is its first child in this list. ``joints`` below 60 keeps the
    first ones (a valid tree, as parents come first); above 60 adds chains of eight under the hips."""
    if joints < 1:
        raise ValueError(f"a skeleton needs at least one joint, got {joints}")
    j = _humanoid()
    for k in range(joints - len(j)):
        parent = "Hips" if k % 8 == 0 else f"Extra{k - 1}"
        j.append((f"Extra{k}", parent, (0.02 * ((k // 8) % 5 - 2), -0.04 if k % 8 else 0.0, -0.05), "spine"))
    return j[:joints]


def _humanoid() -> list[tuple[str, str | None, tuple[float, float, float], str]]:
    """The 60 joints of the humanoid (see ``skeleton``)."""
    j = [("Hips", None, (0.0, HIPS_HEIGHT, 0.0), "root")]
    spine = [
        ("Spine", (0.0, 0.10, 0.0)),
        ("Spine1", (0.0, 0.12, 0.0)),
        ("Spine2", (0.0, 0.12, 0.0)),
        ("Spine3", (0.0, 0.12, 0.0)),
        ("Neck", (0.0, 0.12, 0.0)),
        ("Head", (0.0, 0.10, 0.0)),
        ("HeadEnd", (0.0, 0.18, 0.0)),
    ]
    parent = "Hips"
    for name, off in spine:
        j.append((name, parent, off, "spine"))
        parent = name
    for side, sx in (("Left", 1.0), ("Right", -1.0)):
        parent = "Spine3"
        for name, off in (
            ("Shoulder", (0.04, 0.10, 0.0)),
            ("Arm", (0.14, 0.0, 0.0)),
            ("ArmTwist", (0.14, 0.0, 0.0)),
            ("ForeArm", (0.14, 0.0, 0.0)),
            ("ForeArmTwist", (0.13, 0.0, 0.0)),
            ("Hand", (0.13, 0.0, 0.0)),
        ):
            j.append((side + name, parent, (sx * off[0], off[1], off[2]), "arm"))
            parent = side + name
        # Middle first: the hand's tube points at the middle finger
        fingers = {
            "Middle": ((0.095, 0.0, 0.005), 0.045, 0.03),
            "Thumb": ((0.03, -0.01, 0.03), 0.03, 0.025),
            "Index": ((0.09, 0.0, 0.025), 0.04, 0.025),
            "Ring": ((0.09, 0.0, -0.015), 0.04, 0.028),
            "Pinky": ((0.08, 0.0, -0.035), 0.032, 0.022),
        }
        for finger, (base, l2, l3) in fingers.items():
            p = side + "Hand"
            for k, off in enumerate((base, (l2, 0.0, 0.0), (l3, 0.0, 0.0)), start=1):
                name = f"{side}Hand{finger}{k}"
                j.append((name, p, (sx * off[0], off[1], off[2]), "finger"))
                p = name
    for side, sx in (("Left", 1.0), ("Right", -1.0)):
        parent = "Hips"
        for name, off in (
            ("UpLeg", (0.09, -0.05, 0.0)),
            ("Leg", (0.0, -0.43, 0.0)),
            ("Foot", (0.0, -0.42, 0.0)),
            ("Toe", (0.0, -0.06, 0.12)),
            ("ToeEnd", (0.0, 0.0, 0.06)),
        ):
            j.append((side + name, parent, (sx * off[0], off[1], off[2]), "leg"))
            parent = side + name
    return j


# (amplitude in degrees of the gait's first harmonic, second harmonic, slow sway) per kind and axis x, y, z
AMPLITUDES = {
    "root": ((4.0, 2.0, 1.0), (3.0, 1.0, 2.0), (2.0, 1.0, 1.0)),
    "spine": ((3.0, 2.0, 1.5), (1.5, 1.0, 2.0), (2.0, 1.0, 1.0)),
    "arm": ((12.0, 20.0, 8.0), (4.0, 6.0, 3.0), (3.0, 2.0, 4.0)),
    "finger": ((6.0, 2.0, 12.0), (3.0, 1.0, 6.0), (5.0, 2.0, 8.0)),
    "leg": ((30.0, 4.0, 4.0), (10.0, 2.0, 2.0), (3.0, 1.0, 1.0)),
}


@dataclass
class Variant:
    """One file's settings."""

    name: str
    seed: int
    fps: float
    seconds: float
    gait_hz: float  # steps per second / 2: one full gait cycle
    rot_noise_deg: float
    trans_noise_m: float
    translated: tuple[str, ...] = ()  # joints besides the root with a translation channel
    scaled: tuple[str, ...] = ()  # joints with a scale channel
    speed: float = 1.4  # metres per second along the path
    extra: dict = field(default_factory=dict)
    joints: int = 60
    wander: bool = False  # the root wanders over the floor (``take``) instead of circling
    mesh: bool = True


VARIANTS = [
    Variant("mocap_walk", seed=1, fps=60.0, seconds=60.0, gait_hz=0.9, rot_noise_deg=0.1, trans_noise_m=1e-4),
    Variant(
        "mocap_run", seed=2, fps=120.0, seconds=30.0, gait_hz=1.4, rot_noise_deg=0.05, trans_noise_m=5e-5, speed=3.2
    ),
    Variant(
        "mocap_stretch",
        seed=3,
        fps=60.0,
        seconds=60.0,
        gait_hz=0.8,
        rot_noise_deg=0.2,
        trans_noise_m=2e-4,
        translated=("LeftShoulder", "RightShoulder", "Neck", "LeftToe", "RightToe"),
        scaled=("Spine2", "Head", "LeftHand", "RightHand"),
    ),
]
LONG = Variant("mocap_long", seed=4, fps=60.0, seconds=600.0, gait_hz=0.9, rot_noise_deg=0.1, trans_noise_m=1e-4)


def qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton products a·b of (k, 4) quaternions [x, y, z, w]."""
    ax, ay, az, aw = a.T
    bx, by, bz, bw = b.T
    return np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=1,
    )


def about(axis: int, angles: np.ndarray) -> np.ndarray:
    """(k, 4) quaternions turning ``angles`` radians about the x, y or z axis."""
    q = np.zeros((len(angles), 4))
    q[:, axis] = np.sin(0.5 * angles)
    q[:, 3] = np.cos(0.5 * angles)
    return q


def continuous(q: np.ndarray) -> np.ndarray:
    """Unit quaternions with each one in the same hemisphere as the one before (no long-way-round LINEAR)."""
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    flip = np.cumsum(np.einsum("ij,ij->i", q[1:], q[:-1]) < 0) % 2 == 1
    q[1:][flip] *= -1.0
    return q


def rotations(kind: str, t: np.ndarray, v: Variant, rng: np.random.Generator) -> np.ndarray:
    """One joint's rotation keys: per axis, the gait's first and second harmonics and a slow sway with random
    phases and amplitudes (around ``AMPLITUDES``), plus jitter; composed z·y·x."""
    w = 2.0 * np.pi * v.gait_hz
    sway = 2.0 * np.pi * rng.uniform(0.03, 0.12)
    q = np.tile([0.0, 0.0, 0.0, 1.0], (len(t), 1))
    for axis in (2, 1, 0):
        a1, a2, a3 = (np.radians(a) * rng.uniform(0.5, 1.2) for a in AMPLITUDES[kind][axis])
        p1, p2, p3 = rng.uniform(0.0, 2.0 * np.pi, 3)
        angle = a1 * np.sin(w * t + p1) + a2 * np.sin(2.0 * w * t + p2) + a3 * np.sin(sway * t + p3)
        angle += np.radians(v.rot_noise_deg) * rng.standard_normal(len(t))
        q = qmul(q, about(axis, angle))
    return continuous(q)


def root_path(t: np.ndarray, v: Variant, rng: np.random.Generator) -> np.ndarray:
    """The hips' translation keys: round a circle of 3 m radius at ``speed`` (or, ``wander``, over a 16 × 12 m
    floor along two slow sines whose periods have no common multiple), bobbing and swaying with the gait."""
    radius = 3.0
    w = v.speed / radius
    g = 2.0 * np.pi * v.gait_hz
    if v.wander:
        x = 8.0 * np.sin(0.11 * t + 0.4) + 0.03 * np.sin(g * t)
        z = 6.0 * np.sin(0.0737 * t) + 0.01 * np.sin(2.0 * g * t + 1.1)
    else:
        x = radius * np.sin(w * t) + 0.03 * np.sin(g * t)
        z = radius * (1.0 - np.cos(w * t)) + 0.01 * np.sin(2.0 * g * t + 1.1)
    y = HIPS_HEIGHT + 0.025 * np.sin(2.0 * g * t + 0.3) - 0.01
    return np.stack([x, y, z], axis=1) + v.trans_noise_m * rng.standard_normal((len(t), 3))


def tubes(names: list[str], parents: list[int], world: np.ndarray) -> tuple[np.ndarray, ...]:
    """The skinned mesh: per joint a square tube of three rings from the joint toward its main child (or 3 cm on
    along its parent's bone for an end joint). Positions, normals, JOINTS_0, WEIGHTS_0 and triangle indices."""
    n = len(names)
    main_child = [-1] * n
    for k in range(n):
        p = parents[k]
        if p >= 0 and main_child[p] < 0:
            main_child[p] = k
    pos, nrm, joints, weights, tris = [], [], [], [], []
    for k in range(n):
        c = main_child[k]
        if c >= 0:
            d = world[c] - world[k]
        elif parents[k] >= 0:
            d = world[k] - world[parents[k]]
            d = 0.03 * d / np.linalg.norm(d)
        else:  # a lone root
            d = np.array([0.0, 0.03, 0.0])
        length = float(np.linalg.norm(d))
        d = d / length
        radius = min(max(0.22 * length, 0.006), 0.07)
        helper = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
        u = np.cross(d, helper)
        u /= np.linalg.norm(u)
        e = np.cross(d, u)
        base = len(pos)
        for ring, s in enumerate((0.0, 0.5, 1.0)):
            centre = world[k] + s * length * d
            for a, b in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
                off = radius * (a * u + b * e)
                pos.append(centre + off)
                nrm.append(off / np.linalg.norm(off))
                if ring == 2 and c >= 0:
                    joints.append((k, c, 0, 0))
                    weights.append((0.5, 0.5, 0.0, 0.0))
                else:
                    joints.append((k, 0, 0, 0))
                    weights.append((1.0, 0.0, 0.0, 0.0))
        for ring in range(2):
            for side in range(4):
                a0 = base + 4 * ring + side
                a1 = base + 4 * ring + (side + 1) % 4
                b0, b1 = a0 + 4, a1 + 4
                tris += [(a0, a1, b1), (a0, b1, b0)]
        tris += [(base, base + 2, base + 1), (base, base + 3, base + 2)]  # start cap
        last = base + 8
        tris += [(last, last + 1, last + 2), (last, last + 2, last + 3)]  # end cap
    return (
        np.asarray(pos, np.float32),
        np.asarray(nrm, np.float32),
        np.asarray(joints, np.uint8),
        np.asarray(weights, np.float32),
        np.asarray(tris, np.uint16 if len(pos) < 65536 else np.uint32).reshape(-1),
    )


def build(v: Variant, quaternions: bool = False) -> tuple[dict, bytes]:
    """The glTF JSON and binary buffer of one variant; ``quaternions``: rotations stored as the QUATERNION
    filter's 16-bit form (SHORT normalized), ready for ``compress_animation(filtered=True)``."""
    rng = np.random.default_rng(v.seed)
    joints = skeleton(v.joints)
    names = [j[0] for j in joints]
    index = {n: k for k, n in enumerate(names)}
    parents = [index[j[1]] if j[1] is not None else -1 for j in joints]
    offsets = np.array([j[2] for j in joints], np.float64)
    world = np.zeros_like(offsets)
    for k in range(len(joints)):
        world[k] = offsets[k] + (world[parents[k]] if parents[k] >= 0 else 0.0)

    w = writer.ModelWriter(generator=GENERATOR)
    first_joint = 0  # joints are nodes 0..n-1, the mesh node n
    for k, (name, _, off, _) in enumerate(joints):
        children = [c for c in range(len(joints)) if parents[c] == k]
        w.add("nodes", Node(name=name, translation=f32_list(off), children=children))
    roots = [first_joint]
    if v.mesh:
        roots.append(_skinned_body(w, names, parents, world))
    w.add("scenes", Scene(name=v.name, nodes=roots))
    w.gltf.scene = 0

    inputs: dict[bytes, int] = {}  # every channel shares the one input accessor
    samplers, targets = [], []
    for node, path, times, values in _channels(v, joints, rng):  # each stored as soon as it is made
        if quaternions and path == "rotation":
            from viewer.files.meshopt_pack import encode_filtered

            sampler = w.add_sampler(
                times, encode_filtered(values, "QUATERNION", 16), path, "LINEAR", 5122, True, inputs
            )
        else:
            sampler = w.add_sampler(times, values, path, "LINEAR", inputs=inputs)
        samplers.append(sampler)
        targets.append(AnimationChannel(sampler=len(targets), target=AnimationChannelTarget(node=node, path=path)))
    w.add("animations", Animation(name=v.name.removeprefix("mocap_"), channels=targets, samplers=samplers))
    return w.to_dict(), w.bin_bytes()


def _channels(v: Variant, joints: list, rng: np.random.Generator):
    """(node, path, times, float32 values) of every channel, root translation first, one at a time."""
    count = int(round(v.seconds * v.fps)) + 1
    t = np.arange(count, dtype=np.float64) / v.fps
    yield 0, "translation", t, root_path(t, v, rng).astype(np.float32)
    g = 2.0 * np.pi * v.gait_hz
    for k, (name, _, off, kind) in enumerate(joints):
        yield k, "rotation", t, rotations(kind, t, v, rng).astype(np.float32)
        if name in v.translated:
            wobble = 0.01 * np.sin(g * t + rng.uniform(0, 2 * np.pi))[:, None] * rng.uniform(-1, 1, 3)
            values = np.asarray(off) + wobble + v.trans_noise_m * rng.standard_normal((count, 3))
            yield k, "translation", t, values.astype(np.float32)
        if name in v.scaled:
            squash = 0.08 * np.sin(2.0 * g * t + rng.uniform(0, 2 * np.pi))
            values = np.stack([1.0 - 0.5 * squash, 1.0 + squash, 1.0 - 0.5 * squash], axis=1)
            values += 1e-4 * rng.standard_normal((count, 3))
            yield k, "scale", t, values.astype(np.float32)


def _skinned_body(w: writer.ModelWriter, names: list[str], parents: list[int], world: np.ndarray) -> int:
    """The "Body" node: the tube mesh skinned to every joint (joints are nodes 0..n-1); returns its index."""
    positions, normals, jnt, wts, tris = tubes(names, parents, world)
    material = w.add(
        "materials",
        Material(
            name="skin",
            pbrMetallicRoughness=PbrMetallicRoughness(baseColorFactor=[0.8, 0.6, 0.5, 1.0], roughnessFactor=0.7),
            emissiveFactor=None,
            alphaMode=None,
        ),
    )
    attributes = Attributes(
        POSITION=w.add_accessor(positions, target=ARRAY_BUFFER, min_max=True),
        NORMAL=w.add_accessor(normals, target=ARRAY_BUFFER),
        JOINTS_0=w.add_accessor(jnt, target=ARRAY_BUFFER),
        WEIGHTS_0=w.add_accessor(wts, target=ARRAY_BUFFER),
    )
    indices = w.add_accessor(tris, target=ELEMENT_ARRAY_BUFFER)
    mesh = w.add(
        "meshes", Mesh(name="Body", primitives=[Primitive(attributes=attributes, indices=indices, material=material)])
    )
    inverse_bind = np.tile(np.eye(4), (len(names), 1, 1))
    inverse_bind[:, :3, 3] = -world  # rest rotations are identity: the inverse bind is the opposite translation
    skin = w.add(
        "skins",
        Skin(
            name="Body skin",
            inverseBindMatrices=w.add_accessor(inverse_bind),
            joints=list(range(len(names))),
            skeleton=0,
        ),
    )
    return w.add("nodes", Node(name="Body", mesh=mesh, skin=skin))


def take_variant(seconds: float, fps: float = 60.0, joints: int = 60, seed: int = 5, mesh: bool = True) -> Variant:
    """The settings of one long take: ``mocap_walk``'s gait and jitter, wandering root, every key LINEAR."""
    return Variant(
        "take", seed=seed, fps=fps, seconds=seconds, gait_hz=0.9, rot_noise_deg=0.1, trans_noise_m=1e-4,
        joints=joints, wander=True, mesh=mesh,
    )  # fmt: skip


def write_take(
    path: str | Path,
    seconds: float,
    fps: float = 60.0,
    joints: int = 60,
    meshopt: str | None = None,
    seed: int = 5,
    mesh: bool = True,
) -> Path:
    """Write one long take (see the module docstring) to ``path``; ``meshopt``: None, "plain" or "filtered"."""
    doc, data = build(take_variant(seconds, fps, joints, seed, mesh), quaternions=meshopt == "filtered")
    if meshopt is not None:
        doc, data = compress_animation(doc, data, filtered=meshopt == "filtered")
    return writer.save(doc, data, path)


def compress_animation(doc: dict, data: bytes, filtered: bool) -> tuple[dict, bytes]:
    """Every animation view compressed (EXT_meshopt_compression ATTRIBUTES, lossless), rotation outputs
    through the QUATERNION filter when ``filtered`` (they must already be stored as its 16-bit form)."""
    from viewer.files.meshopt_pack import compress_views, packed_dict

    w = writer.JsonWriter(doc)
    w.bin = bytearray(data)
    accessors = doc["accessors"]
    views: dict[int, str | None] = {}
    for animation in doc.get("animations", []):
        for channel in animation["channels"]:
            sampler = animation["samplers"][channel["sampler"]]
            rotation = filtered and channel["target"]["path"] == "rotation"
            views[accessors[sampler["input"]]["bufferView"]] = None
            views[accessors[sampler["output"]]["bufferView"]] = "QUATERNION" if rotation else None
    compress_views(w, views)
    return packed_dict(w), w.bin_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path, help="folder for the mocap_*.glb files")
    parser.add_argument("--long", action="store_true", help="write mocap_long.glb (600 s, 60 fps) instead")
    parser.add_argument("--take", type=float, metavar="SECONDS", help="write one long take of this duration instead")
    parser.add_argument("--joints", type=int, default=60, help="--take: joints (default 60)")
    parser.add_argument("--fps", type=float, default=60.0, help="--take: keys per second (default 60)")
    parser.add_argument("--meshopt", choices=("plain", "filtered"), help="--take: compress the animation views")
    parser.add_argument("--no-mesh", action="store_true", help="--take: the skeleton alone, no skinned mesh")
    parser.add_argument("--seed", type=int, default=5, help="--take: random seed (default 5)")
    parser.add_argument("--name", help="--take: the file name (default take_<N>j_<fps>fps_<seconds>s[...].glb)")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    if args.take is not None:
        suffix = f"_meshopt_{args.meshopt}" if args.meshopt else ""
        name = args.name or f"take_{args.joints}j_{args.fps:g}fps_{args.take:g}s{suffix}.glb"
        path = write_take(
            args.outdir / name, args.take, args.fps, args.joints, args.meshopt, args.seed, not args.no_mesh
        )
        keys = int(round(args.take * args.fps)) + 1
        print(f"{path}: {args.joints} joints, {keys} keys per channel, {path.stat().st_size} bytes")
        return 0
    for v in [LONG] if args.long else VARIANTS:
        doc, data = build(v)
        path = writer.save(doc, data, args.outdir / f"{v.name}.glb")
        keys = int(round(v.seconds * v.fps)) + 1
        channels = len(doc["animations"][0]["channels"])
        print(f"{path}: {len(doc['nodes']) - 1} joints, {channels} channels x {keys} keys, {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
