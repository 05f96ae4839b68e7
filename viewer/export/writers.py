"""Frame sources to files: one PNG, a numbered PNG sequence, a GIF, an MP4.

A frame source is an ``Offscreen`` (plain, compare panes or with the overlay): anything with
``frame(t) -> (h, w, 3) uint8`` and ``release()``. Writers only iterate its frames, so every export
format serves every kind of picture, and a new format is one function in ``writer_for``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterable

import moderngl
import numpy as np

from viewer.animation.clip import Clip
from viewer.export.offscreen import Offscreen, View, frame_times
from viewer.scene.scene import Scene

# zlib level 1: a third of the default level's time on a rendered frame (16 of 30 ms at 640×480), for files
# a fifth larger; the pixels are the same.
PNG_COMPRESS_LEVEL = 1


def save_png(path: str | Path, rgb: np.ndarray) -> None:
    from PIL import Image

    Image.fromarray(rgb).save(path, compress_level=PNG_COMPRESS_LEVEL)


def free_path(folder: str | Path, stem: str, suffix: str) -> Path:
    """``stem + suffix`` in ``folder``, numbered (``stem-1``, ``stem-2`` …) so no file is overwritten. The folder
    is made if missing: a ``--screenshot-dir`` not made yet failed the window's first P or E."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path, n = folder / f"{stem}{suffix}", 1
    while path.exists():
        path, n = folder / f"{stem}-{n}{suffix}", n + 1
    return path


def render_png(
    scene: Scene,
    out: str | Path,
    t: float,
    clip: Clip | None = None,
    view: View | None = None,
    ctx: moderngl.Context | None = None,
) -> np.ndarray:
    """Render one frame at clip time ``t`` (seconds) and write it to the PNG ``out``; returns the pixels."""
    return write_png(Offscreen(scene, clip, view, ctx), out, t)


def write_png(off: Offscreen, out: str | Path, t: float) -> np.ndarray:
    """One frame of the source ``off`` (plain, with the overlay, or compare panes) to a PNG; releases it."""
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


def export_clip(
    scene: Scene,
    out: str | Path,
    clip: Clip | None,
    start: float,
    end: float,
    fps: float,
    view: View | None = None,
    quiet: bool = True,
    ctx: moderngl.Context | None = None,
) -> int:
    """Write the frames of ``frame_times(start, end, fps)`` to ``out``: a ``%d`` pattern → numbered PNGs,
    ``.gif`` → an animated GIF (looping), ``.mp4`` → H.264 video at ``fps``. Returns the frame count."""
    return write_clip(Offscreen(scene, clip, view, ctx), out, start, end, fps, quiet)


def write_clip(off: Offscreen, out: str | Path, start: float, end: float, fps: float, quiet: bool = True) -> int:
    """The frames of ``frame_times(start, end, fps)`` from the source ``off`` to ``out`` (see ``export_clip``);
    releases it."""
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

    # GIF delays are whole centiseconds: one rounded delay (30 ms for 33.3) would play a 30 fps GIF 10 % fast,
    # so each frame gets the step between its rounded start and the next one's (30, 40, 30, … ms).
    stack = np.stack(list(frames))
    starts = np.round(np.arange(len(stack) + 1) * 100.0 / fps)
    delays = (np.diff(starts) * 10).astype(int).tolist()
    iio.imwrite(out, stack, extension=".gif", duration=delays if len(set(delays)) > 1 else delays[0], loop=0)


def _write_mp4(out: str, frames, fps: float) -> None:
    import imageio.v2 as iio2

    writer = iio2.get_writer(
        out,
        format="FFMPEG",
        mode="I",
        fps=fps,
        codec="libx264",
        quality=8,
        pixelformat="yuv420p",
        macro_block_size=1,
        ffmpeg_log_level="error",
    )
    try:
        for rgb in frames:
            writer.append_data(rgb)
    finally:
        writer.close()
