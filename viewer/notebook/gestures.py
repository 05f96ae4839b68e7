"""The widget's mouse and keys (jupyter_rfb events) as the window reads them: left drag orbits, right or middle
drag (or Shift + left) pans, the wheel zooms, a click picks a node, a double click puts the camera back.

Kept apart from the player because a gesture is plain arithmetic on event dicts (``{"type": "pointer_move",
"x": …, "y": …, "buttons": (1,), "modifiers": ("Shift",)}``; x, y in CSS pixels of the view, wheel ``dy`` in CSS
pixels, negative away from the user) and is tested without a browser. The rates are the window's
(``app/input.py``): 0.008 rad per pixel, 0.9× per wheel notch (``NOTCH_PX`` pixels), a press and release within
``CLICK_SLOP_PX`` a click. Keys name clock moves (``KEY_ACTIONS``); the player carries them out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.render.camera import OrbitCamera

ORBIT_RAD_PER_PX = 0.008
CLICK_SLOP_PX = 4.0
ZOOM_PER_NOTCH = 0.9
NOTCH_PX = 100.0  # a mouse wheel notch reports about 100 CSS pixels of deltaY in Chromium and Firefox
LEFT, RIGHT, MIDDLE = 1, 2, 3  # jupyter_rfb's button numbers

# key (as the browser names it, with "Shift+" when held) → the player's clock action
KEY_ACTIONS = {
    " ": "toggle",
    "ArrowRight": "next_frame",
    "ArrowLeft": "prev_frame",
    "Shift+ArrowRight": "next_key",
    "Shift+ArrowLeft": "prev_key",
    "Home": "home",
    "End": "end",
    "f": "reset_camera",
}


def move_clock(clock, action: str) -> None:
    """Carry out a clock action of ``KEY_ACTIONS`` (all but "toggle" and "reset_camera") on a ``playback.Clock``:
    each pauses, as the window's keys do."""
    moves = {"next_frame": lambda: clock.step_frames(1), "prev_frame": lambda: clock.step_frames(-1)}
    moves.update(next_key=clock.next_key, prev_key=clock.prev_key, home=clock.home, end=clock.end)
    moves[action]()


@dataclass
class Outcome:
    """What one event asks of the player.

    Attributes:
        camera: the camera moved (draw again).
        click: (x, y) CSS pixels of a click (pick the node there), else None.
        action: a ``KEY_ACTIONS`` value, else None.
    """

    camera: bool = False
    click: tuple[float, float] | None = None
    action: str | None = None


class Gestures:
    """One view's drag in progress, turned into camera moves.

    ``take_camera`` is called on the first move of a gesture and returns the camera to move (the player hands over
    the camera it shows, fitted as ``render`` fits it, so a drag starts from the picture on screen).
    """

    def __init__(self) -> None:
        self._drag: dict | None = None

    def handle(self, event: dict, take_camera, view_height: float) -> Outcome:
        """Apply ``event`` (a jupyter_rfb event dict); ``view_height``: the view's height in CSS pixels."""
        kind = event.get("type")
        if kind == "pointer_down":
            pan = event.get("button") in (RIGHT, MIDDLE) or "Shift" in event.get("modifiers", ())
            self._drag = {"x": event["x"], "y": event["y"], "x0": event["x"], "y0": event["y"], "pan": pan}
            self._drag["moved"] = False
            return Outcome()
        if kind == "pointer_move" and self._drag is not None:
            return Outcome(camera=self._move(event, take_camera, max(view_height, 1.0)))
        if kind == "pointer_up" and self._drag is not None:
            # the browser holds the last move back (throttled) and sends the release first: a quick flick's motion
            # arrives with the release, so it is applied here
            moved = self._move(event, take_camera, max(view_height, 1.0))
            drag, self._drag = self._drag, None
            click = not drag["moved"] and not drag["pan"] and event.get("button") == LEFT
            return Outcome(camera=moved, click=(event["x"], event["y"]) if click else None)
        if kind == "wheel":
            notches = -float(event.get("dy", 0.0)) / NOTCH_PX
            if notches:
                camera: OrbitCamera = take_camera()
                camera.zoom(ZOOM_PER_NOTCH**notches)
                return Outcome(camera=True)
            return Outcome()
        if kind == "double_click":
            return Outcome(action="reset_camera")
        if kind == "key_down":
            key = event.get("key", "")
            shifted = "Shift" in event.get("modifiers", ()) and key not in ("Shift", " ")
            return Outcome(action=KEY_ACTIONS.get(("Shift+" if shifted else "") + key))
        return Outcome()

    def _move(self, event: dict, take_camera, view_height: float) -> bool:
        """A drag moves the camera once it leaves the click's slop, by all it moved since the press (a click that
        trembles by a pixel leaves the camera alone)."""
        drag = self._drag
        if not drag["moved"]:
            drag["moved"] = math.hypot(event["x"] - drag["x0"], event["y"] - drag["y0"]) > CLICK_SLOP_PX
            if not drag["moved"]:
                return False
        dx, dy = event["x"] - drag["x"], event["y"] - drag["y"]
        drag["x"], drag["y"] = event["x"], event["y"]
        if not (dx or dy):
            return False
        camera: OrbitCamera = take_camera()
        if drag["pan"]:
            camera.pan(dx / view_height, dy / view_height)
        else:
            camera.orbit(-dx * ORBIT_RAD_PER_PX, dy * ORBIT_RAD_PER_PX)
        return True
