"""Cameras: an orbit camera that fits the scene's bounds, and the file's own glTF cameras.

Every camera answers ``matrices(pose, aspect) -> (view, projection)``, both (4, 4) float64 in math
convention (column vectors; ``math3d.to_gl`` converts at the GL boundary). Units are the scene's
(metres in glTF); angles are radians. glTF convention: +Y up, the front of a model faces +Z, so the
default orbit view looks from +Z (towards the viewer), a little to the right and above.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from viewer import math3d
from viewer.pose import Pose
from viewer.scene import Camera, Scene

DEFAULT_YAW = math.radians(30.0)     # from +Z towards +X
DEFAULT_PITCH = math.radians(18.0)   # above the horizon
DEFAULT_FOV = math.radians(40.0)
FIT_MARGIN = 1.1                     # the fitted box fills ~90 % of the narrower side
MAX_PITCH = math.radians(89.0)


def perspective(fov_y: float, aspect: float, near: float, far: float | None) -> np.ndarray:
    """OpenGL perspective projection; ``far=None`` is the infinite projection of glTF 2.0 §3.10.3."""
    if far is not None:
        return math3d.perspective(fov_y, aspect, near, far)
    f = 1.0 / math.tan(0.5 * fov_y)
    m = np.zeros((4, 4))
    m[0, 0], m[1, 1] = f / aspect, f
    m[2, 2], m[2, 3], m[3, 2] = -1.0, -2.0 * near, -1.0
    return m


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
        lo, hi = np.asarray(lo, np.float64), np.asarray(hi, np.float64)
        self.target = 0.5 * (lo + hi)
        self.radius = max(0.5 * float(np.linalg.norm(hi - lo)), 1e-6)
        rot = math3d.look_at(self.direction(), np.zeros(3), np.array([0.0, 1.0, 0.0]))[:3, :3]
        corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
        cam = (corners - self.target) @ rot.T  # corner offsets on the camera's right, up, back axes
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


@dataclass
class GltfCamera:
    """A camera of the file, seen from the node that carries it (its world matrix now, scale removed).

    The viewport's aspect ratio is used rather than ``aspectRatio`` so the picture is never stretched.
    """

    camera: Camera
    node: int

    def matrices(self, pose: Pose, aspect: float) -> tuple[np.ndarray, np.ndarray]:
        world = np.array(pose.world[self.node], dtype=np.float64)
        axes = world[:3, :3]
        world[:3, :3] = axes / np.maximum(np.linalg.norm(axes, axis=0), 1e-12)  # glTF: scale is ignored
        view = np.linalg.inv(world)
        c = self.camera
        if c.type == "orthographic":
            return view, orthographic(c.xmag, c.ymag, c.znear, c.zfar or c.znear + 1.0)
        return view, perspective(c.yfov, aspect, c.znear, c.zfar)


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
    return GltfCamera(scene.cameras[index], int(nodes[0]))


def eye_position(view: np.ndarray) -> np.ndarray:
    """World position (3,) of the eye of a view matrix."""
    rot, t = view[:3, :3], view[:3, 3]
    return -rot.T @ t
