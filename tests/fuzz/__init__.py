"""A seeded mutation fuzzer for the loader, the sampler, the pose and the renderer (issue 8).

Case k of campaign S is a seed file mutated by ``random.Random(f"{S}/{k}")`` (``mutate.py``), run in a
forked child with CPU, memory and wall-clock limits (``isolate.py``) that loads, samples, poses and
sometimes renders it (``check.py``); ``runner.py`` spreads cases over worker processes and
``report.py`` keeps the failing ones. ``python -m tests.fuzz --help`` for the command line.
"""
