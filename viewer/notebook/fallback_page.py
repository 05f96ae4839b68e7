"""The static player's page: pre-rendered JPEG frames, a play button, a time slider and a button per mode, in one
``<div>`` with inline JS and no network (what nbconvert writes where the live widget cannot run).

Kept apart from the frames (``fallback``) because it is only text: the data go in a ``<script
type="application/json">`` block with ``<``, ``>`` and ``&`` escaped (a name cannot close it), names shown are
HTML-escaped, and the script finds its own block by a random id, so several players on one page keep apart.
Without JS the first frame shows as a plain image. Playing follows real time at 1× (the frame shown is the last
whose time has passed), looping, as the live player's default does.
"""

from __future__ import annotations

import html
import json
import uuid

STYLE = (
    "font:13px sans-serif;display:inline-block;border:1px solid #ccc;border-radius:4px;padding:4px;background:#fafafa"
)

SCRIPT = """(function () {
  var root = document.getElementById(%(id)s);
  if (!root || root.dataset.ready) { return; }
  root.dataset.ready = "1";
  var data = JSON.parse(root.querySelector("script.animview-data").textContent);
  var img = root.querySelector("img"), slider = root.querySelector("input[type=range]");
  var play = root.querySelector("button.animview-play"), label = root.querySelector(".animview-time");
  var modes = Array.prototype.slice.call(root.querySelectorAll("button.animview-mode"));
  var set = 0, index = 0, timer = null, start = 0, duration = data.times[data.times.length - 1];
  function show(i) {
    index = i;
    img.src = "data:image/jpeg;base64," + data.sets[set].frames[i];
    slider.value = i;
    label.textContent = data.times[i].toFixed(3) + " s";
    root.dataset.index = i;
  }
  function tick(now) {
    if (timer === null) { return; }
    var t = duration > 0 ? ((now - start) / 1000) %% duration : 0, i = 0;
    while (i + 1 < data.times.length && data.times[i + 1] <= t) { i += 1; }
    if (i !== index) { show(i); }
    timer = window.requestAnimationFrame(tick);
  }
  function stop() {
    if (timer !== null) { window.cancelAnimationFrame(timer); }
    timer = null;
    play.textContent = "\\u25B6";
  }
  play.addEventListener("click", function () {
    if (timer !== null) { stop(); return; }
    start = performance.now() - data.times[index] * 1000;
    play.textContent = "\\u23F8";
    timer = window.requestAnimationFrame(tick);
  });
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
  modes.forEach(function (button, k) {
    button.addEventListener("click", function () {
      set = k;
      modes.forEach(function (b, j) { b.style.fontWeight = j === k ? "bold" : "normal"; });
      show(index);
    });
  });
  show(0);
})();"""


def _script_json(value) -> str:
    """JSON safe inside a ``<script>`` block: no ``<``, ``>`` or ``&`` at all (``</script>`` cannot end it, ``<!--``
    cannot change how the HTML parser reads it); ``JSON.parse`` reads the escapes back."""
    text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def fallback_page(title: str, times: list[float], sets: list[tuple[str, list[str]]], size: tuple[int, int]) -> str:
    """The page for ``sets`` — (label, base64 JPEG per time) — of frames at ``times`` (seconds), ``size`` (w, h)."""
    root = "animview-" + uuid.uuid4().hex
    w, h = size
    data = {"times": [round(float(t), 6) for t in times], "sets": [{"label": k, "frames": f} for k, f in sets]}
    buttons = "".join(
        f"<button class='animview-mode' style='font-weight:{'bold' if k == 0 else 'normal'}'>{html.escape(label)}"
        "</button>"
        for k, (label, _) in enumerate(sets)
    )
    last = len(times) - 1
    return (
        f"<div id='{root}' class='animview-fallback' style='{STYLE}'>"
        f"<div style='color:#555;margin-bottom:2px'>{html.escape(title)}</div>"
        f"<img width='{w}' height='{h}' alt='{html.escape(title)}' "
        f"src='data:image/jpeg;base64,{sets[0][1][0]}' style='display:block'>"
        "<div style='display:flex;gap:6px;align-items:center;margin-top:4px'>"
        "<button class='animview-play' title='play / pause'>\u25b6</button>"
        f"<input type='range' min='0' max='{last}' value='0' step='1' style='flex:1'>"
        "<span class='animview-time' style='font-family:monospace'>0.000 s</span></div>"
        f"<div style='margin-top:4px'>{buttons if len(sets) > 1 else ''}</div>"
        "<div style='color:#888;font-size:11px'>static copy: pre-rendered frames (run the notebook for the live "
        "player)</div>"
        f"<script type='application/json' class='animview-data'>{_script_json(data)}</script>"
        f"<script>{SCRIPT % {'id': json.dumps(root)}}</script>"
        "</div>"
    )
