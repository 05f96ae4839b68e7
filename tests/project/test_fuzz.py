"""The mutation fuzzer (``tests/fuzz``): a bounded campaign must find nothing, and the fuzzer must work.

The campaign is ~300 cases of a fixed seed (every 5th rendered), run exactly as ``python -m tests.fuzz``
runs them, with the same CPU limit (10 s; a generous wall limit for a busy CI machine). A failure message
lists each distinct failure with a command that makes the case again. The other tests check the
fuzzer itself: reproducible mutants, seeds that load untouched, and each way a case can end
(exception, endless loop, blocked read, 8 GiB allocation, long error line, masked bug) classified right.
"""

from __future__ import annotations

import copy

import pytest

import viewer
from tests.fuzz import check
from tests.fuzz.isolate import Limits
from tests.fuzz.mutate import Mutant, make_mutant, serialize, write_case
from tests.fuzz.runner import Config, run_campaign, run_selftests
from tests.fuzz.seeds import load_seeds

CAMPAIGN_SEED = 20240808
CAMPAIGN_CASES = 300


@pytest.fixture(scope="module")
def seeds():
    return load_seeds()


def test_campaign_finds_no_failures(tmp_path):
    config = Config(
        seed=CAMPAIGN_SEED,
        cases=CAMPAIGN_CASES,
        jobs=2,
        render_every=5,
        out=tmp_path,
        limits=Limits(cpu_s=10, wall_s=30),
    )
    summary = run_campaign(config)
    assert len(summary.records) == CAMPAIGN_CASES
    lines = [
        f"{n} x {sig}\n    {ex.get('repro')}  [{ex.get('seed_file')}: {' | '.join(ex.get('mutations', []))[:240]}]"
        for sig, n, ex in summary.signatures()
    ]
    if summary.failures:
        pytest.fail(summary.final_line() + "\n" + "\n".join(lines), pytrace=False)


def test_same_seed_and_index_make_the_same_bytes(seeds):
    for index in range(40):
        a, b = make_mutant(seeds, 77, index), make_mutant(seeds, 77, index)
        assert a.files == b.files and a.descriptions == b.descriptions and a.fifos == b.fifos
    others = [make_mutant(seeds, 78, index).files for index in range(40)]
    assert others != [make_mutant(seeds, 77, index).files for index in range(40)]


@pytest.mark.parametrize("container", ["gltf", "embedded", "glb"])
def test_every_seed_loads_when_written_unmutated(seeds, tmp_path, container):
    for k, seed in enumerate(seeds):
        m = Mutant(
            seed.name,
            copy.deepcopy(seed.doc),
            None if seed.bin is None else bytearray(seed.bin),
            container,
            dict(seed.extras),
        )
        serialize(m)
        scene = viewer.load(write_case(m, tmp_path / f"{k}"))
        assert len(scene.nodes) == len(seed.doc.get("nodes", [])), seed.name


@pytest.fixture(scope="module")
def selftests(tmp_path_factory):
    """Every deliberate misbehaviour, once, through the real worker/fork/limits (CPU 1 s, wall 4 s)."""
    return run_selftests(
        ["raise", "loop", "alloc", "stdin", "ok"], Limits(cpu_s=1, wall_s=4.0), tmp_path_factory.mktemp("selftest")
    )


def test_a_non_gltf_error_is_a_crash(selftests):
    record = selftests["raise"]
    assert record["outcome"] == "crash"
    assert record["signature"].startswith("ValueError at tests/fuzz/selftest.py:")


def test_an_endless_loop_is_a_hang(selftests):
    assert selftests["loop"]["outcome"] == "hang"
    assert "loop_forever" in selftests["loop"]["signature"]


def test_a_blocked_read_of_stdin_is_a_hang(selftests):
    assert selftests["stdin"]["outcome"] == "hang"


def test_allocating_8_gib_is_oom(selftests):
    assert selftests["alloc"]["outcome"] == "oom"


def test_a_normal_end_is_ok(selftests):
    assert selftests["ok"]["outcome"] == "ok"


def test_error_lines_too_long_or_multiline_are_failures():
    assert check.classify_exception(viewer.GltfError("f.gltf", "/nodes/0", "bad"))["outcome"] == "rejected"
    long_line = viewer.GltfError("f.gltf", "/nodes/0", "bad")
    long_line.args = ("f.gltf: " + "x" * 400,)  # what the user would see: str(exc)
    assert check.classify_exception(long_line)["outcome"] == "long-message"
    two_lines = viewer.GltfError("f.gltf", "", "bad")
    two_lines.args = ("f.gltf: two\nlines",)
    assert check.classify_exception(two_lines)["outcome"] == "long-message"


def test_a_gltf_error_masking_a_bug_is_a_crash():
    try:
        try:
            int(float("inf"))
        except OverflowError as exc:
            raise viewer.GltfError("f.gltf", "", f"cannot validate file ({exc})") from exc
    except viewer.GltfError as exc:
        record = check.classify_exception(exc)
    assert record["outcome"] == "crash"
    assert record["signature"].startswith("GltfError masking OverflowError at ")


def test_nonfinite_output_fails_only_without_warning_or_nonfinite_input():
    def body(record):
        record["nonfinite"] = {"what": "world matrix", "where": "rest pose"}

    assert check.guarded(body)["outcome"] == "nonfinite"
    assert check.guarded(body, injected_nonfinite=True)["outcome"] == "ok"

    def warned(record):
        import warnings

        warnings.warn("NaN in the file", viewer.GltfWarning)
        body(record)

    assert check.guarded(warned)["outcome"] == "ok"
