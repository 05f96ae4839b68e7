"""The immutable model of a loaded file: node arrays with parents before children, rest TRS, meshes, skins,
cameras, clips (``scene``), the punctual lights with their per-pose world values (``lights``) and the material
variants each primitive can be drawn in (``variants``). Built once by
``load``; nothing here changes after it, so every pose, pane and worker can share one ``Scene``. Pure numpy."""
