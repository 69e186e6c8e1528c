// Live pages poll with htmx (hx-trigger="every 10s"). A trigger filter ("every 10s [cond]")
// would be evaluated as a string of JavaScript, which the Content-Security-Policy forbids, so
// the conditions live here instead: a polling element names when to skip a request in
// data-live-pause, a space-separated list of
//   hidden        the page is not visible (a tablet in a drawer, a background tab);
//   details-open  a <details> inside the element is open (a reader is looking at a deal's
//                 history, which the next swap would close).
// A polling element with data-live-etag names the state it shows: the poll sends it as
// If-None-Match, and the server answers 304 or only what changed since that state (the
// evening overview: the changed tables, out of band). The ETag of an answer that was applied
// becomes the state shown.
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

  function withEtag(event) {
    var element = event.detail && event.detail.elt;
    return element && element.hasAttribute && element.hasAttribute("data-live-etag")
      ? element : null;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var element = withEtag(event);
    if (element && element.getAttribute("data-live-etag")) {
      event.detail.headers["If-None-Match"] = element.getAttribute("data-live-etag");
    }
  });

  // After the answer was swapped in (htmx swaps before this event when there is no swap
  // delay): a 304 changes nothing, an error keeps the state shown.
  document.addEventListener("htmx:afterRequest", function (event) {
    var element = withEtag(event);
    var xhr = event.detail && event.detail.xhr;
    if (element && xhr && xhr.status === 200 && event.detail.successful) {
      var etag = xhr.getResponseHeader("ETag");
      if (etag) {
        element.setAttribute("data-live-etag", etag);
      }
    }
  });
})();
