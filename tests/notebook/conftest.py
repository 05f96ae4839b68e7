"""What the notebook tests share: a player on a small scene, the Chromium the browser tests drive, and a JupyterLab
server of our own (no token, a free port, its settings in a temporary folder, killed in a ``finally``).

Browser tests skip, saying what is missing, without Playwright, ``/usr/bin/chromium`` or JupyterLab; every wait
has a deadline.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, KHRONOS_DIR, REPO_ROOT, need_browser  # noqa: F401 (for test_browser)

LAB_START_S = 90
DEMO = REPO_ROOT / "assets" / "interpolation.gltf"


def need_notebook_extra() -> None:
    for name in ("jupyter_rfb", "ipywidgets"):
        pytest.importorskip(name, reason=f"the notebook extra is not installed ({name}): pip install -e '.[notebook]'")


@pytest.fixture
def player_factory():
    """``make(path, **show_args)`` → a Player (closed at the end of the test); skips without the extra or EGL."""
    need_notebook_extra()
    import viewer
    from viewer.export import HeadlessError

    made = []

    def make(path=DEMO, time_source=None, **kwargs):
        """``viewer.show(path, **kwargs)``; with ``time_source``, the ``Player`` itself on that clock source."""
        try:
            if time_source is None:
                p = viewer.show(path, **kwargs)
            else:
                from viewer.notebook.player import Player

                p = Player(viewer.load(path), time_source=time_source, **kwargs)
        except HeadlessError as exc:
            pytest.skip(str(exc))
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _lab_env(home: Path) -> dict:
    """JupyterLab's settings, workspaces and runtime files in ``home``: nothing of the user's is read or written."""
    env = dict(os.environ)
    for var, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("IPYTHONDIR", "ipython"),
    ):
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(home / sub)
    env["ANIMVIEW_KHRONOS"] = str(KHRONOS_DIR)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    # no "news" and update checks (the lab would ask the network), no first-run notification
    (home / "settings" / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
    (home / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    return env


@contextlib.contextmanager
def jupyter_lab(root: Path, home: Path):
    """A JupyterLab serving ``root`` on a free port with no token; yields its base URL."""
    if importlib_missing("jupyterlab") or shutil.which("jupyter", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("JupyterLab is not installed: pip install jupyterlab")
    port = free_port()
    home.mkdir(parents=True, exist_ok=True)
    log = open(home / "lab.log", "w")
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        f"--ServerApp.root_dir={root}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=",
        "--LabApp.extension_manager=readonly",  # no PyPI look-ups
        "--ServerApp.terminals_enabled=False",
        "--allow-root",  # CI runs as root in a container
    ]
    proc = subprocess.Popen(cmd, env=_lab_env(home), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + LAB_START_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited ({proc.returncode}):\n{(home / 'lab.log').read_text()[-3000:]}")
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(url + "/api/status", timeout=2) as r:
                    if r.status == 200:
                        break
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not answer in {LAB_START_S} s:\n{(home / 'lab.log').read_text()[-3000:]}")
            time.sleep(0.25)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)
        log.close()


def importlib_missing(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is None
