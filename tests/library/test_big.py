"""A generated library of over 500 files (the shared models when present, their Draco and meshopt copies,
the demo and the tests' built files, 200 generated rigs, 300 fuzzer mutants and hand-broken files): every file
is reported exactly once, by local workers and by a two-worker Dask cluster, each result equal to the
file checked alone in this process. The engines' comparison is left out (``engines=[]``): it is the same
function wherever it runs (``test_findings_engines``), and on 500 files it would be most of the suite's time."""

from __future__ import annotations

import pytest

from tools.make_library import make_library
from viewer.library.check import check_file
from viewer.library.discover import discover
from viewer.library.report import comparable
from viewer.library.run import Limits, requests_for, run_library


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    root = tmp_path_factory.mktemp("library") / "lib"
    made = make_library(root, generated=200, broken=300)
    files = discover([root])
    assert len(files) == sum(made.values()) >= 500
    alone = {str(f.path): comparable(check_file(f.path, f.label, engines=[])) for f in files}
    return files, alone


def _assert_each_once_and_equal(done, files, alone) -> None:
    paths = [r["path"] for r in done.results]
    assert len(paths) == len(set(paths)) == len(files)
    assert set(paths) == {str(f.path) for f in files}
    different = [r for r in done.results if comparable(r) != alone[r["path"]]]
    if different:
        first = comparable(different[0])
        mine = [f for c in first["clips"] for f in c["findings"]] + first["findings"]
        theirs = [f for c in alone[first["path"]]["clips"] for f in c["findings"]] + alone[first["path"]]["findings"]
        diff = [(a, b) for a, b in zip(mine, theirs) if a != b][:2] or (len(mine), len(theirs))
        raise AssertionError(
            f"{len(different)} files differ from their single-file check, e.g. {first['path']}: {diff}"
        )


def test_local_workers_report_every_file_once_as_alone(library):
    files, alone = library
    done = run_library(requests_for(files, Limits(), engines=[]), jobs=2, quiet=True)
    _assert_each_once_and_equal(done, files, alone)
    s = done.summary
    assert s["status"]["ok"] > 250 and s["status"]["error"] > 100  # the mix is what it claims to be
    assert s["status"]["crashed"] == 0 and s["retried"] == 0


def test_a_two_worker_dask_cluster_reports_every_file_once_as_alone(library):
    distributed = pytest.importorskip("distributed")
    files, alone = library
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster:
        done = run_library(requests_for(files, Limits(), engines=[]), scheduler=cluster.scheduler_address, quiet=True)
    _assert_each_once_and_equal(done, files, alone)
