// The table screen never goes stale (why a poll and not server-sent events:
// scoring/views/table_live.py). Without this file the screen works as before: plain forms,
// and a save against a changed table is answered with both versions to choose from.
//
// - Every few seconds, while the page is visible, it asks the table's version (#table-live
//   data-version-url; mostly answered 304 Not Modified).
// - When the version changed, it fetches the screen again (data-page-url, the same view and
//   templates as the page) and swaps in the status header (.table-status: round, dealer,
//   Bock and Ramsch badges, series, .totals-strip) and the last rows (.last-rows), without
//   a reload. The entry panel is refreshed too (new dealer, new active seats, new version)
//   only while the scorer has not started a deal: the server showed the form empty
//   (data-refresh-form) and nothing in it was touched since. Otherwise the scorer's entry
//   stays exactly as it is, at the version it was started on, and a notice says that the
//   table changed: saving it shows both versions (the conflict screen).
// - While polls fail the connection state says so ("Connection lost"), and "Online" again
//   as soon as one succeeds.
// - On the conflict screen, "Edit mine" closes the choice and goes to the form, and "Append
//   mine" (or "Save my correction", "Delete / Restore it anyway") is sent once however often
//   it is tapped (the server also knows a new deal's request id, and finds a deletion or a
//   restoration already done).
//
// Not htmx polling (static/js/live.js) as on the sheet pages: whether a part may be swapped
// depends on what the scorer did meanwhile, and a swap must keep the form's elements.
(function () {
  "use strict";

  var INTERVAL = 2500;  // ms between two polls: a change is on screen within about 3 s
  var TIMEOUT = 4000;   // ms: a poll or a refresh that takes longer has failed
  // What the morph below keeps in place: the deal form and its save button (entry.js holds
  // them) and the live preview (htmx's target, with what the scorer was shown).
  var KEEP = "#deal-form, #deal-form button[type=submit], #preview";

  function withTimeout(url, options) {
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && setTimeout(function () { controller.abort(); }, TIMEOUT);
    options.credentials = "same-origin";
    if (controller) {
      options.signal = controller.signal;
    }
    return fetch(url, options).then(function (response) {
      clearTimeout(timer);
      if (!response.ok && response.status !== 304) {
        throw new Error("HTTP " + response.status);
      }
      return response;
    }, function (error) {
      clearTimeout(timer);
      throw error;
    });
  }

  function sameShape(a, b) {
    if (a.length !== b.length) {
      return false;
    }
    for (var i = 0; i < a.length; i += 1) {
      if (a[i].tagName !== b[i].tagName || (a[i].id || "") !== (b[i].id || "")) {
        return false;
      }
    }
    return true;
  }

  function syncAttributes(old, fresh) {
    Array.prototype.slice.call(old.attributes).forEach(function (attribute) {
      if (!fresh.hasAttribute(attribute.name)) {
        old.removeAttribute(attribute.name);
      }
    });
    Array.prototype.slice.call(fresh.attributes).forEach(function (attribute) {
      if (old.getAttribute(attribute.name) !== attribute.value) {
        old.setAttribute(attribute.name, attribute.value);
      }
    });
  }

  // Make ``old``'s children look like ``fresh``'s: what is unchanged stays, what changed is
  // replaced, and the elements of KEEP stay the same elements (their content is brought up
  // to date, except the preview's). A changed structure (the series just finished, say) is
  // replaced as a whole.
  function morph(old, fresh) {
    // What the page's own scripts put there (marked data-live-skip, e.g. offline-table.js's
    // correction bar in the form) is not in the server's HTML: it stays as it is, and the
    // rest is compared without it (else the form's children, the save button entry.js
    // holds among them, would all be replaced).
    var a = Array.prototype.filter.call(old.children, function (element) {
      return !element.hasAttribute("data-live-skip");
    });
    var b = Array.prototype.slice.call(fresh.children);
    if (!sameShape(a, b)) {
      a.forEach(function (element) { element.remove(); });
      b.forEach(function (node) { old.appendChild(document.importNode(node, true)); });
      return;
    }
    a.forEach(function (element, i) {
      var next = b[i];
      if (element.id === "preview" || element.isEqualNode(next)) {
        return;
      }
      if (element.matches(KEEP) || element.querySelector(KEEP)) {
        syncAttributes(element, next);
        morph(element, next);
      } else {
        element.replaceWith(document.importNode(next, true));
      }
    });
  }

  function setup() {
    var live = document.getElementById("table-live");
    if (!live || !window.fetch || !window.DOMParser) {
      return;
    }
    var version = live.dataset.version;
    var refreshForm = live.dataset.refreshForm === "true";
    var notice = live.querySelector(".live-notice");
    var touched = false;   // the scorer has started an entry in the panel's forms
    var leaving = false;   // a form was sent: the page is about to be replaced
    var busy = false;
    var offline = false;
    var timer = null;
    var etag = null;       // of the last version answer

    function markTouched(event) {
      var target = event.target;
      if (target && target.closest && target.closest(".entry-panel form")) {
        touched = true;
      }
    }
    document.addEventListener("input", markTouched, true);
    document.addEventListener("change", markTouched, true);

    function setState(key, text) {
      var state = document.querySelector(".connection-text");
      if (state && text) {
        state.textContent = text;
        state.parentNode.dataset.state = key;
      }
    }
    function lost() {
      if (!offline) {
        offline = true;
        setState("offline", live.dataset.offline);
      }
      document.dispatchEvent(new CustomEvent("table-live:lost"));
    }
    function back() {
      if (offline) {
        offline = false;
        setState("saved", live.dataset.online);
        document.dispatchEvent(new CustomEvent("table-live:back"));
      }
    }

    // A list that scrolls in its own box (.rows-box, every deal of the table) stays at its
    // end when it was there, so the deal that came in is in view; scrolled up, it stays put.
    function swap(selector, doc) {
      var old = document.querySelector(selector);
      var fresh = doc.querySelector(selector);
      if (old && fresh) {
        var node = document.importNode(fresh, true);
        var box = old.querySelector(".rows-box");
        var top = box ? box.scrollTop : 0;
        var atEnd = box && top + box.clientHeight >= box.scrollHeight - 2;
        old.replaceWith(node);
        var newBox = box && node.querySelector(".rows-box");
        if (newBox) {
          newBox.scrollTop = atEnd ? newBox.scrollHeight : top;
        }
        if (window.htmx) {
          window.htmx.process(node);
        }
      }
    }

    function refreshPanel(doc, freshLive) {
      var panel = document.querySelector(".entry-panel");
      var fresh = doc.querySelector(".entry-panel");
      if (!panel || !fresh) {
        return;
      }
      if (panel.querySelector("form") && (touched || !refreshForm)) {
        if (notice) {
          notice.hidden = false;  // the entry stays; saving it will show both versions
        }
        return;
      }
      morph(panel, fresh);
      if (window.htmx) {
        window.htmx.process(panel);
      }
      refreshForm = freshLive.dataset.refreshForm === "true";
    }

    function refresh() {
      return withTimeout(live.dataset.pageUrl, {headers: {Accept: "text/html"}})
        .then(function (response) { return response.text(); })
        .then(function (html) {
          if (leaving) {
            return;
          }
          var doc = new DOMParser().parseFromString(html, "text/html");
          var freshLive = doc.getElementById("table-live");
          if (!freshLive) {
            throw new Error("not a table screen");
          }
          swap(".table-status", doc);
          swap(".last-rows", doc);
          refreshPanel(doc, freshLive);
          version = freshLive.dataset.version;
          live.dataset.version = version;
          document.dispatchEvent(new CustomEvent("table-live:refreshed",
                                                 {detail: {version: version}}));
        });
    }

    function schedule(delay) {
      clearTimeout(timer);
      timer = setTimeout(poll, delay);
    }

    function poll() {
      if (leaving || document.visibilityState === "hidden") {
        return;  // resumed when the page is shown again (below)
      }
      if (busy) {
        schedule(INTERVAL);
        return;
      }
      busy = true;
      // Asked with the ETag of the last answer: "304 Not Modified", no body, while nothing
      // changed. The browser's cache stays out of it (no-store), so a 304 reaches us as one.
      var headers = {Accept: "application/json"};
      if (etag) {
        headers["If-None-Match"] = etag;
      }
      withTimeout(live.dataset.versionUrl, {headers: headers, cache: "no-store"})
        .then(function (response) {
          if (response.status === 304) {
            return null;
          }
          var fresh = response.headers.get("ETag");
          return response.json().then(function (data) {
            // a tournament's clock and message (table-line.js)
            document.dispatchEvent(new CustomEvent("table-live:answer", {detail: data}));
            if (String(data.version) !== version) {
              return refresh().then(function () { etag = fresh; });
            }
            etag = fresh;
            return null;
          });
        })
        .then(back, lost)
        .then(function () {
          busy = false;
          schedule(INTERVAL);
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        schedule(0);
      }
    });
    window.addEventListener("offline", lost);
    window.addEventListener("online", function () { schedule(0); });

    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (form.classList && form.classList.contains("conflict-mine-form")) {
        if (form.dataset.sent) {
          event.preventDefault();
          return;
        }
        form.dataset.sent = "true";
        var button = form.querySelector("button");
        if (button) {
          button.setAttribute("aria-busy", "true");
        }
      }
      if (!event.defaultPrevented) {
        leaving = true;
      }
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) {  // back from the history: the page may have gone stale
        leaving = false;
        document.querySelectorAll("form.conflict-mine-form").forEach(function (form) {
          delete form.dataset.sent;
        });
        schedule(0);
      }
    });

    document.addEventListener("click", function (event) {
      var edit = event.target.closest && event.target.closest('[data-tap="conflict-edit"]');
      var form = document.getElementById("deal-form");
      var conflict = document.getElementById("conflict");
      if (!edit || !form || !conflict) {
        return;  // without the form the link does what a link does
      }
      event.preventDefault();
      conflict.hidden = true;
      form.scrollIntoView({block: "start"});
      var first = form.querySelector("input:checked, input:not([type=hidden])");
      if (first) {
        first.focus({preventScroll: true});
      }
    });

    // The conflict is what the scorer has to look at now: bring it into view.
    var conflict = document.getElementById("conflict");
    if (conflict && conflict.scrollIntoView) {
      conflict.scrollIntoView({block: "start"});
    }

    schedule(INTERVAL);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
