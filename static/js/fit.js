// A wide table scrolls sideways inside its own box, never the page. A box marked data-fit
// (the score sheet, the audit log) becomes a scroll box only when its table does not fit
// (class "too-wide"): a scroll box is also what a sticky header row sticks to, so a table
// that fits stays without one and its header row keeps sticking to the top of the screen
// while one reads down a long evening. Checked on load, on every resize (a tablet turned)
// and after every htmx swap (the sheet refreshes itself).
(function () {
  "use strict";
  function fit() {
    var boxes = document.querySelectorAll("[data-fit]");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      var table = box.querySelector("table");
      if (table) {
        box.classList.toggle("too-wide", table.offsetWidth > box.clientWidth);
      }
    }
  }
  document.addEventListener("DOMContentLoaded", fit);
  window.addEventListener("resize", fit);
  document.addEventListener("htmx:afterSettle", fit);
})();
