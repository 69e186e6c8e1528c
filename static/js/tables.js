// The evening form's "One more table": adds a table's fields from the <template> without a
// page load, so nothing typed so far is lost, and counts it in the formset's management form
// (TOTAL_FORMS). Without script the same button submits the form, and the page comes back
// with everything typed and one more table. A static file: the Content-Security-Policy
// allows no inline script.
(function () {
  "use strict";

  function addTable(button) {
    var prefix = button.getAttribute("data-prefix");
    var max = parseInt(button.getAttribute("data-max"), 10);
    var total = document.getElementById("id_" + prefix + "-TOTAL_FORMS");
    var template = document.getElementById("table-template");
    var container = document.getElementById("table-fieldsets");
    if (!total || !template || !container) {
      return false;
    }
    var index = parseInt(total.value, 10);
    if (!(index >= 0) || index >= max) {
      return true;  // nothing more to add; the server says why if the form is sent
    }
    var html = template.innerHTML
      .split("__prefix__").join(String(index))
      .split("__number__").join(String(index + 1));
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var added = [];
    while (holder.firstChild) {
      added.push(holder.firstChild);
      container.appendChild(holder.firstChild);
    }
    total.value = String(index + 1);
    if (index + 1 >= max) {
      button.disabled = true;
    }
    for (var i = 0; i < added.length; i++) {
      var first = added[i].querySelector ? added[i].querySelector("select, input") : null;
      if (first) {
        first.focus();
        break;
      }
    }
    return true;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-add-table]") : null;
    if (button && addTable(button)) {
      event.preventDefault();
    }
  });
})();
