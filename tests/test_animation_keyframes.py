"""keyframes.locate (explicit cases) and BandedSearch (regions of many channels) against each other.

Region convention (keyframes.py docstring): a channel with n keys has n + 1 regions; region 0 is before
the first key, region k (1 ≤ k < n) is [t[k-1], t[k]), region n from the last key on. So the local
region is simply "how many keys are ≤ t", which a plain loop computes here independently.
"""
from __future__ import annotations

import numpy as np
import pytest

from viewer.animation.keyframes import AFTER, BEFORE, BETWEEN, CASE_NAMES, EXACT, BandedSearch, locate

KEYS = np.array([0.5, 1.0, 2.5])


@pytest.mark.parametrize("t,case,index,u", [
    (-1.0, BEFORE, 0, 0.0),
    (0.0, BEFORE, 0, 0.0),       # a clip starts at 0, this channel at 0.5: still before its first key
    (0.5, EXACT, 0, 0.0),
    (0.75, BETWEEN, 0, 0.5),
    (1.0, EXACT, 1, 0.0),
    (1.375, BETWEEN, 1, 0.25),
    (2.5, EXACT, 2, 0.0),        # the last key itself is EXACT, not AFTER
    (2.5000001, AFTER, 2, 0.0),
    (100.0, AFTER, 2, 0.0),
])
def test_locate_cases(t, case, index, u):
    loc = locate(KEYS, t)
    assert int(loc.case) == case, CASE_NAMES[int(loc.case)]
    assert int(loc.index) == index
    assert float(loc.u) == pytest.approx(u, abs=1e-12)


def test_locate_many_times_keeps_shape():
    t = np.array([[-1.0, 0.5], [0.75, 3.0]])
    loc = locate(KEYS, t)
    assert loc.case.shape == loc.index.shape == loc.u.shape == (2, 2)
    np.testing.assert_array_equal(loc.case, [[BEFORE, EXACT], [BETWEEN, AFTER]])


def test_locate_single_key():
    loc = locate(np.array([1.0]), np.array([0.0, 1.0, 2.0]))
    np.testing.assert_array_equal(loc.case, [BEFORE, EXACT, AFTER])
    np.testing.assert_array_equal(loc.index, [0, 0, 0])
    np.testing.assert_array_equal(loc.u, [0, 0, 0])


def test_locate_just_below_and_above_a_key():
    below, above = np.nextafter(1.0, 0.0), np.nextafter(1.0, 2.0)
    lb, la = locate(KEYS, below), locate(KEYS, above)
    assert int(lb.case) == BETWEEN and int(lb.index) == 0 and float(lb.u) < 1.0
    assert int(la.case) == BETWEEN and int(la.index) == 1 and float(la.u) > 0.0


def test_locate_random_against_loop():
    rng = np.random.default_rng(11)
    for _ in range(50):
        keys = np.cumsum(rng.uniform(0.01, 1.0, rng.integers(1, 8))) + rng.uniform(0, 1)
        for t in _query_times(keys, rng):
            loc = locate(keys, t)
            below = [i for i, k in enumerate(keys) if k <= t]
            if not below:
                assert int(loc.case) == BEFORE and int(loc.index) == 0
                continue
            i = below[-1]
            assert int(loc.index) == i
            if keys[i] == t:
                assert int(loc.case) == EXACT
            elif i == len(keys) - 1:
                assert int(loc.case) == AFTER
            else:
                assert int(loc.case) == BETWEEN
                assert float(loc.u) == pytest.approx((t - keys[i]) / (keys[i + 1] - keys[i]), abs=1e-9)


# -- BandedSearch -------------------------------------------------------------------------------------

def _query_times(keys, rng) -> list[float]:
    """Before, at, just around, between and after every key, and far away."""
    ts = [-1e6, -5.0, -1.0, -1e-9, 0.0, keys[-1] + 1e-9, keys[-1] + 0.5, keys[-1] + 5.0, 1e6]
    for k in keys:
        ts += [float(k), float(np.nextafter(k, -np.inf)), float(np.nextafter(k, np.inf))]
    ts += list(rng.uniform(-0.5, keys[-1] + 0.5, 10))
    return ts


def _local_region(keys, t) -> int:
    return sum(1 for k in keys if k <= t)


def _region_from_locate(keys, t) -> int:
    loc = locate(keys, t)
    case, index = int(loc.case), int(loc.index)
    return {BEFORE: 0, EXACT: index + 1, BETWEEN: index + 1, AFTER: len(keys)}[case]


def _random_channels(rng, count):
    chans = []
    for _ in range(count):
        n = int(rng.integers(1, 9))
        start = float(rng.choice([0.0, rng.uniform(0, 2)]))
        # float32-born times, as they come from files
        chans.append(np.cumsum(np.r_[start, rng.uniform(0.01, 1.5, n - 1)]).astype(np.float32).astype(np.float64))
    return chans


def test_banded_search_regions_match_locate():
    rng = np.random.default_rng(12)
    for _ in range(20):
        chans = _random_channels(rng, int(rng.integers(1, 7)))
        search = BandedSearch(chans)
        bases = np.cumsum([0] + [len(c) + 1 for c in chans])[:-1]
        all_keys = np.concatenate(chans)
        for t in _query_times(np.sort(all_keys), rng):
            got = search.regions(t) - bases
            expected = [_local_region(c, t) for c in chans]
            assert list(got) == expected, (t, chans)
            assert expected == [_region_from_locate(c, t) for c in chans]


def test_banded_search_batch_matches_single():
    rng = np.random.default_rng(13)
    for _ in range(20):
        chans = _random_channels(rng, int(rng.integers(1, 7)))
        search = BandedSearch(chans)
        times = np.array(_query_times(np.sort(np.concatenate(chans)), rng))
        batch = search.regions_batch(times)
        assert batch.shape == (len(times), len(chans))
        for f, t in enumerate(times):
            np.testing.assert_array_equal(batch[f], search.regions(float(t)))


def test_banded_search_just_below_a_key_of_a_later_channel():
    """Channel offsets must not round a time just below a key up onto the key (STEP would jump early)."""
    chans = [np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.25, 1.0, 30.0])]
    search = BandedSearch(chans)
    bases = np.cumsum([0] + [len(c) + 1 for c in chans])[:-1]
    t = float(np.nextafter(1.0, 0.0))
    assert list(search.regions(t) - bases) == [1, 1, 2]
    assert list(search.regions_batch(np.array([t]))[0] - bases) == [1, 1, 2]


@pytest.mark.parametrize("last", [1e16, 3.0e38, 1e300, 1.7e308])
def test_banded_search_is_exact_for_any_finite_magnitude(last):
    """Regions are found by integer key ranks, so huge key times cannot push a search past the table."""
    chans = [np.array([0.0, last]), np.array([0.0, last / 2, last]), np.array([last / 4, last / 3])]
    search = BandedSearch(chans)
    bases = np.cumsum([0] + [len(c) + 1 for c in chans])[:-1]
    keys = np.sort(np.concatenate(chans))
    times = [-1.7e308, -1.0, 0.0, 1.7e308] + [float(k) for k in keys]
    times += [float(np.nextafter(k, -np.inf)) for k in keys] + [float(np.nextafter(k, np.inf)) for k in keys]
    for t in times:
        expected = [_local_region(c, t) for c in chans]
        assert list(search.regions(t) - bases) == expected, t
    np.testing.assert_array_equal(search.regions_batch(np.array(times)) - bases,
                                  [[_local_region(c, t) for c in chans] for t in times])
