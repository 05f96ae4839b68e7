"""keyframes.BandedSearch, the one search for where a time falls among key times.

Region convention (keyframes.py docstring): a channel with n keys has n + 1 regions; region 0 is before
the first key, region k (1 ≤ k < n) is [t[k-1], t[k]), region n from the last key on. So the local
region is simply "how many keys are ≤ t", which a plain loop computes here independently.
"""

from __future__ import annotations

import numpy as np
import pytest

from viewer.animation.keyframes import BandedSearch

KEYS = np.array([0.5, 1.0, 2.5])


def _one_channel_regions(keys, t):
    """Local region(s) of a single channel, through windows (as ``table.BatchGroups`` asks)."""
    search = BandedSearch([keys])
    return search.local_regions(search.windows(t), 0)


@pytest.mark.parametrize(
    "t,region",
    [
        (-1.0, 0),  # before the first key: hold the first
        (0.0, 0),  # a clip starts at 0, this channel at 0.5: still before its first key
        (0.5, 1),  # exactly a key: the region that starts at that key
        (0.75, 1),
        (1.0, 2),
        (1.375, 2),
        (2.5, 3),  # the last key itself already holds the last value
        (2.5000001, 3),
        (100.0, 3),  # after the last key: hold the last
    ],
)
def test_gltf_edge_rules(t, region):
    search = BandedSearch([KEYS])
    assert int(_one_channel_regions(KEYS, t)) == region
    assert int(search.regions(search.window(t))[0]) == region  # one channel: global = local
    assert search.window(t) == int(search.windows(t))


def test_many_times_keep_their_shape():
    t = np.array([[-1.0, 0.5], [0.75, 3.0]])
    np.testing.assert_array_equal(_one_channel_regions(KEYS, t), [[0, 1], [1, 3]])


def test_single_key():
    np.testing.assert_array_equal(_one_channel_regions(np.array([1.0]), np.array([0.0, 1.0, 2.0])), [0, 1, 1])


def test_just_below_and_above_a_key():
    below, above = np.nextafter(1.0, 0.0), np.nextafter(1.0, 2.0)
    assert int(_one_channel_regions(KEYS, below)) == 1
    assert int(_one_channel_regions(KEYS, above)) == 2


def test_random_single_channel_against_loop():
    rng = np.random.default_rng(11)
    for _ in range(50):
        keys = np.cumsum(rng.uniform(0.01, 1.0, rng.integers(1, 8))) + rng.uniform(0, 1)
        times = _query_times(keys, rng)
        got = _one_channel_regions(keys, np.array(times))
        assert got.tolist() == [_local_region(keys, t) for t in times]


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


def _random_channels(rng, count):
    chans = []
    for _ in range(count):
        n = int(rng.integers(1, 9))
        start = float(rng.choice([0.0, rng.uniform(0, 2)]))
        # float32-born times, as they come from files
        chans.append(np.cumsum(np.r_[start, rng.uniform(0.01, 1.5, n - 1)]).astype(np.float32).astype(np.float64))
    return chans


def test_banded_search_regions_match_loop():
    rng = np.random.default_rng(12)
    for _ in range(20):
        chans = _random_channels(rng, int(rng.integers(1, 7)))
        search = BandedSearch(chans)
        bases = np.cumsum([0] + [len(c) + 1 for c in chans])[:-1]
        all_keys = np.concatenate(chans)
        for t in _query_times(np.sort(all_keys), rng):
            got = search.regions(search.window(t)) - bases
            expected = [_local_region(c, t) for c in chans]
            assert list(got) == expected, (t, chans)
            assert [int(search.local_regions(search.windows(t), c)) for c in range(len(chans))] == expected


def test_banded_search_many_times_match_one_at_a_time():
    rng = np.random.default_rng(13)
    for _ in range(20):
        chans = _random_channels(rng, int(rng.integers(1, 7)))
        search = BandedSearch(chans)
        times = np.array(_query_times(np.sort(np.concatenate(chans)), rng))
        windows = search.windows(times)
        batch = search.regions(windows)
        assert batch.shape == (len(times), len(chans))
        for f, t in enumerate(times):
            assert search.window(float(t)) == windows[f]
            np.testing.assert_array_equal(batch[f], search.regions(search.window(float(t))))
        for c in range(len(chans)):
            np.testing.assert_array_equal(search.local_regions(windows, c), batch[:, c] - search.bases[c])


def test_banded_search_just_below_a_key_of_a_later_channel():
    """Channel offsets must not round a time just below a key up onto the key (STEP would jump early)."""
    chans = [np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.25, 1.0, 30.0])]
    search = BandedSearch(chans)
    bases = np.cumsum([0] + [len(c) + 1 for c in chans])[:-1]
    t = float(np.nextafter(1.0, 0.0))
    assert list(search.regions(search.window(t)) - bases) == [1, 1, 2]
    assert list(search.regions(search.windows(np.array([t])))[0] - bases) == [1, 1, 2]


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
        assert list(search.regions(search.window(t)) - bases) == expected, t
    np.testing.assert_array_equal(
        search.regions(search.windows(np.array(times))) - bases, [[_local_region(c, t) for c in chans] for t in times]
    )
