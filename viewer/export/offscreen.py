"""Rendering without a window: the one place an offscreen (EGL) OpenGL context is made, and the plain
frame source (``Offscreen``) that the compare and overlay sources build on.

Frames come from the same ``Renderer`` the window uses, drawn into an ``OffscreenTarget`` (4× MSAA,
resolved) and read back. A frame source is anything with ``frame(t)`` and ``release()``; ``writers.py``
turns one into a PNG, a numbered PNG sequence, a GIF or an MP4.

Frame times of a sequence (``frame_times``): ``start + k / fps`` for k = 0, 1, … while that is before
``end``, then ``end`` itself, so the last frame lands exactly on the end time and no frame lies past it
(BoxAnimated, 3.708 s at 10 fps: 0, 0.1, …, 3.7, 3.708 — 39 frames). A sequence file numbered k holds
frame k (numbering from 0). In a GIF or MP4 every frame is shown for 1/fps s.

Needs only Mesa's EGL and GL on Linux, no display (Debian/Ubuntu: ``libegl1 libegl-mesa0 libgl1
libgl1-mesa-dri``; glcontext loads libEGL.so.1 and libGL.so.1, Mesa brings llvmpipe when there is no GPU).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import moderngl
import numpy as np

from viewer.animation.clip import Clip
from viewer.pose.bounds import clip_bounds, pose_bounds
from viewer.pose.pose import Pose
from viewer.render.antialias import choose_for
from viewer.render.camera import OrbitCamera, gltf_camera
from viewer.render.renderer import Renderer, RenderOptions
from viewer.render.shaders import ProgramCache
from viewer.render.target import DEFAULT_SAMPLES, OffscreenTarget
from viewer.scene.scene import Scene

END_EPSILON = 1e-6  # seconds: a grid time this close to the end time is the end frame itself


class HeadlessError(RuntimeError):
    """No offscreen OpenGL context could be made (the message says what the machine lacks)."""


# The libraries' sonames on Linux. Without them glcontext asks ctypes.util.find_library, which runs
# `ldconfig -p` twice (about 15 ms of a 0.5 s render); with them it dlopens the very files that finds.
EGL_LIBRARIES = {"libgl": "libGL.so.1", "libegl": "libEGL.so.1"}


def create_context() -> moderngl.Context:
    """A standalone OpenGL 3.3+ core context on EGL (no display needed).

    The libraries are named by soname first; where those names do not load (another system's layout),
    glcontext's own search decides, and its error is the one reported.

    Raises:
        HeadlessError: EGL or a GL driver is missing, with a one-line hint.
    """
    try:
        ctx = moderngl.create_standalone_context(backend="egl", require=330, **EGL_LIBRARIES)
    except Exception:  # glcontext raises bare Exceptions with the EGL error text
        try:
            ctx = moderngl.create_standalone_context(backend="egl", require=330)
        except Exception as exc:
            raise HeadlessError(
                f"cannot create an offscreen OpenGL context with EGL ({exc}); install Mesa's EGL "
                "(Debian/Ubuntu: libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri)"
            ) from exc
    # moderngl reads ``info`` (limits such as GL_MAX_TEXTURE_SIZE) once and keeps it; read off-context — with
    # another context current, as when a process holds several — every limit is 0 for good. Read it now, while
    # this context is current (0.8 ms).
    _ = ctx.info
    return ctx


def pose_bounds_at(scene: Scene, clip: Clip | None, t: float, mode: str = "authored") -> tuple[np.ndarray, np.ndarray]:
    """Bounds of what is drawn at clip time ``t`` (seconds)."""
    pose = Pose(scene)
    pose.set_time(clip, t, mode)
    return pose_bounds(pose)


def travels(clip_lo, clip_hi, pose_lo, pose_hi, factor: float = 2.0) -> bool:
    """True when the clip's bounds are more than ``factor`` times the pose's on some axis beyond the
    pose's own size: the model crosses the scene, and a whole-clip camera would show it small."""
    size = float(np.max(np.asarray(pose_hi) - np.asarray(pose_lo)))
    return size > 0 and float(np.max(np.asarray(clip_hi) - np.asarray(clip_lo))) > factor * size


def frame_times(start: float, end: float, fps: float) -> np.ndarray:
    """Times (seconds) of a sequence from ``start`` to ``end`` at ``fps``: see the module docstring."""
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    if end <= start:
        return np.array([float(start)])
    steps = math.ceil((end - start) * fps - END_EPSILON * fps)  # k < steps ⇔ start + k/fps < end - ε
    times = start + np.arange(steps, dtype=np.float64) / fps
    return np.append(times, float(end))


@dataclass
class View:
    """How frames are taken: size, camera choice and overlays.

    Attributes:
        size: (width, height) pixels.
        camera: "auto" (orbit camera fitted to the whole clip's bounds) or a glTF camera index.
        yaw, pitch: orbit angles in degrees (None: the default front-right, slightly-above view).
        zoom: > 1 moves the auto camera closer.
        samples: MSAA samples (0 turns multisampling off).
        mode: interpolation mode used to sample the clip.
        frame_at: fit the auto camera to the pose at this time (seconds) instead of the whole clip — a
            single picture of a model that travels then fills the frame (None: the whole clip).
    """

    size: tuple[int, int] = (640, 480)
    camera: str | int = "auto"
    yaw: float | None = None
    pitch: float | None = None
    zoom: float = 1.0
    samples: int = DEFAULT_SAMPLES
    mode: str = "authored"
    options: RenderOptions = field(default_factory=RenderOptions)
    frame_at: float | None = None


class Offscreen:
    """A scene ready to render offscreen: context, renderer, pose, target and camera for one clip."""

    def __init__(
        self,
        scene: Scene,
        clip: Clip | None,
        view: View | None = None,
        ctx: moderngl.Context | None = None,
        programs: ProgramCache | None = None,
        clip_box: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        """``clip_box``: the whole clip's bounds in the view's mode when the caller has them already (the
        render command, deciding ``frame_at``): sampling a clip for them is most of a still's set-up."""
        self.view = view or View()
        self._own_ctx = ctx is None  # a context made here is released with the renderer
        self.ctx = ctx or create_context()
        self.scene, self.clip = scene, clip
        try:
            self.make_current()
            self.renderer = Renderer(self.ctx, scene, programs)
            samples, fxaa = choose_for(scene, self.view.options.look.aa, self.view.samples, self.view.size)
            self.target = OffscreenTarget(self.ctx, self.view.size, samples, fxaa, self.renderer.programs)
            lo, hi = clip_box if clip_box is not None else clip_bounds(scene, clip, mode=self.view.mode)
            self.renderer.set_ground(lo, hi)
            if self.view.frame_at is not None:
                lo, hi = pose_bounds_at(scene, clip, self.view.frame_at, self.view.mode)
        except BaseException:
            if self._own_ctx:
                self.ctx.release()
            raise
        self.pose = Pose(scene)
        self.camera = self._camera(lo, hi)

    def make_current(self) -> None:
        """Make this object's context the thread's current one, and leave it so.

        A process may hold several contexts (a script rendering two files, a test suite), and making or
        releasing one changes which is current; every method here calls this first. (``with ctx:`` is
        no substitute: on EGL its exit leaves no context current at all.)
        """
        self.ctx.__enter__()

    def _camera(self, lo: np.ndarray, hi: np.ndarray):
        v = self.view
        if v.camera != "auto":
            return gltf_camera(self.scene, int(v.camera))
        cam = OrbitCamera()
        if v.yaw is not None:
            cam.yaw = math.radians(v.yaw)
        if v.pitch is not None:
            cam.pitch = math.radians(v.pitch)
        cam.fit(lo, hi, v.size[0] / v.size[1])
        cam.distance /= v.zoom
        return cam

    def frame(self, t: float, components: int = 3) -> np.ndarray:
        """The picture at clip time ``t`` (seconds) as (height, width, components) uint8, top row first."""
        self.pose.set_time(self.clip, t, self.view.mode)
        self.make_current()
        self.renderer.render(self.pose, self.camera, self.target.fbo, self.view.options)
        pixels = self.target.read(components)
        return pixels.copy() if components == 4 else pixels  # 4 views a buffer the next read reuses

    def release(self) -> None:
        self.make_current()
        self.renderer.release()
        self.target.release()
        if self._own_ctx:
            self.renderer.programs.release()
            self.ctx.release()
