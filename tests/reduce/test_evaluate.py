"""``evaluate.sample_curve`` agrees with the viewer's tables (``Clip.sample``) in every authored interpolation."""

from __future__ import annotations

import numpy as np
import pytest

from tests.reduce.conftest import axis_angle
from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import Curve
from viewer.reduce.evaluate import sample_curve


@pytest.mark.parametrize("interp", ["LINEAR", "STEP", "CUBICSPLINE"])
@pytest.mark.parametrize("rotation", [False, True])
def test_it_samples_as_the_tables_do(interp, rotation):
    rng = np.random.default_rng(5)
    t = np.sort(rng.uniform(0.0, 3.0, 9))
    if rotation:
        v = axis_angle([0.3, 1.0, -0.2], np.cumsum(rng.uniform(-1.5, 1.5, 9)))
        v[3] *= -1.0  # a sign flip between keys: the shortest arc still
    else:
        v = rng.normal(size=(9, 3))
    tangents = rng.normal(size=(2, 9, v.shape[1])) if interp == "CUBICSPLINE" else (None, None)
    curve = Curve(t, v, tangents[0], tangents[1], rotation, interp)
    at = np.concatenate([np.linspace(-0.5, 3.5, 401), t])
    expected = Clip("c", 0, [Channel(0, "rotation" if rotation else "translation", curve)]).sample(at)[:, 0]
    got = sample_curve(curve, at)
    if rotation:
        got = got * np.where((got * expected).sum(axis=1, keepdims=True) < 0, -1.0, 1.0)
    np.testing.assert_allclose(got, expected, atol=1e-9)
