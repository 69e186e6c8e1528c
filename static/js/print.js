// Print buttons: <button data-print> opens the browser's print dialogue. A static file, not
// an onclick attribute, because the Content-Security-Policy allows no inline script.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-print]") : null;
    if (button) {
      window.print();
    }
  });
})();
