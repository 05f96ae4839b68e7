"""The emulations against what the real engines printed: three.js r187 and Babylon.js 9 in Node, pygfx 0.17
in Python, each run by ``tools/engines_record.py`` on the cases ``tools/engine_cases.py`` writes (generated
edge cases, the demo files and the shared models), their sampled node translation, rotation, scale and morph
weights recorded into ``tests/data/engines/``. Every recorded value must be met within 1e-4 (of the value's
size where it is larger than 1), at the clock times the engine was asked for.

Not compared: cases with keys at one time (``dup_*``: animview refuses them, as the spec requires key times to
increase strictly) and what an engine failed on (pygfx errors on CUBICSPLINE weights and on cubic channels
outside their keys; recorded as errors). One known departure, under ``KNOWN``: pygfx renormalizes only its
nlerp intervals, the emulation every interval of a channel that has one, which shows only on keys stored off
unit length (SimpleSkin's 0.707).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

from tests.conftest import KHRONOS_DIR, REPO_ROOT
from viewer import engines
from viewer.pose.pose import Pose
from viewer.scene.scene import load

DATA = REPO_ROOT / "tests" / "data" / "engines"
TOLERANCE = 1e-4
KNOWN = {("pygfx", "khr_SimpleSkin#0"): 3e-4}
ROWS = {"three": "three.js r187", "babylon": "Babylon.js 9.28", "pygfx": "pygfx 0.17"}  # docs/engines.md's table


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    out = tmp_path_factory.mktemp("engine_cases")
    args = [sys.executable, str(REPO_ROOT / "tools" / "engine_cases.py"), str(out)]
    subprocess.run(args + ([] if KHRONOS_DIR.is_dir() else ["--no-models"]), check=True, capture_output=True)
    recorded = json.loads((DATA / "manifest.json").read_text())["cases"]
    return out / "cases", {c["name"]: c for c in recorded}


def _rotation_distance(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(min(np.abs(a - b).max(), np.abs(a + b).max()))  # q and -q are one rotation


@pytest.mark.parametrize("name", ["three", "babylon", "pygfx"])
def test_the_emulation_plays_what_the_engine_played(name, cases):
    folder, manifest = cases
    recorded = json.loads((DATA / f"{name}.json").read_text())
    engine = engines.get(name)
    checked, compared_cases, worst = 0, 0, []
    for case_name, case in recorded["cases"].items():
        if case_name.startswith("dup_") or "error" in case or case_name not in manifest:
            continue
        file = folder / case["file"]
        if not file.is_file():
            continue  # a shared model's case, the models being absent
        digest = hashlib.sha256(file.read_bytes()).hexdigest()[:16]
        assert digest == manifest[case_name]["sha256"], f"{case_name}: not the file the engines were run on"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scene = load(file)
        played = engine.clip(scene.clips[case["animation"]], scene)
        pose, compared_cases = Pose(scene), compared_cases + 1
        tolerance = KNOWN.get((name, case_name), TOLERANCE)
        # the recorded times are float32 key times printed to 9 digits: float32 gives them back exactly
        for t, frame in zip(np.float32(case["times"]).astype(np.float64).tolist(), case["frames"]):
            if "error" in frame:
                continue
            pose.set_time(played, float(engine.player_time(np.array([t]), played.duration)[0]))
            for node, want in frame.items():
                n, checked = int(node), checked + 1
                got = {"t": pose.translation[n], "s": pose.scale[n]}
                errors = {k: float(np.abs(got[k] - want[k]).max()) for k in got}
                errors["r"] = _rotation_distance(pose.rotation[n], want["r"])
                if "w" in want and pose.weights[n] is not None:
                    errors["w"] = float(np.abs(pose.weights[n][: len(want["w"])] - want["w"]).max())
                for k, e in errors.items():
                    if not e <= tolerance * max(1.0, float(np.abs(want[k]).max())):
                        worst.append((case_name, t, n, k, e))
    assert not worst, f"{len(worst)} values off, e.g. {worst[:5]}"
    assert compared_cases >= (200 if KHRONOS_DIR.is_dir() else 180) and checked > 5000, (compared_cases, checked)
    if KHRONOS_DIR.is_dir():  # what the docs say was compared is what was compared
        row = f"| {ROWS[name]} | {compared_cases} | {checked:,} |".replace(",", " ")
        assert row in (REPO_ROOT / "docs" / "engines.md").read_text(), row
        said = re.search(r"run on (\d+)–(\d+) cases", (REPO_ROOT / "README.md").read_text())
        assert said and compared_cases in (int(said[1]), int(said[2])) and int(said[1]) <= int(said[2]), said
