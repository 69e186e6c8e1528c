// The series clock counting down (issue 24): every element .series-clock[data-ends] shows
// the time left to its end ("1:23:45 left") or past it ("0:04:10 over time"), once a second.
// data-ends is the end and data-now the server's time when the element was made, both in ms
// since the epoch: the count follows the server's clock, not the device's (a tablet set five
// minutes wrong still shows the director's time). The words come from the element
// (data-left, data-over: "%(time)s left"), translated by the server.
// Used by the cockpit and, through table-line.js, by the table screens.
(function () {
  "use strict";

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function text(seconds) {
    var s = Math.abs(seconds);
    return Math.floor(s / 3600) + ":" + pad(Math.floor(s / 60) % 60) + ":" + pad(s % 60);
  }

  // Where the server's clock stood against this device's, per element (its data-now).
  function offset(element) {
    if (!element.dataset.offset || element.dataset.offsetFor !== element.dataset.now) {
      element.dataset.offset = String(Number(element.dataset.now) - Date.now());
      element.dataset.offsetFor = element.dataset.now;
    }
    return Number(element.dataset.offset);
  }

  function tick(element) {
    var ends = Number(element.dataset.ends);
    if (!element.dataset.ends || !isFinite(ends)) {
      return;
    }
    var seconds = Math.floor((ends - (Date.now() + offset(element))) / 1000);
    var over = seconds < 0;
    var words = (over ? element.dataset.over : element.dataset.left) || "%(time)s";
    var shown = words.replace("%(time)s", text(over ? -seconds : seconds));
    if (element.textContent !== shown) {
      element.textContent = shown;
    }
    element.classList.toggle("over", over);
  }

  function tickAll() {
    document.querySelectorAll(".series-clock[data-ends]").forEach(tick);
  }

  window.SeriesClock = {tick: tick, tickAll: tickAll};
  document.addEventListener("htmx:afterSwap", tickAll);
  window.setInterval(tickAll, 1000);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", tickAll);
  } else {
    tickAll();
  }
})();
