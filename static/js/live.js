// Live pages poll with htmx (hx-trigger="every 10s"). A trigger filter ("every 10s [cond]")
// would be evaluated as a string of JavaScript, which the Content-Security-Policy forbids, so
// the conditions live here instead: a polling element names when to skip a request in
// data-live-pause, a space-separated list of
//   hidden        the page is not visible (a tablet in a drawer, a background tab);
//   details-open  a <details> inside the element is open (a reader is looking at a deal's
//                 history, which the next swap would close).
(function () {
  "use strict";
  document.addEventListener("htmx:beforeRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (!element || !element.hasAttribute || !element.hasAttribute("data-live-pause")) {
      return;
    }
    var pause = element.getAttribute("data-live-pause").split(/\s+/);
    if ((pause.indexOf("hidden") >= 0 && document.visibilityState !== "visible") ||
        (pause.indexOf("details-open") >= 0 && element.querySelector("details[open]"))) {
      event.preventDefault();
    }
  });
})();
