"""Pictures without a window: offscreen frame sources and the files they are written to.

``offscreen`` makes the one EGL context kind and the plain ``Offscreen`` source; ``compare`` and
``overlay`` are sources that compose compare panes or the viewer's timeline and panels over the same
renderer; ``writers`` turns any source into a PNG, a numbered sequence, a GIF or an MP4. The UI never
imports this package (the layering test checks it): the window draws, export writes.
"""

from viewer.export.offscreen import HeadlessError, Offscreen, View, create_context, frame_times
from viewer.export.writers import (
    export_clip,
    is_sequence_pattern,
    render_frames,
    render_png,
    save_png,
    write_clip,
    write_png,
    writer_for,
)

__all__ = [
    "HeadlessError",
    "Offscreen",
    "View",
    "create_context",
    "frame_times",
    "export_clip",
    "is_sequence_pattern",
    "render_frames",
    "render_png",
    "save_png",
    "write_clip",
    "write_png",
    "writer_for",
]
