"""What a notebook keeps of a player when the kernel is gone: a poster image and a static player of pre-rendered
frames, added to the widget's output (``Player._repr_mimebundle_``) so nbconvert's HTML still plays offline.

nbconvert drops a widget whose state was not saved and shows the next richest output — ``text/html`` — so the
fallback is that HTML: ``FRAMES`` JPEG frames evenly over the clip (its first and last time included) for each
view in ``sets`` (the plain view in a few modes, or the panes as shown), at most ``WIDTH`` pixels wide. The
whole page is held under ``CAP_BYTES``: a clip too rich for it keeps fewer frames, then lower quality, then
fewer sets — never a page over the cap, which is also what a notebook file pays per player; and since drawing
it holds up the cell that displays the player, a scene too slow to draw them all in ``BUDGET_S`` gets fewer.
Frames are drawn by the player's own ``draw`` (the stage, the camera on screen), so the copy is the live picture.
"""

from __future__ import annotations

import base64
import io
import time
from collections.abc import Callable

import numpy as np

from viewer.animation.modes import MODES

FRAMES = 24
WIDTH = 360
QUALITY = 60
MIN_QUALITY = 25
CAP_BYTES = 1_000_000
BUDGET_S = 3.0  # drawing the copy holds up the cell that displays the player: a heavy scene gets fewer frames
POSTER_QUALITY = 85
MAX_SETS = 4  # views (modes) in one static copy


def copy_sets(items: tuple[str, ...], b: str | None, modes) -> list[tuple[str, str | None]]:
    """The static copy's views as (label, mode): the panes as shown (mode None) when there are any — compare
    ``items``, or A | ``b`` against another file —, else the plain view in each of ``modes`` (known ones, once
    each, at most ``MAX_SETS``)."""
    if b is not None:
        return [(f"A | {b}", None)]
    if items:
        return [(" | ".join(items), None)]
    known = [m for m in dict.fromkeys(modes) if m in MODES]
    return [(m, m) for m in known[:MAX_SETS]]


def jpeg(pixels: np.ndarray, quality: int) -> bytes:
    """(h, w, 3) uint8 as JPEG bytes: simplejpeg (the notebook extra's; 4:2:0, as small as a still needs),
    else Pillow."""
    try:
        import simplejpeg
    except ImportError:
        from PIL import Image

        out = io.BytesIO()
        Image.fromarray(pixels).save(out, format="JPEG", quality=quality)
        return out.getvalue()
    return simplejpeg.encode_jpeg(np.ascontiguousarray(pixels), quality=quality, colorsubsampling="420")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def fallback_times(duration: float, frames: int = FRAMES) -> np.ndarray:
    """``frames`` times from 0 to ``duration`` seconds, both ends included (one time for a still scene)."""
    if duration <= 0 or frames < 2:
        return np.zeros(1)
    return np.linspace(0.0, float(duration), int(frames))


def fallback_size(size: tuple[int, int], width: int = WIDTH) -> tuple[int, int]:
    """The live frame size scaled down (aspect kept) to at most ``width`` pixels wide."""
    w, h = size
    if w <= width:
        return int(w), int(h)
    return int(width), max(int(round(h * width / w)), 1)


def _thin(count: int, keep: int) -> list[int]:
    """``keep`` indices of ``count`` spread evenly, the first and the last always among them."""
    if keep >= count:
        return list(range(count))
    return sorted({int(round(i)) for i in np.linspace(0, count - 1, max(keep, 2))})


def fit_under_cap(
    times: np.ndarray, frames: list[tuple[str, list[np.ndarray]]], cap: int, page: Callable[..., str]
) -> tuple[str, dict]:
    """Encode ``frames`` — (label, pictures at ``times``) per set — into ``page(times, sets)``, keeping the page under
    ``cap`` bytes: fewer frames first (down to 2), then lower JPEG quality, then fewer sets. Returns the page and
    what it kept ({"frames", "quality", "sets", "bytes"})."""
    count, quality, sets = len(times), QUALITY, len(frames)
    while True:
        keep = _thin(len(times), count)
        encoded = [(label, [b64(jpeg(pics[i], quality)) for i in keep]) for label, pics in frames[:sets]]
        text = page([float(times[i]) for i in keep], encoded)
        size = len(text.encode("utf-8"))
        if size <= cap:
            return text, {"frames": len(keep), "quality": quality, "sets": sets, "bytes": size}
        if len(keep) > 2:
            count = max(2, min(len(keep) - 1, int(len(keep) * cap / size * 0.9)))
        elif quality > MIN_QUALITY:
            quality = max(MIN_QUALITY, quality - 20)
        elif sets > 1:
            sets -= 1
        else:
            raise ValueError(f"one frame of {frames[0][1][0].shape} does not fit a fallback of {cap} bytes")


def fallback_html(
    draw: Callable[[str | None, float, tuple[int, int]], np.ndarray],
    title: str,
    duration: float,
    sets: list[tuple[str, str | None]],
    size: tuple[int, int],
    page: Callable[..., str],
    frames: int = FRAMES,
    cap: int = CAP_BYTES,
) -> tuple[str, dict]:
    """The static player: ``draw(mode, t, size)`` for each set — (label, mode; None: the panes as shown) — at
    ``frames`` times, then ``fit_under_cap``. ``page(title, times, sets, size)`` writes the HTML."""
    times = fallback_times(duration, frames)
    sets = sets if len(times) > 1 else sets[:1]  # a still scene: one picture, whatever the mode
    small = fallback_size(size)
    first = draw(sets[0][1], float(times[0]), small)  # also re-aims the view at this size: not a typical frame
    started = time.perf_counter()
    last = draw(sets[0][1], float(times[-1]), small)
    per_frame = max(time.perf_counter() - started, 1e-6)
    if len(times) > 2 and per_frame * len(times) * len(sets) > BUDGET_S:  # a heavy scene: fewer frames, in time
        times = fallback_times(duration, max(2, int(BUDGET_S / (per_frame * len(sets)))))

    def drawn_for(k: int, mode: str | None) -> list[np.ndarray]:
        if k > 0:
            return [draw(mode, float(t), small) for t in times]
        if len(times) == 1:
            return [first]
        return [first, *(draw(mode, float(t), small) for t in times[1:-1]), last]  # every grid ends on the end

    pictures = [(label, drawn_for(k, mode)) for k, (label, mode) in enumerate(sets)]
    return fit_under_cap(times, pictures, cap, lambda ts, enc: page(title, ts, enc, small))


def poster(pixels: np.ndarray) -> str:
    """The picture as base64 JPEG, for the output's ``image/jpeg`` (what a viewer without HTML shows)."""
    return b64(jpeg(pixels, POSTER_QUALITY))
