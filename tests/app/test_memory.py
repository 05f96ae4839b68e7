"""The viewer holds a long take in memory in proportion to its animation: the file's bytes (float32 keys are
read where the file holds them), a few windows of sampling table (``animation/windows.py``) and nothing per
key beyond that — no whole-clip table, no float64 copy of the keys, no per-key Python objects but the clock's
key times. (Before the windows: 7.4 GB for an hour-long take; with float64 keys: 3.2 × the animation.)

Measured as ``check``'s memory is (``tests/library/test_long_takes.py``): the peak resident set of the viewer
(``animview FILE --window headless --backend egl --frames N``) in a child, on generated takes of 60 joints at
60 fps, 2 and 8 minutes long; the growth between them must stay within 3 × the growth of the
animation (the interpreter, GL driver, imgui and the compiled kernels cancel out), and each peak within
3 × its animation + ``BASE_MIB``. No timing here: the speeds are in README's benchmark.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT
from tests.library.test_long_takes import assert_proportional
from tools.mocap_clips import write_take

BASE_MIB = 360.0  # python, numpy, moderngl + llvmpipe, imgui, the compiled kernels: 150–310 MiB seen on a 2 s take
SLACK_MIB = 40.0

PROBE = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-m", "viewer", sys.argv[1], "--window", "headless", "--backend", "egl",
                "--frames", "40", "--paused"], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def viewer_peak_mib(path) -> float:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(path)], cwd=REPO_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(proc.stdout.split()[-1]) / 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units as on Linux")
def test_viewer_memory_is_proportional_to_the_animation(tmp_path):
    small = write_take(tmp_path / "take_2.glb", 120.0, fps=60.0, joints=60)
    large = write_take(tmp_path / "take_8.glb", 480.0, fps=60.0, joints=60)
    assert_proportional("the viewer", viewer_peak_mib, small, large, BASE_MIB, SLACK_MIB)
