// A tournament's table screen: one line with the series clock and the director's message
// (issue 24, item 5; templates/scoring/entry/_live.html #tournament-line).
//
// Both come with the table's version poll (table-live.js sends "table-live:answer" with
// each answer's JSON; views/table_live.py puts "tournament" in it for a tournament's table):
// - the clock counts down to the series' end (series-clock.js), once the director started
//   the series;
// - the message shows with its time until the scorer taps × (remembered on this device for
//   that message: a new message shows again) or the director clears or replaces it.
// The last answer's line is kept for a minute in the tab's sessionStorage, so that the next
// page of the table (every saved deal loads it again) shows it at once. The message is never
// in the page's HTML, so a screen opened from the offline cache shows none; while the polls fail ("table-live:lost") it is hidden, and shown again as soon as
// one is answered ("table-live:back"). Nothing of this takes a line when there is nothing to show.
(function () {
  "use strict";

  var KEY = "skatclub-notice-dismissed";
  // The last answer's line is kept for the next page of this table (every saved deal loads
  // the page again) for so long, so that it shows at once rather than with the first poll.
  var KEPT_MS = 60000;

  function setup() {
    var line = document.getElementById("tournament-line");
    if (!line) {
      return;
    }
    var clockBox = line.querySelector(".line-clock");
    var clock = line.querySelector(".series-clock");
    var series = line.querySelector(".line-series");
    var notice = line.querySelector(".line-notice");
    var time = line.querySelector(".line-time");
    var text = line.querySelector(".line-text");
    var current = null;  // the last answer's "tournament" part
    var offline = false;
    var live = document.getElementById("table-live");
    var keptKey = "skatclub-line:" + (live ? live.dataset.versionUrl : "");

    function keep(t) {
      try {
        window.sessionStorage.setItem(keptKey, JSON.stringify(
          {t: t, offset: t ? t.now - Date.now() : 0, at: Date.now()}));
      } catch (error) {
        // no storage: the line comes with the first poll
      }
    }

    function kept() {
      try {
        var found = JSON.parse(window.sessionStorage.getItem(keptKey) || "null");
        if (!found || !found.t || Date.now() - found.at > KEPT_MS ||
            navigator.onLine === false) {
          return null;
        }
        found.t.now = Date.now() + found.offset;  // the server's time, as it was offset
        return found.t;
      } catch (error) {
        return null;
      }
    }

    function dismissed(id) {
      try {
        return window.localStorage.getItem(KEY) === id;
      } catch (error) {
        return false;
      }
    }

    function render() {
      var t = current;
      // a table that has played its series needs no clock (the message still shows)
      var showClock = Boolean(t && t.ends && !line.hasAttribute("data-finished"));
      if (showClock) {
        series.textContent = (line.dataset.series || "%(number)s")
          .replace("%(number)s", String(t.series));
        clock.dataset.ends = String(t.ends);
        clock.dataset.now = String(t.now);
        if (window.SeriesClock) {
          window.SeriesClock.tick(clock);
        }
      } else {
        delete clock.dataset.ends;
      }
      clockBox.hidden = !showClock;
      var showNotice = Boolean(t && t.notice && !offline && !dismissed(t.notice_id));
      if (showNotice) {
        time.textContent = t.notice_at;
        if (text.textContent !== t.notice) {
          text.textContent = t.notice;
          text.title = t.notice;
          text.classList.remove("whole");
          line.classList.remove("whole");
        }
      }
      notice.hidden = !showNotice;
      line.hidden = clockBox.hidden && notice.hidden;
    }

    document.addEventListener("table-live:answer", function (event) {
      var data = event.detail || {};
      current = data.tournament || null;
      offline = false;
      keep(current);
      render();
    });
    document.addEventListener("table-live:back", function () {
      offline = false;  // answered again (a 304 keeps the last answer's line)
      render();
    });
    document.addEventListener("table-live:lost", function () {
      offline = true;
      render();
    });
    text.addEventListener("click", function () {
      line.classList.toggle("whole", text.classList.toggle("whole"));
    });
    line.querySelector(".line-dismiss").addEventListener("click", function () {
      if (current && current.notice_id) {
        try {
          window.localStorage.setItem(KEY, current.notice_id);
        } catch (error) {
          // private mode: hidden until the next answer only
        }
      }
      notice.hidden = true;
      line.hidden = clockBox.hidden;
    });
    current = kept();
    if (current) {
      render();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
