"""The viewer window: moderngl-window's ``WindowConfig`` wiring the clock, the pose, the renderer and the overlay
(``window``), built from parts so each reads on its own: ``input`` (keys, characters, mouse, wheel and dropped
files), ``frame`` (one frame's pose, followed camera, 3D view and the camera it is seen through) and ``files``
(opening and reloading a file, framing it, screenshots and the loop range as a GIF). It decides nothing of its
own: every rule it follows lives in the layers below, so a headless test and a real window run the same object."""
