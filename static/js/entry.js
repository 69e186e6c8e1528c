// The table screen, enhanced: everything works as plain HTML forms without this file.
// - picking a bid from the strip clears the "other bid" list and vice versa;
// - a quick result clears the card points, typing card points clears the quick result;
// - a fixed-value game (Null …) clears the matadors;
// - the save button is disabled while the live preview reports a problem;
// - the declarer cannot say Kontra against himself: his "said by" button is disabled;
// - the connection state shows "saving…" while the deal is sent, "offline" without network;
// - a double tap on save sends the deal once.
(function () {
  "use strict";

  function setup() {
    var form = document.getElementById("deal-form");
    if (!form) {
      return;
    }
    var save = form.querySelector("button.save");
    var state = document.querySelector(".connection-text");

    function clearRadios(name, keepEmpty) {
      form.querySelectorAll('input[name="' + name + '"]').forEach(function (input) {
        input.checked = keepEmpty && input.value === "";
      });
    }

    form.addEventListener("change", function (event) {
      var target = event.target;
      if (target.name === "bid") {
        form.querySelector('select[name="bid_more"]').value = "";
      } else if (target.name === "bid_more" && target.value) {
        clearRadios("bid", false);
      } else if (target.name === "result" && target.value) {
        form.querySelectorAll('input[name="declarer_points"], input[name="declarer_tricks"]')
          .forEach(function (input) { input.value = ""; });
      } else if (target.name === "declarer_points" && target.value) {
        clearRadios("result", true);
      } else if (target.name === "game" && target.hasAttribute("data-fixed")) {
        clearRadios("matadors", true);
      } else if (target.name === "kontra" && target.value === "none") {
        clearRadios("kontra_by", true);
      }
      if (target.name === "declarer") {
        markDeclarer(target.value);
      }
    }, true);

    function markDeclarer(seat) {
      form.querySelectorAll('input[name="kontra_by"]').forEach(function (input) {
        var own = input.value !== "" && input.value === seat;
        input.disabled = own;
        if (own && input.checked) {
          input.checked = false;
        }
      });
    }
    var chosen = form.querySelector('input[name="declarer"]:checked');
    if (chosen) {
      markDeclarer(chosen.value);
    }

    document.body.addEventListener("htmx:afterSwap", function (event) {
      if (event.detail.target.id !== "preview" || !save) {
        return;
      }
      var body = event.detail.target.querySelector(".preview-body");
      var invalid = body && body.getAttribute("data-valid") === "false" &&
        body.querySelector(".errors");
      save.disabled = Boolean(invalid);
      save.setAttribute("aria-disabled", invalid ? "true" : "false");
    });

    var sending = false;  // the deal form is being submitted (see below)

    function showState(key) {
      if (state) {
        state.dataset.previous = state.dataset.previous || state.textContent;
        state.textContent = key ? form.dataset[key] : state.dataset.previous;
        state.parentNode.dataset.state = key || "saved";
      }
    }
    document.body.addEventListener("htmx:sendError", function () { showState("offline"); });
    document.body.addEventListener("htmx:afterRequest", function (event) {
      // A preview answering after Save was tapped must not hide that the deal is on its way.
      if (event.detail.successful && navigator.onLine !== false && !sending) {
        showState(null);
      }
    });
    window.addEventListener("offline", function () { showState("offline"); });
    window.addEventListener("online", function () { showState(null); });

    // One tap on Save sends the deal once. A second tap while the page is on its way (a
    // double tap, a shaky thumb) is ignored: the server would recognise the repeated
    // request id, but the table should not have to wonder which answer it is looking at.
    form.addEventListener("submit", function (event) {
      if (sending) {
        event.preventDefault();
        return;
      }
      sending = true;
      showState("saving");
      if (save) {
        save.setAttribute("aria-busy", "true");
      }
    });
    // Back to this page from the history: it may be sent again.
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) {
        sending = false;
        if (save) {
          save.removeAttribute("aria-busy");
        }
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
