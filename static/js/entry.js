// The table screen, enhanced: everything works as plain HTML forms without this file.
// - picking a bid from the strip clears the "other bid" list and vice versa;
// - a quick result clears the card points, typing card points clears the quick result;
// - a fixed-value game (Null …) clears the matadors;
// - the save button is disabled while the live preview reports a problem or a step
//   still open, and on a new deal's untouched form until the preview says it is complete;
// - the declarer cannot say Kontra against himself: his "said by" button is disabled;
// - the connection state shows "saving…" while the deal is sent, "offline" without network;
// - a double tap on save sends the deal once;
// - declarations switch on what they imply (Schwarz angesagt: Hand and Schneider angesagt;
//   Ouvert in a suit game or Grand: all of them), and off what needs them;
// - the bid strip marks the declared game's value, as the server's live preview reports it
//   (data-value: the engine computes it, never this file);
// - a quick result saves at once when the preview says the deal is complete (a new deal,
//   not a correction): the saved toast keeps it one tap from undone;
// - a Ramsch loser or "count card points" moves the keypad to the number to type;
// - a row of the list opens its deal for correction; the list starts at its end.
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
      var more = form.querySelector('select[name="bid_more"]');
      if (target.name === "bid") {
        if (more) {
          more.value = "";
        }
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
      if (target.type === "checkbox" && IMPLIES[target.name] !== undefined) {
        declarations(target);
      }
      if (target.name === "result" && target.value && !form.querySelector('input[name="reason"]')) {
        autoSave = true;
      } else if (target.name !== "result") {
        autoSave = false;
      }
      if (target.name === "result") {
        form.classList.toggle("counting", !target.value);
      }
      if (target.name === "result" && !target.value) {
        focusLater("#declarer-points");
      } else if (target.name === "ramsch_loser" && target.checked) {
        focusLater("#ramsch-loser-points");
      } else if (target.name === "ramsch_durchmarsch" && target.value) {
        form.querySelectorAll('input[name="ramsch_loser"]').forEach(function (input) {
          input.checked = false;
        });
      }
    }, true);

    // What a declaration implies (in a suit game or Grand; Null Ouvert is just Ouvert): the
    // rule system's answer (engine/rulesets), rendered on the form as data-implies.
    var IMPLIES = JSON.parse(form.getAttribute("data-implies") || "{}");

    function toggle(name) {
      return form.querySelector('input[type="checkbox"][name="' + name + '"]');
    }

    function declarations(target) {
      var game = form.querySelector('input[name="game"]:checked');
      if (game && game.hasAttribute("data-fixed")) {
        return;
      }
      Object.keys(IMPLIES).forEach(function (name) {
        var input = toggle(name);
        if (!input) {
          return;
        }
        if (target.checked && IMPLIES[target.name].indexOf(name) >= 0) {
          input.checked = true;  // switching on a higher one switches on what it implies
        } else if (!target.checked && IMPLIES[name].indexOf(target.name) >= 0) {
          input.checked = false;  // and switching a lower one off, what needs it
        }
      });
    }

    var autoSave = false;  // a quick result was the last tap: save once the preview agrees

    // Typed card points reach the preview without leaving the field (a pause is enough), so
    // that Save is ready when the thumb gets there.
    var typing = null;
    form.addEventListener("input", function (event) {
      if (event.target.type !== "number" || !window.htmx) {
        return;
      }
      window.clearTimeout(typing);
      typing = window.setTimeout(function () {
        window.htmx.trigger(form, "skat:typed");
      }, 400);
    });

    function focusLater(selector) {
      var field = form.querySelector(selector);
      if (field) {
        window.setTimeout(function () { field.focus(); }, 0);
      }
    }

    // The phone and portrait (issue 36): the bids over 60 open over what follows instead of
    // pushing it down, and only when tapped; their summary names the value or the bid chosen
    // there, so that Kontra and the result stand in the same place for every deal.
    var PHONE = window.matchMedia ?
      window.matchMedia("(max-width: 599px), (orientation: portrait)") : null;
    function onPhone() {
      return Boolean(PHONE && PHONE.matches);
    }
    function sayHigh() {
      var high = form.querySelector(".bids-high");
      var summary = high && high.querySelector("summary");
      if (!summary) {
        return;
      }
      var chosen = high.querySelector('input[name="bid"]:checked');
      var marked = high.querySelector(".at-value input");
      var value = chosen ? chosen.value : (marked ? marked.value : "");
      if (value) {
        summary.setAttribute("data-chosen", value);
      } else {
        summary.removeAttribute("data-chosen");
      }
    }
    form.addEventListener("change", function (event) {
      var high = form.querySelector(".bids-high");
      if (event.target.name === "bid" && high) {
        if (onPhone() && high.contains(event.target)) {
          high.open = false;
        }
        sayHigh();
      }
    });

    function markBids(value) {
      var high = form.querySelector(".bids-high");
      form.querySelectorAll('input[name="bid"]').forEach(function (input) {
        var label = input.closest(".choice");
        var bid = Number(input.value);
        label.classList.toggle("at-value", value !== null && bid === value);
        label.classList.toggle("above-value", value !== null && bid > value);
        if (value !== null && bid === value && high && high.contains(input) && !onPhone()) {
          high.open = true;
          var scroller = label.parentNode;
          scroller.scrollTop = Math.max(0, label.offsetTop - scroller.offsetTop - 50);
        }
      });
    }

    function markDeclarer(seat) {
      form.querySelectorAll('input[name="kontra_by"]').forEach(function (input) {
        var own = input.value !== "" && input.value === seat;
        input.disabled = own;
        if (own && input.checked) {
          input.checked = false;
        }
      });
    }
    // On load, and again after table-live.js brought the list and an untouched form up to
    // date (another tablet saved): what this file marks on the form and the list.
    function enhance() {
      form.classList.add("enhanced");
      // A new deal's form, untouched: nothing to save until the preview says the deal is
      // complete (an empty Ramsch in a Ramsch round is not a deal). A correction or a form
      // brought back with the scorer's entry keeps Save as the server rendered it.
      var body = form.querySelector(".preview-body");
      if (save && form.hasAttribute("data-fresh") &&
          !(body && body.getAttribute("data-valid") === "true")) {
        save.disabled = true;
        save.setAttribute("aria-disabled", "true");
      }
      form.querySelectorAll("#declarer-points, #declarer-tricks").forEach(function (input) {
        if (input.value) {
          form.classList.add("counting");
        }
      });
      var chosen = form.querySelector('input[name="declarer"]:checked');
      if (chosen) {
        markDeclarer(chosen.value);
      }
      document.querySelectorAll(".rows-box tbody tr").forEach(function (row) {
        var link = row.querySelector("a.edit-link");
        if (link) {
          row.setAttribute("data-edit", link.getAttribute("href"));
        }
      });
    }
    enhance();
    document.addEventListener("table-live:refreshed", enhance);

    document.body.addEventListener("htmx:afterSwap", function (event) {
      if (event.detail.target.id !== "preview" || !save) {
        return;
      }
      var body = event.detail.target.querySelector(".preview-body");
      var invalid = body && body.getAttribute("data-valid") === "false" &&
        body.querySelector(".errors, .open");
      save.disabled = Boolean(invalid);
      save.setAttribute("aria-disabled", invalid ? "true" : "false");
      var value = body && body.getAttribute("data-value");
      markBids(value ? Number(value) : null);
      sayHigh();
      // Only the answer to the request the result tap sent decides (an earlier one may
      // still be under way when the result is tapped).
      var asked = event.detail.xhr && event.detail.xhr.skatAutoSave;
      var valid = body && body.getAttribute("data-valid") === "true";
      if (asked && autoSave && valid && !sending) {
        autoSave = false;
        form.requestSubmit(save);
      } else if (asked && !valid) {
        autoSave = false;
      }
    });
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      if (event.detail.elt === form && event.detail.xhr) {
        event.detail.xhr.skatAutoSave = autoSave;
      }
    });

    // The list: every row opens its deal for correction, and it shows its last rows first.
    // The toast goes after a while (its undo with it); a tap on its text dismisses it.
    document.querySelectorAll(".toast").forEach(function (toast) {
      fitToast(toast);
      var timer = window.setTimeout(function () { toast.classList.add("gone"); }, 15000);
      toast.addEventListener("click", function (event) {
        if (!event.target.closest("button, a")) {
          window.clearTimeout(timer);
          toast.classList.add("gone");
        }
      });
    });

    var box = document.querySelector(".rows-box");
    if (box) {
      box.scrollTop = box.scrollHeight;
    }
    window.addEventListener("resize", function () {
      document.querySelectorAll(".toast").forEach(fitToast);
    });
    document.addEventListener("click", function (event) {
      var row = event.target.closest && event.target.closest(".rows-box tr[data-edit]");
      if (row && !event.target.closest("a")) {
        window.location.assign(row.querySelector("a.edit-link").href);
      }
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

  // The toast floats over the site's header, never over the status header below it (the
  // round, the Bock state, the totals): where its explanation wraps further (portrait, the
  // phone), it keeps to the room above the status header, its text cut to the lines that
  // fit beside Undo (the list has the whole explanation).
  function fitToast(toast) {
    var status = document.querySelector(".table-status");
    var text = toast.querySelector("p");
    if (!status || !text || window.getComputedStyle(toast).position !== "fixed") {
      return;
    }
    toast.classList.remove("fitted");
    toast.style.maxHeight = "";
    text.style.webkitLineClamp = "";
    var room = status.getBoundingClientRect().top + window.scrollY;
    if (toast.getBoundingClientRect().height <= room) {
      return;
    }
    toast.classList.add("fitted");
    toast.style.maxHeight = Math.max(room, 44) + "px";
    var style = window.getComputedStyle(text);
    var line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    var padding = toast.offsetHeight - toast.clientHeight +
      parseFloat(window.getComputedStyle(toast).paddingTop) +
      parseFloat(window.getComputedStyle(toast).paddingBottom);
    text.style.webkitLineClamp = String(Math.max(1, Math.floor((room - padding) / line)));
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
