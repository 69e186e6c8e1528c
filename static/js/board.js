// The public live board (scoring/views/board.py): polls the board's fragment every 2.5 s
// while the page is visible, with the ETag of the board it shows (If-None-Match): 304 Not
// Modified while nothing moved (served from the cache), else the new board in the same
// round trip, swapped in: a saved deal is on the board within 5 s.
//
// The TV mode (data-turn, ms) pages the ranking: as many rows as fit the screen (html.paged,
// tournament.css), the page turning by itself every data-turn ms, "Seite 3 von 40" below;
// a new board keeps the page it is on. The phone board's "find me" (form#find) marks the
// rows of a start number or name in the rendered board (nothing asked of the server) and
// keeps them marked, and the first in its place on the screen, through the polls; one found
// is named with his table and seat of the latest series (the row's .seat).
// Without this file the board is a plain page that a reload brings up to date, and
// ?find= anchors to the row (the server finds it in the same cached board).
(function () {
  "use strict";

  var INTERVAL = 2500;
  var board = document.getElementById("board");
  if (!board || !window.fetch) {
    return;
  }
  var etag = board.getAttribute("data-etag");
  var turn = parseInt(board.getAttribute("data-turn") || "0", 10);
  var pager = document.getElementById("tv-pager");
  var form = document.getElementById("find");
  var field = document.getElementById("find-q");
  var result = document.getElementById("find-result");
  var page = 0;
  var perPage = 0;
  var query = "";

  // ---- TV: pages of as many rows as fit

  function rows() {
    return board.querySelectorAll(".ranking tbody tr[id]");
  }

  function fits(all) {
    var box = board.querySelector(".ranking-box");
    var head = board.querySelector(".ranking thead");
    if (!box || !all.length) {
      return 1;
    }
    all[0].classList.add("on");
    var height = all[0].getBoundingClientRect().height || 1;
    var room = box.clientHeight - (head ? head.getBoundingClientRect().height : 0);
    return Math.max(1, Math.floor(room / height));
  }

  function paginate() {
    var all = rows();
    var i;
    for (i = 0; i < all.length; i += 1) {
      all[i].classList.remove("on");
    }
    perPage = fits(all);
    var count = Math.max(1, Math.ceil(all.length / perPage));
    page = page % count;
    for (i = page * perPage; i < Math.min(all.length, (page + 1) * perPage); i += 1) {
      all[i].classList.add("on");
    }
    if (all.length && page * perPage !== 0) {
      all[0].classList.remove("on");
    }
    if (pager) {
      pager.textContent = count > 1 ? pager.getAttribute("data-format")
        .replace("%(page)s", String(page + 1)).replace("%(pages)s", String(count)) : "";
      pager.setAttribute("data-page", String(page + 1));
      pager.setAttribute("data-pages", String(count));
    }
  }

  if (turn > 0) {
    document.documentElement.classList.add("paged");
    paginate();
    setInterval(function () {
      page += 1;
      paginate();
    }, turn);
    window.addEventListener("resize", paginate);
  }

  // ---- the phone: find me

  function format(text, count) {
    return text.replace("%(count)s", String(count));
  }

  // "Name: Table 17, Seat 3": where the one player found sits in the latest series
  function seatOf(row) {
    var name = row.querySelector(".nm");
    var seat = row.querySelector(".seat");
    return name && seat ? name.textContent + ": " + seat.textContent : "";
  }

  function mark(scroll) {
    var found = [];
    var all = rows();
    var wanted = query.toLowerCase();
    var number = /^\d+$/.test(wanted);
    for (var i = 0; i < all.length; i += 1) {
      var name = all[i].querySelector(".nm");
      var hit = wanted !== "" && (number ? all[i].id === "p" + String(parseInt(wanted, 10))
        : !!name && name.textContent.toLowerCase().indexOf(wanted) !== -1);
      all[i].classList.toggle("found", hit);
      if (hit) {
        found.push(all[i]);
      }
    }
    if (scroll && result) {
      result.textContent = !wanted ? "" : !found.length ? form.getAttribute("data-none")
        : found.length > 1 ? format(form.getAttribute("data-many"), found.length)
        : seatOf(found[0]);
    }
    if (scroll && found.length) {
      found[0].scrollIntoView({block: "center"});
    }
    return found;
  }

  if (form && field) {
    query = field.value.replace(/\s+/g, " ").trim();
    if (query) {
      mark(!location.hash);
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      query = field.value.replace(/\s+/g, " ").trim();
      if (window.history && history.replaceState) {
        history.replaceState(null, "", query ? "?find=" + encodeURIComponent(query)
          : location.pathname);
      }
      mark(true);
    });
  }

  // ---- the polls

  function swap(html) {
    var before = query ? board.querySelector(".ranking tr.found") : null;
    var top = before ? before.getBoundingClientRect().top : 0;
    board.innerHTML = html;
    if (turn > 0) {
      paginate();
    }
    if (query) {
      var found = mark(false);
      if (before && found.length) {
        // the row found stays where it was on the screen, though it moved in the ranking
        window.scrollBy(0, found[0].getBoundingClientRect().top - top);
      }
    }
  }

  function poll() {
    if (document.hidden) {
      return;
    }
    var headers = {};
    if (etag) {
      headers["If-None-Match"] = etag;
    }
    fetch(board.getAttribute("data-fragment-url"), {credentials: "omit", headers: headers,
                                                    cache: "no-store"})
      .then(function (response) {
        if (response.status === 304) {
          return null;
        }
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.text().then(function (html) {
          swap(html);
          etag = response.headers.get("ETag") || etag;
          var moved = response.headers.get("X-Board-Version");
          if (moved) {
            board.setAttribute("data-version", moved);
          }
        });
      })
      .catch(function () { /* the next poll tries again */ });
  }

  setInterval(poll, INTERVAL);
}());
