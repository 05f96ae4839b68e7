"""VTK's glTF loader as f3d plays it: the newest loader read, ``Kitware/VTK@00e769f4``
``IO/Geometry/vtkGLTFDocumentLoader.cxx`` (``Animation::Sampler::GetInterpolatedData``), and f3d's
``animationManager`` (``f3d-app/f3d@5e87d7ad``). The newer sampler finds the next key with lower_bound and treats
a time as "exact" only when it equals the previous key's, so a STEP key's own time still shows the old value; its
CUBICSPLINE is the spec's Hermite (the older loader's Kochanek spline and its early STEP are gone); LINEAR
rotations go through vtkQuaternion::Slerp on the keys as stored (shortest path, a lerp where 1 − |dot| < 1e-6),
then normalized. f3d wraps the clock only past the end, so t == duration shows the last pose
(``docs/engines_sources.md`` §9)."""

from viewer.engines.engine import Behaviour, Engine

LOADER = "Kitware/VTK@00e769f4 IO/Geometry/vtkGLTFDocumentLoader.cxx:Animation::Sampler::GetInterpolatedData"

ENGINE = Engine(
    "vtk",
    "VTK / f3d",
    "VTK master 00e769f4 loader, f3d 5e87d7ad player",
    "f3d animationManager::Tick: time += dt, wrapped only when past the end (t == end: the last pose)",
    (
        Behaviour("step-at-key", LOADER, "exact only at the previous key's time: at a STEP key's time the old value"),
        Behaviour(
            "end-of-loop",
            "f3d-app/f3d@5e87d7ad library/src/animationManager.cxx:Tick",
            "the time wraps only when strictly past the end: t == duration shows the last pose",
        ),
        Behaviour(
            "rotation-lerp",
            "Kitware/VTK@3e71a4c4 Common/Math/vtkQuaternion.txx:Slerp",
            "LINEAR rotations: keys as stored, lerp where 1 - |dot| < 1e-6, slerp by acos(dot) above; normalized",
        ),
    ),
    step_at_key="old",
    end="last",
    lerp_above=1.0 - 1e-6,
    raw_keys="acos",
)
