"""A library run: discovery, the sandbox's limits, local workers and a Dask cluster, each file exactly once.

Every run's result of a file must equal ``check_file`` of that file alone (``report.comparable``), however
many workers ran it and whether a worker was killed under it.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder, minimal_animated
from viewer.base.errors import UsageError
from viewer.library.check import check_file
from viewer.library.discover import discover, output_stem
from viewer.library.local import LocalPool
from viewer.library.report import comparable
from viewer.library.run import Limits, requests_for, run_library
from viewer.library.sandbox import Sandbox


def small_library(root: Path, count: int = 12) -> Path:
    """``count`` small valid files (a rotation flipped now and then) and two broken ones."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (root / f"sub{i % 3}").mkdir(exist_ok=True)
        minimal_animated().write_gltf(root / f"sub{i % 3}", f"model_{i:02d}.gltf", embed=True)
    (root / "broken.gltf").write_text("{ not json")
    (root / "sub0").mkdir(exist_ok=True)
    (root / "sub0" / "empty.glb").write_bytes(b"")
    return root


def in_process(files) -> dict[str, dict]:
    return {str(f.path): comparable(check_file(f.path, f.label)) for f in files}


# --- discovery ---------------------------------------------------------------------------------------


def test_discover_lists_each_file_once_sorted_and_stays_inside(tmp_path):
    lib = small_library(tmp_path / "lib", 3)
    (lib / ".git").mkdir()
    (lib / ".git" / "hidden.gltf").write_text("{}")
    (lib / "notes.txt").write_text("not a model")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.gltf").write_text("{}")
    (lib / "link.gltf").symlink_to(outside / "secret.gltf")
    (lib / "linkdir").symlink_to(outside, target_is_directory=True)
    (lib / "again.gltf").symlink_to(lib / "sub0" / "model_00.gltf")
    files = discover([lib, lib / "sub0" / "model_00.gltf"])
    labels = [f.label for f in files]
    assert labels == sorted(labels)
    assert len({f.path for f in files}) == len(files) == 5  # 3 models + 2 broken; the link to one is that one
    assert not any("secret" in str(f.path) or ".git" in f.label for f in files)
    assert "lib/sub0/model_00.gltf" in labels or "lib/again.gltf" in labels


def test_discover_refuses_missing_paths_and_other_files(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        discover([tmp_path / "nope"])
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(UsageError, match="not a .gltf or .glb"):
        discover([tmp_path / "a.txt"])


def test_output_stems_differ_where_labels_differ():
    labels = ["a/b.gltf", "a__b.gltf", "a b.gltf", "a_b.gltf", "x/" + "y" * 300 + ".glb", "x/" + "y" * 301 + ".glb"]
    stems = [output_stem(label) for label in labels]
    assert len(set(stems)) == len(stems)
    assert all(len(s) <= 89 and "/" not in s for s in stems)


# --- the sandbox ---------------------------------------------------------------------------------------


def _request(path: Path, seconds=None, memory_mb=None) -> dict:
    return {
        "label": path.name,
        "path": str(path),
        "limits": {"seconds": seconds, "memory_mb": memory_mb},
        "previews": None,
    }


def big_file(tmp_path: Path, keys: int = 4_000_000, name: str = "big.gltf") -> Path:
    """A file whose loading allocates ~100 MB (4 million keys of one translation channel), or that takes a
    second or two to check (300 000 keys)."""
    b = GltfBuilder()
    node = b.add_node()
    b.add_animation(
        [
            dict(
                node=node,
                path="translation",
                times=np.arange(keys, dtype=np.float32) / 1000,
                values=np.zeros((keys, 3), np.float32),
            )
        ]
    )
    b.add_scene([node])
    return b.write_gltf(tmp_path, name)


def test_sandbox_answers_with_the_in_process_result_and_measures(tmp_path):
    path = minimal_animated().write_gltf(tmp_path, "m.gltf")
    box = Sandbox("t")
    try:
        result = box.run(_request(path))
        again = box.run(_request(path))
    finally:
        box.kill()
    assert comparable(result) == comparable(again) == comparable(check_file(path, path.name))
    assert result["peak_mb"] > 10 and result["seconds"] > 0


def test_sandbox_reports_time_and_memory_limits_and_recovers(tmp_path):
    big = big_file(tmp_path)
    small = minimal_animated().write_gltf(tmp_path, "m.gltf")
    box = Sandbox("t")
    try:
        slow = box.run(_request(big, seconds=0.01))
        assert slow["status"] == "time-limit" and "0.01 s" in slow["error"]
        assert slow["findings"][0]["code"] == "time-limit" and slow["counts"]["error"] == 1
        fat = box.run(_request(big, memory_mb=20))
        assert fat["status"] == "memory-limit" and "20 MB" in fat["error"]
        fine = box.run(_request(big))
        assert fine["status"] == "ok" and fine["peak_mb"] > 100
        assert box.run(_request(small))["status"] == "ok"  # a new worker after each limit, still answering
    finally:
        box.kill()


# --- local workers -------------------------------------------------------------------------------------


def test_local_run_reports_every_file_once_equal_to_alone(tmp_path):
    files = discover([small_library(tmp_path / "lib")])
    done = run_library(requests_for(files, Limits()), jobs=2, quiet=True)
    assert [r["path"] for r in done.results] == sorted(str(f.path) for f in files)  # label order = path order here
    assert {r["path"]: comparable(r) for r in done.results} == in_process(files)
    assert done.summary["status"]["error"] == 2 and done.summary["files"] == len(files)
    assert {r["worker"] for r in done.results} <= {"local-0", "local-1"}


def test_killing_a_local_worker_mid_run_loses_no_file(tmp_path):
    """The worker holding a slow file is killed while the other works through small ones: the slow file runs
    again (``attempts`` 2) and every file is reported once, as checked alone."""
    lib = small_library(tmp_path / "lib", 30)
    slow = big_file(lib, keys=300_000, name="aaa_slow.gltf")
    files = discover([lib])
    pool = LocalPool(2)
    killed = False
    results = []
    for result in pool.run(requests_for(files, Limits())):
        results.append(result)
        holder = [w for w in pool.workers if w.running and w.request and w.request["path"] == str(slow)]
        if not killed and holder:
            os.kill(holder[0].pid, signal.SIGKILL)
            killed = True
    assert killed
    assert sorted(r["path"] for r in results) == sorted(str(f.path) for f in files)
    by_path = {r["path"]: r for r in results}
    assert by_path[str(slow)]["attempts"] == 2
    assert all(r["attempts"] == 1 for p, r in by_path.items() if p != str(slow))
    assert {p: comparable(r) for p, r in by_path.items()} == in_process(files)


def test_a_file_that_kills_its_worker_twice_is_reported_crashed(tmp_path, monkeypatch):
    """A worker that dies on a file (here: told to, by an environment hook the sandbox honours only in
    tests) — the file is run once more, then reported; the others are unaffected."""
    files = discover([small_library(tmp_path / "lib", 4)])
    victim = str(files[1].path)
    monkeypatch.setenv("ANIMVIEW_TEST_CRASH_ON", victim)
    done = run_library(requests_for(files, Limits()), jobs=2, quiet=True)
    by_path = {r["path"]: r for r in done.results}
    assert len(done.results) == len(files)
    assert by_path[victim]["status"] == "crashed" and by_path[victim]["attempts"] == 2
    assert "died on it twice" in by_path[victim]["error"] and "signal 9" in by_path[victim]["error"]
    assert all(r["status"] != "crashed" for p, r in by_path.items() if p != victim)


# --- a Dask cluster ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as c:
        yield c


def test_dask_run_equals_the_local_run(tmp_path, cluster):
    files = discover([small_library(tmp_path / "lib")])
    done = run_library(requests_for(files, Limits()), scheduler=cluster.scheduler_address, quiet=True)
    assert [r["path"] for r in done.results] == sorted(str(f.path) for f in files)
    assert {r["path"]: comparable(r) for r in done.results} == in_process(files)
    assert all(r["worker"].startswith("dask ") for r in done.results)
    assert "Dask at" in done.workers


def test_killing_a_dask_worker_mid_run_loses_no_file(tmp_path, cluster):
    from distributed import Client

    files = discover([small_library(tmp_path / "lib", 40)])
    with Client(cluster.scheduler_address) as client:
        pids = client.run(os.getpid)
    victim = next(iter(pids.values()))
    seen = []

    def on_result(result):
        seen.append(result)
        if len(seen) == 3:
            os.kill(victim, signal.SIGKILL)

    done = run_library(
        requests_for(files, Limits()), scheduler=cluster.scheduler_address, quiet=True, on_result=on_result
    )
    assert sorted(r["path"] for r in done.results) == sorted(str(f.path) for f in files)
    assert {r["path"]: comparable(r) for r in done.results} == in_process(files)
    assert any(r["attempts"] >= 2 for r in done.results)  # the file the worker held ran again, and says so


def test_a_library_file_reads_nothing_outside_its_folder(tmp_path):
    """The loader's file policy holds in a run: a model whose buffer URI climbs out of the library is
    reported with the refusal, and the file outside is never opened."""
    lib = tmp_path / "lib" / "sub"
    lib.mkdir(parents=True)
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"\0" * 64)
    path = minimal_animated().write_gltf(lib, "m.gltf")
    import json

    doc = json.loads(path.read_text())
    doc["buffers"][0]["uri"] = "../../secret.bin"
    path.write_text(json.dumps(doc))
    done = run_library(requests_for(discover([tmp_path / "lib"]), Limits()), jobs=1, quiet=True)
    (result,) = done.results
    assert result["status"] == "error" and "/buffers/0/uri" in result["error"]
    assert "outside" in result["error"]
