"""animview: a glTF 2.0 animation viewer that shows exactly what an animation does.

The public Python API: ``load(path) -> Scene`` (raises ``GltfError``), ``Clip.sample(t, mode)`` on
``scene.clips``, ``Pose`` for world and joint matrices, and ``sample_animations`` for the same report
``animview sample --json`` prints.
"""

from viewer.base.errors import GltfError, GltfWarning
from viewer.scene.scene import Scene, load

__all__ = ["GltfError", "GltfWarning", "Scene", "load", "sample_animations", "Pose"]


def __getattr__(name: str):
    # Lazy so ``import viewer`` stays light for the CLI's error path.
    if name == "sample_animations":
        from viewer.files.sampling import sample_animations

        return sample_animations
    if name == "Pose":
        from viewer.pose.pose import Pose

        return Pose
    raise AttributeError(name)
