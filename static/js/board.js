// The public live board (scoring/views/board.py): polls the board's fragment every 2.5 s
// while the page is visible, with the ETag of the board it shows (If-None-Match): 304 Not
// Modified while nothing moved (served from the cache), else the new board in the same
// round trip, swapped in: a saved deal is on the board within 5 s. In the TV mode
// (data-rotate, ms) the pages of the ranking take turns. Without this file the board is a
// plain page that a reload brings up to date.
(function () {
  "use strict";

  var INTERVAL = 2500;
  var board = document.getElementById("board");
  if (!board || !window.fetch) {
    return;
  }
  var etag = board.getAttribute("data-etag");
  var rotate = parseInt(board.getAttribute("data-rotate") || "0", 10);
  var page = 0;

  function pages() {
    return board.querySelectorAll(".tv-page");
  }

  function show(index) {
    var all = pages();
    if (!all.length) {
      return;
    }
    page = index % all.length;
    for (var i = 0; i < all.length; i += 1) {
      all[i].hidden = i !== page;
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
          board.innerHTML = html;
          etag = response.headers.get("ETag") || etag;
          var moved = response.headers.get("X-Board-Version");
          if (moved) {
            board.setAttribute("data-version", moved);
          }
          if (rotate) {
            show(page);
          }
        });
      })
      .catch(function () { /* the next poll tries again */ });
  }

  setInterval(poll, INTERVAL);
  if (rotate > 0) {
    setInterval(function () { show(page + 1); }, rotate);
  }
}());
