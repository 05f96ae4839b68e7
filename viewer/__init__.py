"""animview: a glTF 2.0 animation viewer that shows exactly what an animation does.

The public Python API: ``load(path) -> Scene`` (raises ``GltfError``), ``Clip.sample(t, mode)`` on
``scene.clips``, ``Pose`` for world and joint matrices, and ``sample_animations`` for the same report
``animview sample --json`` prints; in Jupyter, ``show(path)`` plays a file as a widget (the ``notebook`` extra).
"""

from viewer.base.errors import GltfError, GltfWarning
from viewer.scene.scene import Scene, load

__all__ = ["GltfError", "GltfWarning", "Scene", "load", "sample_animations", "Pose", "show"]


def __getattr__(name: str):
    # Lazy so ``import viewer`` stays light for the CLI's error path.
    if name == "sample_animations":
        from viewer.files.sampling import sample_animations

        return sample_animations
    if name == "Pose":
        from viewer.pose.pose import Pose

        return Pose
    if name == "show":
        return _entry_point(name)
    raise AttributeError(name)


def _entry_point(name: str):
    """A public name that a layer above this module provides (``show``: ``viewer.notebook``, GL and widgets),
    registered in pyproject.toml's ``animview.api`` entry points: found through the installed package's metadata,
    so the core's API never imports the layers built on it."""
    from importlib.metadata import entry_points

    for point in entry_points(group="animview.api", name=name):
        return point.load()
    raise AttributeError(f"viewer.{name} is not registered: install the package (pip install -e .) to get it")
