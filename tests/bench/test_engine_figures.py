"""``bench.figures.measure_engines``: one per-frame figure per engine (and the spec's), from the engine's own
emulated clip, each a positive number of microseconds."""

from __future__ import annotations

from tests.engines.conftest import STEP_KEYS, one_node
from viewer import engines
from viewer.bench.figures import measure_engines


def test_every_engine_gets_a_per_frame_figure(tmp_path):
    cubic = dict(node=0, path="scale", interpolation="CUBICSPLINE", times=[0, 1, 3], values=[[0.0, 0, 0]] * 9)
    scene = one_node(tmp_path, [STEP_KEYS, cubic])
    figures = measure_engines(scene, 5)
    assert set(figures) == {f"engine_{name}_us_per_frame" for name in engines.NAMES}
    assert all(v > 0 for v in figures.values())
