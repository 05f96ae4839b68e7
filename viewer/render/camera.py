"""Cameras: an orbit camera that fits the scene's bounds, and the file's own glTF cameras.

Every camera answers ``matrices(pose, aspect) -> (view, projection)``, both (4, 4) float64 in math
convention (column vectors; ``math3d.to_gl`` converts at the GL boundary). Units are the scene's
(metres in glTF); angles are radians. glTF convention: +Y up, the front of a model faces +Z, so the
default orbit view looks from +Z (towards the viewer), a little to the right and above.

Hostile numbers stop here, not in the renderer: ``OrbitCamera.fit`` takes any bounds (``limits.
view_bounds``: huge, tiny, zero-size or non-finite), and a glTF camera's planes, field of view and
magnifications are clamped to what a float32 projection holds (``safe_projection``); a camera node
whose world matrix is singular or not finite looks down -Z from where it can (never NaN).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from viewer.base import math3d
from viewer.pose.pose import Pose
from viewer.render.limits import F32_MAX, MAX_EXTENT, drawable, view_bounds
from viewer.scene.scene import Camera, Scene

DEFAULT_YAW = math.radians(30.0)  # from +Z towards +X
DEFAULT_PITCH = math.radians(18.0)  # above the horizon
DEFAULT_FOV = math.radians(40.0)
FIT_MARGIN = 1.1  # the fitted box fills ~90 % of the narrower side
MAX_PITCH = math.radians(89.0)
MIN_FOV = 1e-6  # radians: yfov is clamped to [MIN_FOV, π - MIN_FOV]
MIN_PLANE, MAX_PLANE = 1e-30, 1e30  # clip plane distances and orthographic magnifications
MIN_DEPTH_RANGE = 1e-6  # far - near, relative to far: keeps the depth terms finite


def orthographic(xmag: float, ymag: float, near: float, far: float) -> np.ndarray:
    """glTF 2.0 §3.10.3 orthographic projection (xmag, ymag: half width and height)."""
    m = np.eye(4)
    m[0, 0], m[1, 1] = 1.0 / xmag, 1.0 / ymag
    m[2, 2], m[2, 3] = 2.0 / (near - far), (far + near) / (near - far)
    return m


@dataclass
class OrbitCamera:
    """Looks at ``target`` from ``distance`` along the direction given by yaw and pitch.

    Attributes:
        target: (3,) world point orbited around.
        distance: eye-to-target distance, scene units.
        yaw: radians, rotation about world +Y from +Z towards +X.
        pitch: radians, elevation above the XZ plane (clamped to ±89°).
        fov_y: vertical field of view, radians.
        radius: radius of the fitted bounds (sets near / far planes).
    """

    target: np.ndarray = field(default_factory=lambda: np.zeros(3))
    distance: float = 5.0
    yaw: float = DEFAULT_YAW
    pitch: float = DEFAULT_PITCH
    fov_y: float = DEFAULT_FOV
    radius: float = 1.0

    def fit(self, lo: np.ndarray, hi: np.ndarray, aspect: float = 1.0) -> "OrbitCamera":
        """Frame the box [lo, hi] (e.g. ``clip_bounds`` over a whole clip) from the current yaw and pitch:
        the target is the box centre and the distance the smallest that keeps all 8 corners inside the
        view with ``FIT_MARGIN`` to spare (tighter than a bounding sphere for long, flat models)."""
        self.target, half, self.radius = view_bounds(lo, hi)
        rot = math3d.look_at(self.direction(), np.zeros(3), np.array([0.0, 1.0, 0.0]))[:3, :3]
        signs = np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)])
        cam = (signs * half) @ rot.T  # corner offsets on the camera's right, up, back axes
        tan_y = math.tan(0.5 * self.fov_y) / FIT_MARGIN
        tan_x = tan_y * aspect
        # a corner at (x, y, back) is in view when |x| <= tan_x * (d - back), and likewise for y
        need = np.maximum(np.abs(cam[:, 0]) / tan_x, np.abs(cam[:, 1]) / tan_y) + cam[:, 2]
        self.distance = max(float(need.max()), 1e-3 * self.radius)
        return self

    def direction(self) -> np.ndarray:
        """Unit vector from the target towards the eye."""
        cp = math.cos(self.pitch)
        return np.array([math.sin(self.yaw) * cp, math.sin(self.pitch), math.cos(self.yaw) * cp])

    def eye(self) -> np.ndarray:
        return self.target + self.distance * self.direction()

    def orbit(self, d_yaw: float, d_pitch: float) -> None:
        """Turn around the target (radians); pitch stops short of the poles so "up" stays defined."""
        self.yaw += d_yaw
        self.pitch = float(np.clip(self.pitch + d_pitch, -MAX_PITCH, MAX_PITCH))

    def pan(self, dx: float, dy: float) -> None:
        """Move target and eye in the view plane; dx, dy are fractions of the view height at the target."""
        view = self.view()
        right, up = view[0, :3], view[1, :3]
        height = 2.0 * self.distance * math.tan(0.5 * self.fov_y)
        self.target = self.target - right * dx * height + up * dy * height

    def zoom(self, factor: float) -> None:
        """Scale the distance (factor < 1 moves closer)."""
        self.distance = float(np.clip(self.distance * factor, 1e-4 * self.radius, 1e4 * self.radius))

    def view(self) -> np.ndarray:
        return math3d.look_at(self.eye(), self.target, np.array([0.0, 1.0, 0.0]))

    def projection(self, aspect: float) -> np.ndarray:
        """Perspective with near / far around the fitted bounding sphere: near just short of the sphere
        (every point of the bounds is at least ``distance - radius`` away), far past the ground grid."""
        near = max(0.9 * (self.distance - self.radius), 1e-4 * self.distance)
        far = self.distance + 4.0 * self.radius  # the grid reaches 2.5 radii from the centre
        return math3d.perspective(self.fov_y, aspect, near, far)

    def matrices(self, pose: Pose | None, aspect: float) -> tuple[np.ndarray, np.ndarray]:
        return self.view(), self.projection(aspect)


# Object Model field (object_model.py) → ``scene.Camera`` attribute
CAMERA_FIELDS = {
    "yfov": "yfov",
    "aspectRatio": "aspect",
    "znear": "znear",
    "zfar": "zfar",
    "xmag": "xmag",
    "ymag": "ymag",
}


@dataclass
class GltfCamera:
    """A camera of the file, seen from the node that carries it (its world matrix now, scale removed).

    The viewport's aspect ratio is used rather than ``aspectRatio`` so the picture is never stretched. What a
    KHR_animation_pointer channel animates (yfov, planes, magnifications) replaces the file's value each frame.
    """

    camera: Camera
    node: int
    index: int = -1  # the glTF camera, whose animated values ``Pose.properties`` holds

    def matrices(self, pose: Pose, aspect: float) -> tuple[np.ndarray, np.ndarray]:
        return camera_view(pose.world[self.node]), safe_projection(self.now(pose), aspect)

    def now(self, pose: Pose | None) -> Camera:
        """The camera with this frame's animated values."""
        fields = pose.properties.get(("camera", self.index)) if pose is not None else None
        if not fields:
            return self.camera
        return replace(self.camera, **{CAMERA_FIELDS[k]: float(v[0]) for k, v in fields.items() if k in CAMERA_FIELDS})


def camera_view(world: np.ndarray) -> np.ndarray:
    """View matrix of a camera node's world matrix, its scale ignored (glTF 2.0 §3.10.1).

    The axes are normalized and the inverse taken when that is well defined; a node scaled to 0 (or
    sheared flat) or with a non-finite or huge matrix gets the unrotated view from its position, or from
    the origin when that is unusable too.
    """
    world = np.array(world, dtype=np.float64)
    fallback = np.eye(4)
    if not drawable(world):
        return fallback
    position = np.clip(world[:3, 3], -MAX_EXTENT, MAX_EXTENT)
    fallback[:3, 3] = -position
    norms = np.linalg.norm(world[:3, :3], axis=0)
    if not (norms > 0.0).all():
        return fallback
    world[:3, :3] /= norms
    world[:3, 3] = position
    if abs(np.linalg.det(world[:3, :3])) < 1e-6:  # unit axes nearly parallel: no orientation to invert
        return fallback
    return np.linalg.inv(world)


def safe_projection(c: Camera, aspect: float) -> np.ndarray:
    """The projection of a glTF camera with its numbers clamped to what float32 holds: yfov in
    [MIN_FOV, π - MIN_FOV], planes and magnifications in [MIN_PLANE, MAX_PLANE] (xmag, ymag keep their
    sign: a negative one mirrors), far at least MIN_DEPTH_RANGE beyond near, beyond MAX_PLANE infinite."""
    near = min(max(c.znear, MIN_PLANE), MAX_PLANE)
    far = c.zfar
    if c.type == "orthographic":
        near = min(max(c.znear, 0.0), MAX_PLANE)  # 0 is a valid orthographic near plane
        far = min(
            max(far if far is not None else near + 1.0, near + max(near * MIN_DEPTH_RANGE, MIN_PLANE)), 2.0 * MAX_PLANE
        )
        return orthographic(_magnification(c.xmag), _magnification(c.ymag), near, far)
    if far is not None:
        far = None if far > MAX_PLANE else max(far, near * (1.0 + MIN_DEPTH_RANGE))
    fov = min(max(c.yfov, MIN_FOV), math.pi - MIN_FOV)
    return math3d.perspective(fov, min(max(aspect, 1.0 / F32_MAX), F32_MAX), near, far)


def _magnification(mag: float) -> float:
    """|mag| clamped to [MIN_PLANE, MAX_PLANE], its sign kept (0 counts as positive)."""
    return math.copysign(min(max(abs(mag), MIN_PLANE), MAX_PLANE), mag)


def gltf_camera(scene: Scene, index: int) -> GltfCamera:
    """glTF camera ``index`` on the first node that uses it.

    Raises:
        ValueError: no camera ``index``, or no node carries it.
    """
    if not 0 <= index < len(scene.cameras):
        raise ValueError(f"no camera {index} (the file has {len(scene.cameras)})")
    nodes = np.flatnonzero(scene.nodes.camera == index)
    if not len(nodes):
        raise ValueError(f"camera {index} is not placed on any node")
    return GltfCamera(scene.cameras[index], int(nodes[0]), index)


def eye_position(view: np.ndarray) -> np.ndarray:
    """World position (3,) of the eye of a view matrix."""
    rot, t = view[:3, :3], view[:3, 3]
    return -rot.T @ t
