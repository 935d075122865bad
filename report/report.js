(function () {
  "use strict";
  var root = document.documentElement;
  // Errors are kept on the page for tests (and anyone curious) to read.
  window.addEventListener("error", function (e) {
    root.setAttribute("data-errors", (root.getAttribute("data-errors") || "") + e.message + ";");
  });
  var t0 = performance.now();
  // heat maps a share (0..1] to a colour from pale yellow to red.
  function heat(f) {
    return "hsl(" + Math.round(50 - 50 * f) + ",95%," + Math.round(92 - 40 * f) + "%)";
  }
  document.querySelectorAll("section.kernel").forEach(function (sec) {
    var sel = sec.querySelector("select.metric");
    function paint() {
      var m = sel ? sel.value : "inst";
      sec.querySelectorAll("table.src, table.ptx").forEach(function (t) {
        var rows = t.querySelectorAll("tbody tr");
        var most = 0;
        rows.forEach(function (r) { most = Math.max(most, +(r.dataset[m] || 0)); });
        rows.forEach(function (r) {
          var cell = r.querySelector("td.heat");
          if (!cell) return;
          var v = +(r.dataset[m] || 0);
          cell.style.background = most > 0 && v > 0 ? heat(v / most) : "";
        });
      });
    }
    // ?metric=KEY in the address picks the colouring (links, screenshots).
    var want = new URLSearchParams(location.search).get("metric");
    if (sel && want && sel.querySelector('option[value="' + want + '"]')) sel.value = want;
    if (sel) sel.addEventListener("change", paint);
    paint();
    sec.addEventListener("click", function (e) {
      var r = e.target.closest("tr[data-line]");
      if (!r || !r.closest("table.src, table.ptx")) return;
      sec.querySelectorAll("tr.sel").forEach(function (x) { x.classList.remove("sel"); });
      var q = 'tr[data-file="' + r.dataset.file + '"][data-line="' + r.dataset.line + '"]';
      sec.querySelectorAll("table.src " + q + ", table.ptx " + q).forEach(function (x) { x.classList.add("sel"); });
      var other = r.closest("table").classList.contains("src") ? "table.ptx " : "table.src ";
      var m = sec.querySelector(other + q);
      if (m) {
        var pane = m.closest(".pane");
        pane.scrollTop = m.offsetTop - pane.clientHeight / 3;
      }
    });
  });
  // Sortable tables: a click on a column's heading sorts by it, largest
  // first, again to flip.
  document.querySelectorAll("table.sortable thead th").forEach(function (th) {
    th.addEventListener("click", function () {
      var i = th.cellIndex;
      var tb = th.closest("table").tBodies[0];
      var rows = Array.prototype.slice.call(tb.rows);
      var desc = th.dataset.dir !== "desc";
      th.dataset.dir = desc ? "desc" : "asc";
      rows.sort(function (a, b) {
        var x = a.cells[i].dataset.v, y = b.cells[i].dataset.v;
        var d = (x !== undefined && y !== undefined) ? (+x) - (+y) : a.cells[i].textContent.localeCompare(b.cells[i].textContent);
        return desc ? -d : d;
      });
      var frag = document.createDocumentFragment();
      rows.forEach(function (r) { frag.appendChild(r); });
      tb.appendChild(frag);
    });
  });
  // When the script started (the page parsed up to it) and how long it ran.
  root.setAttribute("data-parsed-ms", String(Math.round(t0)));
  root.setAttribute("data-script-ms", String(Math.round(performance.now() - t0)));
  root.setAttribute("data-ready", "1");
})();
