"""How each engine will play a file: an evaluator per runtime beside the spec's interpolation modes — the clip
rewritten the way that engine imports and samples it (``engine.Engine``), one module per engine naming the
version it models and, per behaviour, the engine's source file and function. Pure numpy: ``sample``, ``diff``
and the library's checks use it without a window."""

from __future__ import annotations

import importlib

from viewer.engines.engine import Behaviour, Engine

NAMES = ("spec", "three", "babylon", "ksv", "filament", "godot", "gltfast", "pygfx", "blender", "vtk")


def get(name: str) -> Engine:
    """The engine named ``name`` (one of ``NAMES``); ValueError with the names for any other."""
    if name not in NAMES:
        raise ValueError(f"unknown engine {name!r}; choose from {', '.join(NAMES)}")
    return importlib.import_module(f"viewer.engines.{name}").ENGINE


__all__ = ["NAMES", "Behaviour", "Engine", "get"]
