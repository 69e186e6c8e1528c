/* The "Offline scoring" page (templates/scoring/engine/check.html): starts SkatEngine and
 * shows its status in the words the template gives (data-loading, data-ready, data-failed). */
(function () {
  "use strict";

  function show() {
    const box = document.getElementById("engine-status");
    const status = window.SkatEngine.status;
    box.dataset.status = status;
    const words = box.dataset[status];
    if (words) {
      box.textContent = words;
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.addEventListener("skatengine:status", show);
    window.SkatEngine.ready().catch(function () {}).then(show);
  });
})();
