"""Rendering without a window: the one place an offscreen (EGL) OpenGL context is made, and export.

Frames come from the same ``Renderer`` the window uses, drawn into an ``OffscreenTarget`` (4× MSAA,
resolved) and read back. Exports: one PNG at a time, a numbered PNG sequence, a GIF, an MP4.

Frame times of a sequence (``frame_times``): ``start + k / fps`` for k = 0, 1, … while that is before
``end``, then ``end`` itself, so the last frame lands exactly on the end time and no frame lies past it
(BoxAnimated, 3.708 s at 10 fps: 0, 0.1, …, 3.7, 3.708 — 39 frames). A sequence file numbered k holds
frame k (numbering from 0). In a GIF or MP4 every frame is shown for 1/fps s.

Needs only Mesa's EGL and GL on Linux, no display (Debian/Ubuntu: ``libegl1 libegl-mesa0 libgl1
libgl1-mesa-dri``; glcontext loads libEGL.so.1 and libGL.so.1, Mesa brings llvmpipe when there is no GPU).
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import moderngl
import numpy as np

from viewer.animation.clip import Clip
from viewer.bounds import clip_bounds
from viewer.pose import Pose
from viewer.render.camera import OrbitCamera, gltf_camera
from viewer.render.renderer import Renderer, RenderOptions
from viewer.render.shaders import ProgramCache
from viewer.render.target import DEFAULT_SAMPLES, OffscreenTarget
from viewer.scene import Scene

END_EPSILON = 1e-6  # seconds: a grid time this close to the end time is the end frame itself


class HeadlessError(RuntimeError):
    """No offscreen OpenGL context could be made (the message says what the machine lacks)."""


def create_context() -> moderngl.Context:
    """A standalone OpenGL 3.3+ core context on EGL (no display needed).

    Raises:
        HeadlessError: EGL or a GL driver is missing, with a one-line hint.
    """
    try:
        return moderngl.create_standalone_context(backend="egl", require=330)
    except Exception as exc:  # glcontext raises bare Exceptions with the EGL error text
        raise HeadlessError(f"cannot create an offscreen OpenGL context with EGL ({exc}); install Mesa's EGL "
                            "(Debian/Ubuntu: libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri)") from exc


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
    """

    size: tuple[int, int] = (640, 480)
    camera: str | int = "auto"
    yaw: float | None = None
    pitch: float | None = None
    zoom: float = 1.0
    samples: int = DEFAULT_SAMPLES
    mode: str = "authored"
    options: RenderOptions = field(default_factory=RenderOptions)


class Offscreen:
    """A scene ready to render offscreen: context, renderer, pose, target and camera for one clip."""

    def __init__(self, scene: Scene, clip: Clip | None, view: View | None = None,
                 ctx: moderngl.Context | None = None, programs: ProgramCache | None = None) -> None:
        self.view = view or View()
        self._own_ctx = ctx is None  # a context made here is released with the renderer
        self.ctx = ctx or create_context()
        self.scene, self.clip = scene, clip
        try:
            self.make_current()
            self.renderer = Renderer(self.ctx, scene, programs)
            self.target = OffscreenTarget(self.ctx, self.view.size, self.view.samples)
            lo, hi = clip_bounds(scene, clip, mode=self.view.mode)
            self.renderer.set_ground(lo, hi)
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


def save_png(path: str | Path, rgb: np.ndarray) -> None:
    from PIL import Image

    Image.fromarray(rgb).save(path)


def render_png(scene: Scene, out: str | Path, t: float, clip: Clip | None = None, view: View | None = None,
               ctx: moderngl.Context | None = None) -> np.ndarray:
    """Render one frame at clip time ``t`` (seconds) and write it to the PNG ``out``; returns the pixels."""
    return write_png(Offscreen(scene, clip, view, ctx), out, t)


def write_png(off: Offscreen, out: str | Path, t: float) -> np.ndarray:
    """One frame of ``off`` (any Offscreen: plain, with the overlay, or compare panes) to a PNG; releases it."""
    try:
        rgb = off.frame(t)
    finally:
        off.release()
    save_png(out, rgb)
    return rgb


def render_frames(off: Offscreen, times: Iterable[float], quiet: bool = True, what: str = "frames"):
    """Yield the picture at each time, with a progress bar on stderr unless ``quiet``."""
    times = list(times)
    from tqdm import tqdm

    with tqdm(total=len(times), unit="frame", desc=what, file=sys.stderr, disable=quiet, leave=False) as bar:
        for t in times:
            yield off.frame(t)
            bar.update(1)


def is_sequence_pattern(out: str) -> bool:
    """True for a printf-style numbered output such as ``frames/f_%04d.png``."""
    try:
        return out % 1 != out % 2
    except (TypeError, ValueError):
        return False


def export(scene: Scene, out: str | Path, clip: Clip | None, start: float, end: float, fps: float,
           view: View | None = None, quiet: bool = True, ctx: moderngl.Context | None = None) -> int:
    """Write the frames of ``frame_times(start, end, fps)`` to ``out``: a ``%d`` pattern → numbered PNGs,
    ``.gif`` → an animated GIF (looping), ``.mp4`` → H.264 video at ``fps``. Returns the frame count."""
    return write_clip(Offscreen(scene, clip, view, ctx), out, start, end, fps, quiet)


def write_clip(off: Offscreen, out: str | Path, start: float, end: float, fps: float, quiet: bool = True) -> int:
    """The frames of ``frame_times(start, end, fps)`` from ``off`` to ``out`` (see ``export``); releases it."""
    out = str(out)
    times = frame_times(start, end, fps)
    try:
        writer_for(out)(out, render_frames(off, times, quiet, Path(out).name), fps)
    finally:
        off.release()
    return len(times)


def writer_for(out: str) -> Callable:
    if is_sequence_pattern(out):
        return _write_sequence
    suffix = Path(out).suffix.lower()
    if suffix == ".gif":
        return _write_gif
    if suffix == ".mp4":
        return _write_mp4
    raise ValueError(f"cannot write {out!r}: use .png, .gif, .mp4 or a %d pattern")


def _write_sequence(out: str, frames, fps: float) -> None:
    for k, rgb in enumerate(frames):
        save_png(out % k, rgb)


def _write_gif(out: str, frames, fps: float) -> None:
    import imageio.v3 as iio

    # GIF delays are whole centiseconds; Pillow rounds the millisecond value we give
    iio.imwrite(out, np.stack(list(frames)), extension=".gif", duration=1000.0 / fps, loop=0)


def _write_mp4(out: str, frames, fps: float) -> None:
    import imageio.v2 as iio2

    writer = iio2.get_writer(out, format="FFMPEG", mode="I", fps=fps, codec="libx264", quality=8,
                             pixelformat="yuv420p", macro_block_size=1, ffmpeg_log_level="error")
    try:
        for rgb in frames:
            writer.append_data(rgb)
    finally:
        writer.close()
