"""The streamed view: a ``jupyter_rfb.RemoteFrameBuffer`` whose frames the player draws and whose events it reads.

jupyter_rfb (anywidget underneath: no build step, no JS of ours) does the streaming: a draw is requested and runs
once, however many requests came before it (a burst of slider moves is one draw); at most
``max_buffered_frames`` frames are in flight until the browser acknowledges one, so a slow link gets fewer
frames, never a queue; frames go as JPEG while they change and a lossless PNG follows 0.3 s after the last; it
draws only while a view is visible; mouse, wheel, key and resize events come back as dicts. This class only
hands those two ends to the player, and keeps jupyter_rfb from displaying its error output on its own (the
player puts that output in its layout, under the controls).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
from IPython.utils.capture import capture_output
from jupyter_rfb import RemoteFrameBuffer

FRAMES_IN_FLIGHT = 2  # jupyter_rfb's default: one on the wire while the browser shows the other (3 measured no faster)
JPEG_QUALITY = 80
BORDER_PX = 1  # jupyter_rfb's view has a 1 px border inside its size: the picture gets the rest


class FrameView(RemoteFrameBuffer):
    """A remote frame buffer drawn by ``draw()`` and fed to ``on_event(event)``."""

    _event_compatibility = 2  # jupyter_rfb's current event dicts only ("type", "timestamp", "ratio")

    def __init__(
        self, draw: Callable[[], np.ndarray | None], on_event: Callable[[dict], None], size: tuple[int, int]
    ) -> None:
        with capture_output(stdout=True, stderr=False, display=True):  # its __init__ displays its Output widget
            w, h = size[0] + 2 * BORDER_PX, size[1] + 2 * BORDER_PX  # so the picture is ``size`` itself
            super().__init__(css_width=f"{w}px", css_height=f"{h}px")
        self.max_buffered_frames = FRAMES_IN_FLIGHT
        self.quality = JPEG_QUALITY
        self._draw, self._on_event = draw, on_event
        self._send_lock = threading.RLock()

    @property
    def errors(self):
        """The output widget where a failing draw or event shows its traceback."""
        return self._output_context

    def _rfb_maybe_draw(self) -> None:
        # jupyter_rfb decides, draws and counts a frame here; a kernel runs this on its main thread and on
        # JupyterLab's widget subshell, so one thread at a time keeps "at most N in flight" true
        with self._send_lock:
            super()._rfb_maybe_draw()

    def _rfb_lossless_draw(self) -> None:
        with self._send_lock:
            super()._rfb_lossless_draw()

    def get_frame(self) -> np.ndarray | None:
        return self._draw()

    def handle_event(self, event: dict) -> None:
        self._on_event(event)

    def frames_in_flight(self) -> int:
        """Frames sent and not yet acknowledged by the browser."""
        return self._rfb_frame_index - self._frame_feedback.get("index", 0)
