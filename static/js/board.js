// The public live board (scoring/views/board.py): polls the board's small version endpoint
// (ETag: mostly 304 Not Modified, served from the cache) every 2.5 s while the page is
// visible, and when the version moved fetches the board's fragment and swaps it in: a saved
// deal is on the board within 5 s. In the TV mode (data-rotate, ms) the pages of the ranking
// take turns. Without this file the board is a plain page that a reload brings up to date.
(function () {
  "use strict";

  var INTERVAL = 2500;
  var board = document.getElementById("board");
  if (!board || !window.fetch) {
    return;
  }
  var version = board.getAttribute("data-version");
  var etag = null;
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

  function refresh() {
    return fetch(board.getAttribute("data-fragment-url"), {credentials: "omit"})
      .then(function (response) {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        var moved = response.headers.get("X-Board-Version");
        return response.text().then(function (html) {
          board.innerHTML = html;
          if (moved) {
            version = moved;
            board.setAttribute("data-version", moved);
          }
          if (rotate) {
            show(page);
          }
        });
      });
  }

  function poll() {
    if (document.hidden) {
      return;
    }
    var headers = {};
    if (etag) {
      headers["If-None-Match"] = etag;
    }
    fetch(board.getAttribute("data-version-url"), {credentials: "omit", headers: headers})
      .then(function (response) {
        if (response.status === 304) {
          return null;
        }
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (data) {
        if (data && data.version !== version) {
          return refresh();
        }
        return null;
      })
      .catch(function () { /* the next poll tries again */ });
  }

  setInterval(poll, INTERVAL);
  if (rotate > 0) {
    setInterval(function () { show(page + 1); }, rotate);
  }
}());
