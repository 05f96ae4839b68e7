"""The viewer window: moderngl-window's ``WindowConfig`` wiring the clock, the pose, the renderer and the overlay
(``window``). It decides nothing of its own: every rule it follows lives in the layers below, so a headless test
and a real window run the same object."""
