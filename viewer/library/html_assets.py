"""The HTML report's style sheet and script, apart from the Python that writes its rows.

The script only sorts and filters rows the page already holds (``html_report`` says why); ``COLUMN_TRACKS``
in the CSS is replaced by the grid tracks of ``html_report.COLUMNS``.
"""

CSS = """
:root { --err: #c62828; --warn: #b26a00; --info: #6b6b6b; --line: #ddd; --muted: #777; }
* { box-sizing: border-box; }
body { font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #222; background: #fff; }
header { position: sticky; top: 0; z-index: 2; background: #f7f7f7; border-bottom: 1px solid var(--line);
         padding: 8px 12px; }
h1 { font-size: 16px; margin: 0 0 4px; }
.summary { margin: 0 0 6px; }
.summary .failed, .summary .lv-error { color: var(--err); font-weight: 600; }
.summary .lv-warning { color: var(--warn); font-weight: 600; }
.summary .lv-info { color: var(--info); font-weight: 600; }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.controls select, .controls input { font: inherit; padding: 2px 4px; }
.controls #code { max-width: 32em; }
.controls input[type=search] { width: 18em; }
#shown { color: var(--muted); margin-left: auto; }
/* Rows are grids, not table layout: a 20 000-row table is laid out whole on every sort (seconds), while
   block rows with content-visibility lay out only what is on screen. The DOM stays a <table>. */
table, thead, tbody { display: block; width: 100%; }
tr { display: grid; grid-template-columns: COLUMN_TRACKS; border-bottom: 1px solid var(--line); }
tr[hidden] { display: none; }
tbody tr { content-visibility: auto; contain-intrinsic-size: auto 63px; }
th, td { display: block; padding: 4px 6px; text-align: left; overflow-wrap: anywhere; min-width: 0; }
thead { position: sticky; top: var(--head, 0px); z-index: 1; background: #eee; }
th { padding: 0; overflow-wrap: normal; white-space: nowrap; }
th button { all: unset; display: block; width: 100%; padding: 6px; cursor: pointer; font-weight: 600;
            box-sizing: border-box; }
th button:focus-visible { outline: 2px solid #4a90e2; }
th .arrow { color: var(--muted); margin-left: 2px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
th.num button { text-align: right; }
tbody tr.has-more { cursor: pointer; }
tbody tr:hover { background: #f3f7fc; }
tbody tr.open { background: #eef4fb; }
.thumb { display: block; width: 96px; height: 54px; object-fit: contain; background: #f0f0f0; }
.ph { width: 96px; height: 54px; background: repeating-linear-gradient(45deg, #f2f2f2 0 6px, #e8e8e8 6px 12px);
      color: #999; font-size: 10px; display: flex; align-items: center; justify-content: center; }
.path { color: var(--muted); }
.idx { color: var(--muted); }
.err { color: var(--err); }
.st-ok { color: var(--muted); }
.st-bad { color: var(--err); font-weight: 600; }
.badge { display: inline-block; border-radius: 9px; padding: 0 7px; margin: 1px 2px 1px 0; color: #fff;
         font-size: 11px; line-height: 17px; white-space: nowrap; }
.badge.error { background: var(--err); }
.badge.warning { background: var(--warn); }
.badge.info { background: var(--info); }
.badge.file { outline: 1px dashed #0006; outline-offset: -3px; }
.badge b { font-weight: 600; margin-left: 3px; }
.tg { all: unset; cursor: pointer; color: var(--muted); padding: 0 4px; }
.more { display: none; margin: 4px 0 0; padding-left: 1em; }
tr.open .more { display: block; }
.more li { margin: 2px 0; }
.more code { background: #f3f3f3; padding: 0 3px; }
.more .lv { font-weight: 600; }
.more .lv.error { color: var(--err); } .more .lv.warning { color: var(--warn); } .more .lv.info { color: var(--info); }
"""

# Sorting: keys per column are read once (data-v: a number; data-s: a string; else the cell's text), rows with
# no value go last in both directions, ties keep the original order. Filtering: one pass over the rows.
JS = r"""
(function () {
  "use strict";
  var table = document.getElementById("rows");
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var total = rows.length;
  var heads = table.tHead.rows[0].cells;
  var keyCache = {};
  var sortCol = -1, sortDir = 1;
  var order = new Array(total);
  for (var i = 0; i < total; i++) order[i] = i;
  var codes = rows.map(function (r) { return " " + (r.getAttribute("data-c") || "") + " "; });
  var levels = rows.map(function (r) { return " " + (r.getAttribute("data-l") || "") + " "; });
  var failed = rows.map(function (r) { return r.hasAttribute("data-f"); });
  var names = null;  // lower-case "file clip" per row, read on the first text filter

  function keysFor(col) {
    if (keyCache[col]) return keyCache[col];
    var keys = new Array(total);
    for (var i = 0; i < total; i++) {
      var cell = rows[i].cells[col];
      var v = cell.getAttribute("data-v"), s = cell.getAttribute("data-s"), k;
      if (v !== null) { k = parseFloat(v); if (k !== k) k = null; }
      else k = (s !== null ? s : cell.textContent.trim().toLowerCase()) || null;
      keys[i] = k;
    }
    return (keyCache[col] = keys);
  }

  function sortBy(col) {
    sortDir = (col === sortCol) ? -sortDir : 1;
    sortCol = col;
    var keys = keysFor(col), dir = sortDir;
    var idx = order.slice();
    idx.sort(function (a, b) {
      var x = keys[a], y = keys[b];
      if (x === y) return a - b;
      if (x === null) return 1;  // no value: last, whichever the direction
      if (y === null) return -1;
      return x < y ? -dir : x > y ? dir : a - b;
    });
    var next = tbody.nextSibling;
    table.removeChild(tbody);  // reorder off the document: one relayout, not one per row
    for (var i = 0; i < total; i++) tbody.appendChild(rows[idx[i]]);
    table.insertBefore(tbody, next);
    for (var h = 0; h < heads.length; h++) {
      var on = h === col;
      heads[h].setAttribute("aria-sort", on ? (dir > 0 ? "ascending" : "descending") : "none");
      heads[h].querySelector(".arrow").textContent = on ? (dir > 0 ? "\u25B2" : "\u25BC") : "";
    }
  }

  var codeSel = document.getElementById("code"), levelSel = document.getElementById("level");
  var text = document.getElementById("text"), shown = document.getElementById("shown");

  function applyFilter() {
    var code = codeSel.value, level = levelSel.value, q = text.value.trim().toLowerCase();
    if (q && names === null) {
      names = rows.map(function (r) {
        return (r.cells[1].textContent + " " + r.cells[2].textContent).toLowerCase();
      });
    }
    var needCode = " " + code + " ", needLevel = " " + level + " ", n = 0;
    for (var i = 0; i < total; i++) {
      var ok = true;
      if (code === "*any") ok = codes[i] !== "  ";
      else if (code === "*none") ok = codes[i] === "  ";
      else if (code === "*failed") ok = failed[i];
      else if (code) ok = codes[i].indexOf(needCode) >= 0;
      if (ok && level) ok = levels[i].indexOf(needLevel) >= 0;
      if (ok && q) ok = names[i].indexOf(q) >= 0;
      if (rows[i].hidden === ok) rows[i].hidden = !ok;
      if (ok) n++;
    }
    shown.textContent = n + " of " + total + " rows shown";
  }

  for (var h = 0; h < heads.length; h++) {
    (function (col) {
      heads[col].querySelector("button").addEventListener("click", function () { sortBy(col); });
    })(h);
  }
  codeSel.addEventListener("change", applyFilter);
  levelSel.addEventListener("change", applyFilter);
  var timer = 0;
  text.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(applyFilter, 120); });

  tbody.addEventListener("click", function (ev) {
    if (ev.target.closest("a")) return;
    var sel = window.getSelection && window.getSelection();
    if (sel && !sel.isCollapsed && !ev.target.closest(".tg")) return;  // let people select and copy text
    var row = ev.target.closest("tr");
    if (!row || !row.classList.contains("has-more")) return;
    var open = row.classList.toggle("open");
    var tg = row.querySelector(".tg");
    if (tg) { tg.setAttribute("aria-expanded", open ? "true" : "false"); tg.textContent = open ? "\u25BE" : "\u25B8"; }
  });

  // a badge's tooltip is its code's line in the finding select, set on first hover (not 20 000 times in the HTML)
  var described = {};
  for (var o = 0; o < codeSel.options.length; o++) described[codeSel.options[o].value] = codeSel.options[o].textContent;
  tbody.addEventListener("mouseover", function (ev) {
    var badge = ev.target.closest(".badge");
    if (!badge || badge.title) return;
    var code = badge.firstChild.nodeValue;
    badge.title = (Object.prototype.hasOwnProperty.call(described, code) ? described[code] : code) +
      (badge.classList.contains("file") ? " (a finding of the whole file)" : "");
  });

  // keep the table header below the sticky page header
  function headHeight() {
    document.documentElement.style.setProperty("--head", document.querySelector("header").offsetHeight + "px");
  }
  window.addEventListener("resize", headHeight);
  headHeight();
  applyFilter();
})();
"""
