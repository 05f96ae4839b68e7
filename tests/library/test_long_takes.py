"""Long takes (``tools/mocap_clips.py --take``): ``check`` holds memory in proportion to the file, and the
long-clip passes give the figures they give on whole clips.

Memory is measured on ``animview check`` in a child process (its peak resident set, sandbox worker included),
on generated takes of 60 joints at 60 fps: at most ``MULTIPLE`` × the file's animation bytes + ``BASE_MIB``,
and growing by at most ``MULTIPLE`` × the animation bytes from a short take to a longer one (the interpreter,
the modules and the bounded working arrays cancel out). The file itself (whose float32 keys the clip reads in
place) and the checks' float64 working copies of a channel fit that multiple; a change that keeps two more
copies of the clip fails here. No timing: docs/speed.md has them.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import KHRONOS_DIR, REPO_ROOT
from tools.mocap_clips import write_take
from viewer.animation import seams
from viewer.animation.modes import MODES, Curve
from viewer.library import findings, findings_resample
from viewer.library.findings_keys import Place
from viewer.scene.scene import load

MULTIPLE = 3.0
BASE_MIB = 120.0  # the interpreter, numpy and what a check imports (~55 MiB), bounded working arrays, margin
SLACK_MIB = 20.0

PROBE = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-m", "viewer", "check", "--quiet", "--jobs", "1", sys.argv[1]],
               stdout=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def animation_mib(path: Path) -> float:
    """The bytes of every bufferView an animation sampler reads (inputs and outputs), in MiB."""
    data = path.read_bytes()
    doc = json.loads(data[20 : 20 + struct.unpack_from("<I", data, 12)[0]])
    views = {
        doc["accessors"][s[k]]["bufferView"]
        for a in doc.get("animations", [])
        for s in a["samplers"]
        for k in ("input", "output")
    }
    return sum(doc["bufferViews"][v]["byteLength"] for v in views) / 2**20


def check_peak_mib(path: Path) -> float:
    """Peak resident set of ``animview check PATH`` and its worker, from a fresh parent (whose only child it is)."""
    proc = subprocess.run([sys.executable, "-c", PROBE, str(path)], cwd=REPO_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout.split()[-1]) / 1024  # ru_maxrss is in KiB on Linux


@pytest.fixture(scope="module")
def takes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("takes")
    return {
        minutes: write_take(folder / f"take_{minutes}.glb", 60.0 * minutes, fps=60.0, joints=60) for minutes in (2, 8)
    }


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units and fork accounting as on Linux")
def test_check_memory_is_proportional_to_the_animation(takes):
    assert_proportional("check", check_peak_mib, takes[2], takes[8], BASE_MIB, SLACK_MIB)


def assert_proportional(what: str, peak_mib, small: Path, large: Path, base_mib: float, slack_mib: float) -> None:
    """``peak_mib(take)`` within ``MULTIPLE`` × the take's animation + ``base_mib`` for both takes, and growing
    from the small take to the large by at most ``MULTIPLE`` × the growth of the animation + ``slack_mib``."""
    a_small, a_large = animation_mib(small), animation_mib(large)
    peak_small, peak_large = peak_mib(small), peak_mib(large)
    for a, peak in ((a_small, peak_small), (a_large, peak_large)):
        assert peak <= MULTIPLE * a + base_mib, f"{what} peaked at {peak:.0f} MiB for {a:.1f} MiB of animation"
    growth = peak_large - peak_small
    assert growth <= MULTIPLE * (a_large - a_small) + slack_mib, (
        f"{what} grew by {growth:.0f} MiB for {a_large - a_small:.1f} MiB more animation "
        f"({peak_small:.0f} → {peak_large:.0f} MiB)"
    )


def test_a_long_take_is_checked_without_per_key_memory(takes):
    """In process: the passes over a take's 500 000 keys stay within a few megabytes beyond the loaded clip."""
    scene = load(takes[2])
    clip = scene.clips[0]
    tracemalloc.start()
    found = findings.clip_findings(scene, clip)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert {f.code for f in found} <= {"loop-seam", "redundant-keys"}
    assert peak < 40 * 2**20, f"the clip's checks allocated {peak / 2**20:.0f} MiB at once"


def still_place(keys: int, rotation: bool) -> Place:
    value = [0.0, 0.0, 0.0, 1.0] if rotation else [1.0, 2.0, 3.0]
    curve = Curve(np.arange(keys) / 60.0, np.tile(value, (keys, 1)), None, None, rotation, "LINEAR")
    return Place(0, 0, 0, "node 0 still", curve, "rotation" if rotation else "translation", 0)


@pytest.mark.parametrize("rotation", [True, False])
def test_a_still_channel_of_a_million_keys(rotation):
    """Decimated in pieces (``KEY_BATCH``) and stitched: every key but its two ends, in bounded memory."""
    place = still_place(1_000_000, rotation)
    tracemalloc.start()
    counts = findings_resample.removable_counts([place])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert counts.tolist() == [999_998]
    assert peak < 24 * 2**20, f"{peak / 2**20:.0f} MiB for a 1 000 000-key channel"


def test_pieces_and_runs_count_like_one_batch(takes, monkeypatch):
    """Small runs and pieces (cut every 5 000 keys here) count the keys one whole-clip batch counts, but for
    the few a cut may move."""
    places = findings.channel_places(*_scene_and_clip(takes[2]))
    whole = _counts(places, monkeypatch, 1 << 40)
    cut = _counts(places, monkeypatch, 5_000)
    assert whole.sum() > 1000
    assert np.abs(cut - whole).max() <= 8 and abs(int(cut.sum() - whole.sum())) <= 0.01 * whole.sum()


def _counts(places, monkeypatch, batch: int) -> np.ndarray:
    monkeypatch.setattr(findings_resample, "KEY_BATCH", batch)
    return findings_resample.removable_counts(places)


def _scene_and_clip(path: Path):
    scene = load(path)
    return scene, scene.clips[0]


def test_loop_seams_of_cut_clips_and_batches_equal_the_whole_clips(tmp_path, monkeypatch):
    """``loop_seams`` samples the clip cut to each channel's end keys and measures motion in batches (here of
    7 keys on the shared models, 500 on a take: channels cut in pieces); the figures equal those of sampling
    the whole clip and measuring each channel at once, in every mode."""
    models = sorted(KHRONOS_DIR.glob("*/*.gltf")) + sorted(KHRONOS_DIR.glob("*/*.glb")) if KHRONOS_DIR.is_dir() else []
    take = write_take(tmp_path / "take.glb", 20.0, fps=60.0, joints=20)
    fields = ("value_jump", "velocity_jump", "value_tolerance", "velocity_tolerance", "value_range", "rotation")
    for path, batch in [(m, 7) for m in models] + [(take, 500)]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clips = load(path).clips
        for clip, mode in [(clip, mode) for clip in clips for mode in MODES]:
            monkeypatch.setattr(seams, "KEY_BATCH", 1 << 40)
            monkeypatch.setattr(seams, "_ends", lambda c: c)
            whole = seams.loop_seams(clip, mode)
            monkeypatch.undo()
            monkeypatch.setattr(seams, "KEY_BATCH", batch)
            cut = seams.loop_seams(clip, mode)
            for name in fields:
                assert np.array_equal(getattr(whole, name), getattr(cut, name)), (path.name, clip.name, mode, name)


def test_generator_sizes_and_options(tmp_path):
    """``write_take``: N joints, the keys per channel fps × seconds + 1, the root travelling, LINEAR, and the
    meshopt copies decoding to the plain take's values (the plain codec exactly, the filter within its step)."""
    plain = load(write_take(tmp_path / "plain.glb", 3.0, fps=30.0, joints=7))
    clip = plain.clips[0]
    assert len(plain.nodes) == 8 and len(clip.channels) == 8  # 7 joints and the body; root translation + rotations
    assert all(len(c.curve.times) == 91 and c.curve.interpolation == "LINEAR" for c in clip.channels)
    travel = np.ptp(clip.channels[0].curve.values, axis=0)
    assert travel[0] > 0.2 and travel[2] > 0.1
    packed = load(write_take(tmp_path / "packed.glb", 3.0, fps=30.0, joints=7, meshopt="plain")).clips[0]
    filtered = load(write_take(tmp_path / "filtered.glb", 3.0, fps=30.0, joints=7, meshopt="filtered")).clips[0]
    for a, b, c in zip(clip.channels, packed.channels, filtered.channels):
        assert np.array_equal(a.curve.values, b.curve.values)
        assert np.abs(a.curve.values - c.curve.values).max() < 1e-4
    assert "EXT_meshopt_compression" in load(tmp_path / "packed.glb").document.raw["extensionsRequired"]


def test_generator_joints_beyond_the_humanoid(tmp_path):
    """More than the humanoid's 60 joints: chains of extra joints under the hips; ``mesh=False``: no body."""
    scene = load(write_take(tmp_path / "wide.glb", 2.0, joints=100, mesh=False))
    assert len(scene.nodes) == 100 and len(scene.clips[0].channels) == 101 and not scene.meshes
    assert scene.document.raw["nodes"][60]["name"] == "Extra0" and 60 in scene.document.raw["nodes"][0]["children"]
