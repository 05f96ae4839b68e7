"""``fit.decimate``: every sample within tolerance of the kept curve, in every scheme, many tracks at once."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.reduce import fit


def tracks(times_list, values_list, tol, metric="l2", keys=None):
    lengths = [len(t) for t in times_list]
    times = np.concatenate(times_list)
    values = np.concatenate(values_list)
    fixed = np.zeros(len(times), dtype=bool)
    starts = np.cumsum(lengths) - lengths
    fixed[starts] = fixed[starts + np.array(lengths) - 1] = True
    key = np.ones(len(times), dtype=bool) if keys is None else np.concatenate(keys)
    return fit.Tracks(times, values, key, fixed, np.full(len(times), tol), metric), starts, lengths


@pytest.mark.parametrize("scheme", ["linear", "cubic", "step"])
def test_every_sample_stays_within_tolerance(scheme):
    rng = np.random.default_rng(7)
    ts, vs = [], []
    for n in (5, 40, 300):
        t = np.sort(rng.uniform(0, 4, n))
        t = np.unique(t)
        ts.append(t)
        vs.append(np.cumsum(rng.normal(0, 0.01, (len(t), 3)), axis=0) + np.sin(t)[:, None])
    tr, starts, lengths = tracks(ts, vs, 0.02)
    out = fit.decimate(tr, scheme)
    assert out.error.max() <= 0.02
    assert out.kept[starts].all() and out.kept[starts + np.array(lengths) - 1].all()
    assert out.kept.sum() < (0.95 if scheme == "step" else 0.6) * len(tr.times)  # a hold only skips small changes


def test_a_cubic_hermite_is_found_with_its_two_keys_and_tangents():
    t = np.linspace(0.0, 2.0, 41)
    u = t / 2.0
    p0, p1, m0, m1 = np.array([0.0, 1.0]), np.array([1.0, -1.0]), np.array([2.0, 0.0]), np.array([-1.0, 3.0])
    h = [2 * u**3 - 3 * u**2 + 1, u**3 - 2 * u**2 + u, -2 * u**3 + 3 * u**2, u**3 - u**2]
    v = h[0][:, None] * p0 + h[1][:, None] * 2.0 * m0 + h[2][:, None] * p1 + h[3][:, None] * 2.0 * m1
    tr, _, _ = tracks([t], [v], 1e-9)
    out = fit.decimate(tr, "cubic")
    assert out.kept.sum() == 2
    np.testing.assert_allclose(out.tangents[0, 1], m0, atol=1e-6)  # out-tangent of the first key, per second
    np.testing.assert_allclose(out.tangents[-1, 0], m1, atol=1e-6)  # in-tangent of the last


def test_slerp_keys_are_judged_by_angle():
    angle = np.linspace(0, np.pi / 2, 31)
    q = np.stack([np.zeros_like(angle), np.sin(angle / 2), np.zeros_like(angle), np.cos(angle / 2)], axis=1)
    tr, _, _ = tracks([np.linspace(0, 1, 31)], [q], 1e-9, metric="angle")
    out = fit.decimate(tr, "slerp")
    assert out.kept.sum() == 2  # a constant-speed turn is one slerp
    wobble = q.copy()
    wobble[15] = [0.0, np.sin(np.pi / 8 + 0.01), 0.0, np.cos(np.pi / 8 + 0.01)]
    out = fit.decimate(tracks([np.linspace(0, 1, 31)], [wobble], 0.005, metric="angle")[0], "slerp")
    assert out.kept[15] and out.error.max() <= 0.005


def test_samples_between_keys_are_checked_but_never_kept():
    t = np.linspace(0, 1, 9)
    v = np.zeros((9, 1))
    v[4] = 1.0  # a bump only the in-between sample shows
    key = np.ones(9, dtype=bool)
    key[4] = False
    tr, _, _ = tracks([t], [v], 0.1, keys=[key])
    out = fit.decimate(tr, "linear")
    assert not out.kept[4]
    assert out.kept[3] and out.kept[5]  # the keys around it stay, so the bump's error is only the line's
    assert out.error[4] == pytest.approx(1.0)


def test_distance_metrics():
    x, y = np.array([[3.0], [4.0]]), np.zeros((2, 1))
    assert fit.distance(x, y, "l2")[0] == 5.0
    assert fit.distance(x, y, "l1")[0] == 7.0
    assert fit.distance(x, y, "linf")[0] == 4.0
    q = np.array([[0.0], [0.0], [np.sin(0.25)], [np.cos(0.25)]])
    assert fit.distance(q, np.array([[0.0], [0.0], [0.0], [-1.0]]), "angle")[0] == pytest.approx(0.5)
