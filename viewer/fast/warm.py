"""Compiling (or loading from numba's cache) every kernel for exactly the argument types the callers pass.

Each kernel is called once on tiny arrays of the runtime dtypes and layouts (C-contiguous), then its
dispatcher is closed to new compiles: an argument of another type raises ``TypeError`` (the caller falls
back to numpy) instead of stalling a frame for seconds on a surprise compile.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np


def compile_all() -> ModuleType:
    """Import the kernels, make each ready for the callers' types, and return the module."""
    from viewer.fast import kernels as k
    from viewer.fast.kernels_layout import T_ROTATION

    coef, seg = np.zeros((4, 2, 4)), np.array([[0.0, -np.inf, 0.0, 0.0, 1.0], [0.0, 0.0, np.inf, 0.0, 1.0]])
    ktimes, ch = np.zeros(1), np.array([[0, 1, 0, T_ROTATION, 0, -1, 0]], dtype=np.int64)
    norm, last = np.zeros(1), np.zeros(1, dtype=np.int64)
    k.sample(0.0, -1.0, 1.0, coef, seg, ktimes, ch, norm, last, np.zeros((1, 1, 4)))
    k.sample_batch(np.zeros(2), -1.0, 1.0, coef, seg, ktimes, ch, norm, last, np.zeros((2, 1, 4)))
    from viewer.fast.kernels_layout import HEADER

    none = np.zeros(0, dtype=bool)
    k.pose_frame(
        0.0, coef, seg, ktimes, np.array([-1.0, 1.0]), np.zeros(HEADER, dtype=np.int64), none, np.zeros(0), none
    )
    for fn in (k.sample, k.sample_batch, k.pose_frame):
        fn.disable_compile()
    return k


def module() -> ModuleType:
    """The kernels module, compiled (``compile_all`` once per process)."""
    global _module
    if _module is None:
        _module = compile_all()
    return _module


_module: ModuleType | None = None
