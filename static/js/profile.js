// The rule-profile form shows the options of the chosen rule system only: a fieldset with
// data-systems="isko" is hidden while another system is chosen. Without script every
// fieldset shows, and the form ignores the options of other systems when it is saved.
(function () {
  "use strict";

  function update() {
    var select = document.getElementById("id_rules");
    if (!select) {
      return;
    }
    var sets = document.querySelectorAll("fieldset[data-systems]");
    for (var i = 0; i < sets.length; i++) {
      var systems = sets[i].getAttribute("data-systems").split(" ");
      sets[i].hidden = systems.indexOf(select.value) < 0;
    }
  }

  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "id_rules") {
      update();
    }
  });
  document.addEventListener("DOMContentLoaded", update);
})();
