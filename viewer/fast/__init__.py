"""Whether the compiled frame kernels (``fast/kernels.py``, numba) are in use, and getting them ready
without making anyone wait.

Importing numba costs 0.15–0.35 s and a cold compile several seconds, so nothing imports it on the way to
a first picture: ``start()`` loads the kernels in a background thread, and until they are ready every
caller keeps using the numpy reference (``animation/table.py``, ``pose.py``), which gives the same values.
A cold compile runs in a child process first (``python -m viewer.fast.build``): it fills numba's on-disk
cache on the other core without holding this process's GIL, so a window keeps drawing; this process then
loads the kernels from that cache (≈0.2 s). Where the cache cannot be written, the thread compiles them
itself.

``ANIMVIEW_KERNEL=numpy`` keeps the numpy path (for comparisons); numba missing does the same.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
import time
from types import ModuleType

_kernels: ModuleType | None = None
_state = "not started"
_detail = ""
_ready_s: float | None = None
_lock = threading.Lock()
_thread: threading.Thread | None = None
_done = threading.Event()
BUILD_TIMEOUT_S = 300.0
# The kernels' own functions and the helpers they call (numba caches each under its name).
KERNELS = ("sample", "sample_batch", "pose_frame", "_sample_channels", "_region", "_apply", "_product")


def active() -> ModuleType | None:
    """The kernels module when it is ready and in use, else None (use numpy). The hot paths' one check."""
    return _kernels


def state() -> str:
    """ "not started", "loading", "ready", "numpy" (asked for, or numba missing) or "failed", with why."""
    return f"{_state} ({_detail})" if _detail else _state


def label() -> str:
    """How the window names the path in use: "compiled", "numpy (compiling)" or "numpy"."""
    if _kernels is not None:
        return "compiled"
    return "numpy (compiling)" if _state == "loading" else "numpy"


def ready_seconds() -> float | None:
    """Seconds from ``start()`` to ready, for the stats line and docs/speed.md's start-up figures."""
    return _ready_s


def start(background: bool = True) -> None:
    """Begin loading the kernels (once per process); ``background=False`` returns when they are ready."""
    global _state, _detail, _thread
    with _lock:
        if _thread is not None or _state in ("ready", "numpy"):
            pass
        elif os.environ.get("ANIMVIEW_KERNEL", "").lower() == "numpy":
            _state, _detail = "numpy", "ANIMVIEW_KERNEL=numpy"
            _done.set()
        elif importlib.util.find_spec("numba") is None:
            _state, _detail = "numpy", "numba not installed"
            _done.set()
        else:
            _state = "loading"
            _thread = threading.Thread(target=_load, name="animview-kernels", daemon=True)
            _thread.start()
    if not background:
        wait()


def wait(timeout: float | None = None) -> bool:
    """Block until loading has ended (ready, numpy or failed); True when the kernels are in use."""
    _done.wait(timeout)
    return _kernels is not None


def use(on: bool) -> None:
    """Switch the loaded kernels on or off for this process (tests and ``bench`` compare both paths)."""
    global _kernels
    if on:
        start(background=False)
        from viewer.fast import warm

        _kernels = warm.module() if _state == "ready" else None
    else:
        _kernels = None


def _load() -> None:
    global _kernels, _state, _detail, _ready_s
    started = time.perf_counter()
    try:
        if not _cache_looks_warm():
            _build_in_child()
        from viewer.fast import warm

        module = warm.compile_all()
    except Exception as exc:  # a broken numba install must never stop the viewer: numpy goes on
        _state, _detail = "failed", f"{type(exc).__name__}: {exc}"[:200]
    else:
        _ready_s = time.perf_counter() - started
        _kernels, _state = module, "ready"
    finally:
        _done.set()


def child_env() -> dict[str, str]:
    """This environment, with the folder holding ``viewer`` first on PYTHONPATH: a child ``python -m viewer…``
    imports this same code, from a checkout as from an installed wheel."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))


def _cache_looks_warm() -> bool:
    """numba's cache index for every kernel sits beside the source, newer than it (then loading here is
    quick and the child would only cost a second interpreter start). A cache elsewhere reads as cold."""
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "kernels.py")
    cache = os.path.join(here, "__pycache__")
    try:
        stamp = os.path.getmtime(source)
        found = [n for n in os.listdir(cache) if n.startswith("kernels.") and n.endswith(".nbi")]
        return len(found) >= len(KERNELS) and all(os.path.getmtime(os.path.join(cache, n)) >= stamp for n in found)
    except OSError:
        return False


def _build_in_child() -> None:
    """Fill the on-disk cache from a child process; any failure just leaves the compile to this one."""
    try:
        subprocess.run(
            [sys.executable, "-m", "viewer.fast.build"],
            timeout=BUILD_TIMEOUT_S,
            env=child_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        pass
