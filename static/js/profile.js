// The rule-profile form shows the options of the chosen rule system only: a fieldset with
// data-rule-options is hidden while none of its fields is an option of the chosen system.
// Which system takes which option is the engine's registry (engine/rulesets), rendered by the
// server as the JSON in #rule-systems. Without script every fieldset shows, and the form
// ignores the options of other systems when it is saved.
(function () {
  "use strict";

  function systems() {
    var data = document.getElementById("rule-systems");
    return data ? JSON.parse(data.textContent) : {};
  }

  function update() {
    var select = document.getElementById("id_rules");
    if (!select) {
      return;
    }
    var system = systems()[select.value];
    var options = system ? system.options : [];
    var sets = document.querySelectorAll("fieldset[data-rule-options]");
    for (var i = 0; i < sets.length; i++) {
      var fields = sets[i].querySelectorAll("input[name], select[name], textarea[name]");
      var shown = false;
      for (var j = 0; j < fields.length && !shown; j++) {
        shown = options.indexOf(fields[j].name) >= 0;
      }
      sets[i].hidden = !shown;
    }
  }

  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "id_rules") {
      update();
    }
  });
  document.addEventListener("DOMContentLoaded", update);
})();
