"""One library run: the files, the requests, the workers (local or Dask), the progress bar, the results.

``check`` and ``render`` differ only in the requests (render asks for previews); both come back as the
same result dicts, sorted by file label once every file has answered.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from viewer.library.discover import LibraryFile, output_stem
from viewer.library.report import summarize


@dataclass
class Limits:
    """Per file: wall seconds, and megabytes the worker may grow by while on it (None: no limit)."""

    seconds: float | None = 120.0
    memory_mb: float | None = 4096.0

    def as_dict(self) -> dict:
        return {"seconds": self.seconds, "memory_mb": self.memory_mb}


@dataclass
class Run:
    """What a run did: results (sorted by label), wall time, and how it ran."""

    results: list[dict]
    seconds: float
    workers: str
    summary: dict = field(default_factory=dict)


def requests_for(
    files: list[LibraryFile],
    limits: Limits,
    previews: dict | None = None,
    against: dict | None = None,
    engines: list[str] | tuple | None = None,
) -> list[dict]:
    """One request per file (``task`` describes the shape); previews, when asked, go to ``previews["outdir"]``
    under a stem made from the file's label. ``against``: ``{"dir": DIR, "mode", "fps", "fail_above",
    "relative"}``: each file is compared with the file at its path below DIR (``findings_diff``). ``engines``:
    the engines ``findings_engines`` tries (None, the default: every one; empty: none — a check in about a
    third of the time)."""
    out = []
    for f in files:
        request = {"label": f.label, "path": str(f.path), "limits": limits.as_dict(), "previews": None}
        if previews is not None:
            request["previews"] = dict(previews, stem=output_stem(f.label))
        if against is not None:
            request["against"] = counterpart_request(f, against)
        request["engines"] = None if engines is None else list(engines)
        out.append(request)
    return out


def counterpart_request(f: LibraryFile, against: dict) -> dict:
    """The request's ``against`` for file ``f``: where its counterpart would be (whether it is there, the
    worker sees: on a cluster, the worker's file system is the one that counts) and how to compare."""
    given = Path(against["dir"])
    settings = {k: v for k, v in against.items() if k != "dir"}
    return {
        "path": str(given.resolve() / f.below_root),
        "root": str(given.resolve()),
        "label": (given / f.below_root).as_posix(),
        **settings,
    }


def run_library(
    requests: list[dict], jobs: int = 1, scheduler: str | None = None, quiet: bool = False, on_result=None
) -> Run:
    """Run every request, locally on ``jobs`` workers or on the Dask cluster at ``scheduler``; a progress bar
    on stderr unless ``quiet``; ``on_result(result)`` sees each result as it arrives."""
    start = time.perf_counter()
    if scheduler:
        from viewer.library.cluster import connect, run_on_cluster

        client = connect(scheduler)
        workers = f"Dask at {client.scheduler.address} ({len(client.scheduler_info().get('workers', {}))} workers)"
        stream, close = run_on_cluster(client, requests), client.close
    else:
        from viewer.library.local import LocalPool

        pool = LocalPool(jobs)
        workers = f"{jobs} local worker{'s' if jobs != 1 else ''}"
        stream, close = pool.run(requests), None
    results = []
    bar = _bar(len(requests), quiet)
    try:
        for result in stream:
            results.append(result)
            if on_result is not None:
                on_result(result)
            bar.update(result)
    finally:
        bar.close()
        if close is not None:
            close()
    results.sort(key=lambda r: (r["file"], r["path"]))
    seconds = time.perf_counter() - start
    return Run(results, seconds, workers, summarize(results, seconds))


class _bar:
    """tqdm on stderr (files done, failures and findings so far), silent when ``quiet``."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.failed = self.warnings = 0
        self.tqdm = None
        if not quiet:
            from tqdm import tqdm

            self.tqdm = tqdm(total=total, unit="file", file=sys.stderr, mininterval=0.5, dynamic_ncols=True)

    def update(self, result: dict) -> None:
        if self.tqdm is None:
            return
        self.failed += result["status"] != "ok"
        self.warnings += result["counts"]["warning"]
        self.tqdm.set_postfix_str(f"failed {self.failed}, warnings {self.warnings}", refresh=False)
        self.tqdm.update(1)

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
