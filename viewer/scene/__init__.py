"""The immutable model of a loaded file: node arrays with parents before children, rest TRS, meshes, skins,
cameras, clips (``scene``) and the punctual lights with their per-pose world values (``lights``). Built once by
``load``; nothing here changes after it, so every pose, pane and worker can share one ``Scene``. Pure numpy."""
