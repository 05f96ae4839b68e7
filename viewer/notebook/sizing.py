"""How big a streamed frame is: the widget's size in device pixels, capped near one megapixel.

A notebook cell can be dragged to any size and a HiDPI screen doubles it; every pixel is rendered on the kernel's
machine (llvmpipe on a VM) and sent over the notebook's websocket, so the frame follows the widget but never
grows past ``MAX_PIXELS``: above it the picture is scaled down with its aspect kept and the browser scales it
back up. Sizes are whole pixels, at least ``MIN_SIDE`` on each side.
"""

from __future__ import annotations

import math

MAX_PIXELS = 1 << 20  # 1 048 576: 1024 × 1024, or 1182 × 887 at 4:3
MIN_SIDE = 16
MAX_SIDE = 4096  # what ``viewer.show(size=...)`` accepts


def frame_size(width: float, height: float, ratio: float = 1.0, cap: int = MAX_PIXELS) -> tuple[int, int]:
    """(width, height) pixels to render for a view ``width`` × ``height`` CSS pixels at ``ratio`` device pixels
    per CSS pixel: the device size, scaled down with its aspect kept while it holds more than ``cap`` pixels."""
    ratio = ratio if math.isfinite(ratio) and ratio > 0 else 1.0
    w = max(float(width) * ratio, 1.0) if math.isfinite(width) else 1.0
    h = max(float(height) * ratio, 1.0) if math.isfinite(height) else 1.0
    if w * h > cap:
        shrink = math.sqrt(cap / (w * h))
        w, h = w * shrink, h * shrink
    w, h = max(int(w), MIN_SIDE), max(int(h), MIN_SIDE)
    while w * h > cap:  # MIN_SIDE on a very thin view, or rounding: shave the longer side
        if w >= h:
            w -= 1
        else:
            h -= 1
    return w, h


def check_size(size) -> tuple[int, int]:
    """``viewer.show``'s ``size=(w, h)`` as whole CSS pixels; ValueError in one line otherwise."""
    try:
        w, h = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height) in pixels, got {size!r}") from None
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise ValueError(f"size must be between {MIN_SIDE} and {MAX_SIDE} pixels a side, got {w}x{h}")
    return w, h
