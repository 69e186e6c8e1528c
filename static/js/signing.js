// The signing panel polls (templates/scoring/signing/_panel.html and phone.html): live.js
// sends the ETag of what the panel shows (data-live-etag), an unchanged panel is answered
// "304 Not Modified", and here such an answer leaves the panel as it is. Swapping the same
// HTML in every few seconds would drop a tap that lands during the swap, or close a PIN field.
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (event) {
    var element = event.detail && event.detail.elt;
    var xhr = event.detail && event.detail.xhr;
    if (element && element.hasAttribute && element.hasAttribute("data-signing-poll") &&
        xhr && xhr.status === 304) {
      event.detail.shouldSwap = false;
    }
  });
})();
