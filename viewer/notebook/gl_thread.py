"""The player's GL thread: one thread owns the stage's EGL context, and every draw, pick and release runs there.

A kernel calls the player from more than one thread: a cell runs on the main thread, while JupyterLab (4.6 with
ipykernel 7, here) sends widget messages — the view's events, the browser's frame acknowledgements, and so the
draws they trigger — to a kernel subshell, a thread of its own. An EGL context is current on one thread at a time,
so a context used from two threads draws into the wrong state or not at all (a click's marker went missing so);
here the stage is made and used only on its own thread, calls from any thread queue up in order and wait for
their result, and a call made on the GL thread itself runs at once.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from viewer.notebook.stage import Stage


class StageThread:
    """A ``Stage`` living on its own thread, with ``Stage``'s methods (``draw``, ``auto_camera``, ``pick``,
    ``release``) called from any thread. Takes ``Stage``'s arguments."""

    def __init__(self, *args, **kwargs) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="animview-gl")
        self._thread: threading.Thread | None = None
        try:
            self.stage = self._call(self._start, *args, **kwargs)
        except BaseException:
            self._pool.shutdown(wait=False)
            raise

    def _start(self, *args, **kwargs) -> Stage:
        self._thread = threading.current_thread()
        return Stage(*args, **kwargs)

    def _call(self, fn, *args, **kwargs):
        if threading.current_thread() is self._thread:
            return fn(*args, **kwargs)
        return self._pool.submit(fn, *args, **kwargs).result()

    @property
    def plain(self):
        """The plain frame source (for tests and tools that read its pose or camera after a draw)."""
        return self.stage.plain

    @property
    def closed(self) -> bool:
        return self.stage is None

    def draw(self, shot):
        return self._call(self.stage.draw, shot)

    def auto_camera(self, shot):
        return self._call(self.stage.auto_camera, shot)

    def pick(self, x: float, y: float):
        return self._call(self.stage.pick, x, y)

    def release(self) -> None:
        """Free the GL objects and the context on their thread, then end the thread. Twice is once; at interpreter
        exit (a widget's ``__del__``), when the thread is already gone, the process takes the context with it."""
        stage, self.stage = self.stage, None
        if stage is not None:
            try:
                self._call(stage.release)
            except RuntimeError:  # "cannot schedule new futures after (interpreter) shutdown"
                pass
        self._pool.shutdown(wait=False)
