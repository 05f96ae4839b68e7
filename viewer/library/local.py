"""``--jobs N``: N sandbox workers on this machine, fed one file at a time, results as they finish.

One parent loop waits on every worker's pipe and on the earliest deadline (``select``), so a slow file never
holds up the others and a hung one is killed at its deadline. A worker that dies (killed, crashed) is
replaced; the file it held is run once more on whichever worker is free and, if it kills that one too,
reported as ``crashed`` — each file is reported exactly once either way.
"""

from __future__ import annotations

import select
import time
from collections import deque
from typing import Iterable, Iterator

from viewer.library.sandbox import Sandbox, WorkerDied, failure

MAX_ATTEMPTS = 2  # the first run and one retry


class StartFailed(RuntimeError):
    """Workers keep dying before they are ready: the environment is broken, not a file."""


class LocalPool:
    """``jobs`` sandbox workers; ``run`` streams results. ``pids`` lists the live workers (tests kill one)."""

    def __init__(self, jobs: int) -> None:
        self.workers = [Sandbox(f"local-{i}") for i in range(max(int(jobs), 1))]
        self._attempts: dict[str, int] = {}
        self._start_failures = 0

    def pids(self) -> list[int]:
        return [w.pid for w in self.workers if w.running]

    def run(self, requests: Iterable[dict]) -> Iterator[dict]:
        """Results of ``requests`` in the order they finish (each request's ``path`` names it once)."""
        pending = deque(requests)
        try:
            while pending or any(w.request is not None for w in self.workers):
                self._feed(pending)
                yield from self._collect(pending)
        finally:
            for w in self.workers:
                w.kill()

    def _feed(self, pending: deque) -> None:
        for w in self.workers:
            if not pending:
                return
            if not w.running:
                if w.request is not None:
                    continue  # it died holding a file: ``_collect`` reports that first (a restart would drop it)
                w.start()
            if w.ready and w.request is None:
                w.submit(pending.popleft())

    def _collect(self, pending: deque) -> Iterator[dict]:
        # A worker that died since the last look still holds its file: its pipe reads as closed, so it is read too.
        active = [w for w in self.workers if w.running or w.request is not None]
        if not active:
            return
        timeout = max(min(w.deadline for w in active) - time.monotonic(), 0.0)
        readable, _, _ = select.select(active, [], [], min(timeout, 3600.0))
        for w in readable:
            request = w.request
            try:
                result = w.read()
            except WorkerDied as exc:
                w.stop()
                w.request = None
                yield from self._died(w, request, str(exc), pending)
                continue
            if result is not None:
                yield self._finish(result, request, w)
        now = time.monotonic()
        for w in active:
            if w.running and w.deadline < now:
                request = w.request
                w.kill()
                if request is None:
                    yield from self._died(w, None, "did not start in time", pending)
                else:
                    seconds = (request.get("limits") or {}).get("seconds") or 0
                    yield self._finish(
                        failure(request, "time-limit", f"over the per-file time limit of {seconds:g} s (killed)"),
                        request,
                        w,
                    )

    def _died(self, worker: Sandbox, request: dict | None, how: str, pending: deque) -> Iterator[dict]:
        if request is None:  # died before it was ready
            self._start_failures += 1
            if self._start_failures > 2 * len(self.workers):
                raise StartFailed(f"animview: the worker processes die as they start: {how}")
            return
        attempts = self._attempts.get(request["path"], 1)
        if attempts < MAX_ATTEMPTS:
            self._attempts[request["path"]] = attempts + 1
            pending.appendleft(request)
            return
        yield self._finish(
            failure(request, "crashed", f"the worker died on it twice: {how}", attempts), request, worker
        )

    def _finish(self, result: dict, request: dict, worker: Sandbox) -> dict:
        result["attempts"] = self._attempts.pop(request["path"], 1)
        result["worker"] = worker.name
        return result
