"""``--scheduler ADDRESS``: the same files, the same task function, on a Dask ``distributed`` cluster.

Each file is one Dask task, ``dask_task``: on the Dask worker it feeds the request to a sandbox worker
process of its own (``sandbox.Sandbox``, one per worker thread, kept for the worker's life, so the time and
memory limits and the one GL context hold there exactly as on this machine). Results stream back as they
finish (``as_completed``). A Dask worker that dies mid-file is the scheduler's business first: it runs the
task again elsewhere (up to its ``allowed-failures``); every start is logged as a Dask event
(``animview-start``), so the report says how many attempts a file took. A task the scheduler gives up on
(``KilledWorker``) is submitted once more by us, and if that fails too it is reported ``crashed``: no file is
silently dropped. Files are read by path, so every worker must see them at the same paths (a shared
file system), and previews are written there too.
"""
from __future__ import annotations

import threading
import uuid
from typing import Iterable, Iterator

from viewer.library.sandbox import Sandbox, WorkerDied, failure

EVENT = "animview-start"
_local = threading.local()  # the sandbox of this Dask worker thread


def dask_task(request: dict) -> dict:
    """Run one request on this Dask worker's sandbox; the sandbox's own death is retried once here."""
    from distributed import get_worker

    worker = get_worker()
    worker.log_event(EVENT, {"run": request.get("run"), "path": request["path"]})
    name = f"dask {worker.address} #{threading.get_ident() % 10000}"
    for attempt in (1, 2):
        sandbox = getattr(_local, "sandbox", None)
        if sandbox is None:
            sandbox = _local.sandbox = Sandbox(name)
        try:
            result = sandbox.run(request)
        except WorkerDied as exc:
            sandbox.stop()
            _local.sandbox = None
            if exc.timed_out:
                seconds = (request.get("limits") or {}).get("seconds") or 0
                result = failure(request, "time-limit", f"over the per-file time limit of {seconds:g} s (killed)")
            elif attempt == 2:
                result = failure(request, "crashed", f"the worker died on it twice: {exc}", attempts=2)
            else:
                continue
        result["attempts"], result["worker"] = attempt, name
        return result
    raise AssertionError("unreachable")


def connect(scheduler: str):
    """A ``distributed.Client`` for ``scheduler``: an address (``tcp://host:8786``) or ``dask-config`` (the
    address dask.config holds, e.g. from ``DASK_SCHEDULER_ADDRESS``)."""
    try:
        import dask
        from distributed import Client
    except ImportError:
        from viewer.errors import UsageError

        raise UsageError("animview: --scheduler needs Dask: pip install 'animview[cluster]'") from None
    address = dask.config.get("scheduler-address", None) if scheduler == "dask-config" else scheduler
    if not address:
        from viewer.errors import UsageError

        raise UsageError("animview: --scheduler dask-config, but dask.config has no scheduler-address")
    try:
        return Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        from viewer.errors import UsageError

        raise UsageError(f"animview: cannot reach the Dask scheduler at {address}: {exc}") from None


def run_on_cluster(client, requests: Iterable[dict]) -> Iterator[dict]:
    """Results of ``requests`` as the cluster finishes them; every request is answered exactly once."""
    from distributed import as_completed

    run = uuid.uuid4().hex[:8]
    requests = [dict(r, run=run) for r in requests]
    starts: dict[str, int] = {}
    lock = threading.Lock()

    def started(event) -> None:  # on the client's event loop, as Dask workers log starts
        with lock:
            if event[1].get("run") == run:
                path = event[1].get("path")
                starts[path] = starts.get(path, 0) + 1

    client.subscribe_topic(EVENT, started)
    futures = {}
    for i, request in enumerate(requests):
        futures[client.submit(dask_task, request, key=f"animview-{run}-{i}", pure=False)] = (request, 1)
    pending = as_completed(list(futures), with_results=False)
    for future in pending:
        request, submitted = futures.pop(future)
        if future.status == "finished":
            result = future.result()
            with lock:
                result["attempts"] = max(result.get("attempts", 1), starts.get(request["path"], 1))
            yield result
        elif submitted == 1:  # the scheduler gave up (KilledWorker) or the task failed: once more, from us
            retry = client.submit(dask_task, request, key=f"animview-{run}-retry-{uuid.uuid4().hex[:8]}",
                                  pure=False)
            futures[retry] = (request, 2)
            pending.add(retry)
        else:
            error = future.exception()
            with lock:
                attempts = max(2, starts.get(request["path"], 2))
            yield failure(request, "crashed", f"lost on the cluster twice: {type(error).__name__}: {error}"[:300],
                          attempts=attempts)
        future.release()
    client.unsubscribe_topic(EVENT)

