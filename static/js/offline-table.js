// The table screen without network (issue 13, client side). Included by {% offline_table %}.
//
// - registers the service worker (/sw.js), which keeps the screen, its files, the Pyodide
//   runtime and the engine bundle, so that the table reopens without network;
// - when the connection is gone (the browser says so, a request failed, or a save took more
//   than a few seconds), the same taps keep working: the live breakdown and every refusal
//   come from SkatEngine.evaluateTable (the server's engine, in the browser) on the table's
//   state (the page's #offline-state) plus the operations that wait; there is no rule of Skat
//   in this file: values, messages, dealer, Bock and Ramsch round are the engine's output;
// - a deal saved offline is an operation in IndexedDB ("skatclub-offline", with its request
//   id and the table version it was based on); it appears at once in the list, marked as not
//   yet sent, with the running totals; corrections and deletions wait the same way;
// - the queue is sent in order to POST tables/<pk>/sync/ (notes: SYNC-CONTRACT) as soon as
//   the connection is back and on every page load; a conflict shows both versions side by
//   side with three choices, a "held" answer marks the operation as kept for the club admin.
(function () {
  "use strict";

  var tag = document.currentScript || document.querySelector("script[data-offline-table]");
  var cfg = tag ? tag.dataset : {};
  var TABLE = Number(cfg.table);
  // Whose queue this is: the signed-in account, or "" for a device with the table's code. On
  // a shared tablet each account's operations are shown and sent only while it is signed in
  // (signout.js warns before an account with operations still waiting signs out).
  var ACCOUNT = cfg.account || "";
  var SAVE_TIMEOUT_MS = 5000;
  var PROBE_MS = 8000;

  if ("serviceWorker" in navigator && cfg.sw) {
    navigator.serviceWorker.register(cfg.sw, {scope: "/"}).catch(function () {});
    if (!navigator.serviceWorker.controller) {
      // This page came before the worker: once it is in charge, fetch the page (and its
      // state) through it once, so that a reload without network finds them in its cache.
      navigator.serviceWorker.addEventListener("controllerchange", function () {
        fetch(window.location.pathname, {credentials: "same-origin"}).catch(function () {});
        if (cfg.stateUrl) {
          fetch(cfg.stateUrl, {credentials: "same-origin"}).catch(function () {});
        }
      }, {once: true});
    }
  }

  function readJSON(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  var state = readJSON("offline-state");
  var words = readJSON("offline-words") || {};
  if (!state || cfg.writable !== "true") {
    return;
  }

  // ------------------------------------------------------------------ IndexedDB queue

  var dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var open = indexedDB.open("skatclub-offline", 1);
        open.onupgradeneeded = function () {
          var ops = open.result.createObjectStore("ops", {keyPath: "seq", autoIncrement: true});
          ops.createIndex("table", "table");
          open.result.createObjectStore("meta", {keyPath: "table"});
        };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbPromise;
  }

  function tx(store, mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var t = database.transaction(store, mode);
        var result = work(t.objectStore(store));
        t.oncomplete = function () { resolve(result && result.result); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }

  function loadOps() {
    return tx("ops", "readonly", function (store) {
      return store.index("table").getAll(TABLE);
    }).then(function (ops) {
      return (ops || []).filter(function (op) {
        // (queued before operations named their account: whoever opens the table sends it)
        return op.account === undefined || String(op.account) === ACCOUNT;
      }).sort(function (a, b) { return a.seq - b.seq; });
    });
  }
  function putOp(op) {
    if (op.account === undefined) {
      op.account = ACCOUNT;
    }
    return tx("ops", "readwrite", function (s) { return s.put(op); });
  }
  function deleteOp(seq) { return tx("ops", "readwrite", function (s) { return s.delete(seq); }); }
  function loadMeta() {
    return tx("meta", "readonly", function (s) { return s.get(TABLE); }).then(function (m) {
      return m || {table: TABLE, lastSent: null};
    });
  }
  function putMeta(meta) { return tx("meta", "readwrite", function (s) { return s.put(meta); }); }

  function uuid() {
    if (window.crypto && crypto.randomUUID) {
      return crypto.randomUUID();
    }
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); });
    return h.slice(0, 4).join("") + "-" + h.slice(4, 6).join("") + "-" + h.slice(6, 8).join("") +
      "-" + h.slice(8, 10).join("") + "-" + h.slice(10).join("");
  }

  // ------------------------------------------------------------------ the page

  var form = document.getElementById("deal-form");
  var misdeal = document.querySelector(".misdeal-form");
  var preview = document.getElementById("preview");
  var rowsTable = null;
  var serverRows = [];
  // The list as the server rendered it (again after table-live.js swapped it in).
  function findRows() {
    rowsTable = document.querySelector("table.rows");
    serverRows = rowsTable ? Array.prototype.filter.call(
      rowsTable.querySelectorAll("tbody tr"), function (tr) { return tr.querySelector(".num"); })
      : [];
    serverRows.forEach(function (tr, i) { tr.dataset.offlineIndex = String(i); });
  }
  findRows();
  var ops = [];
  var meta = {table: TABLE, lastSent: null};
  var offline = navigator.onLine === false;
  var syncing = false;
  var editing = null;  // {seq} of a waiting save, or {deal} of a stored deal, being corrected
  var lastTap = null;
  var previewSeq = 0;

  function el(name, attrs, text) {
    var node = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined && text !== null) {
      node.textContent = text;
    }
    return node;
  }

  function fmt(template, values) {
    return String(template).replace(/%\((\w+)\)s/g, function (_m, key) { return values[key]; });
  }

  function minus(n) {
    if (n === null || n === undefined) {
      return "";
    }
    return n < 0 ? "\u2212" + String(-n) : String(n);
  }
  function signed(n) {
    var text = minus(n);
    return n > 0 ? "+" + text : text;
  }

  // The offline bar: connection, how many deals wait, when the last one went through.
  var bar = el("div", {"class": "offline-bar", "data-state": "online"});
  var barState = el("p", {"class": "offline-state", role: "status", "aria-live": "polite"});
  var barQueue = el("p", {"class": "offline-queue", "aria-live": "polite"});
  var announce = el("p", {"class": "visually-hidden", "aria-live": "assertive"});
  var conflictBox = el("div", {"class": "offline-conflict"});
  // data-live-skip: table-live.js's refresh of an untouched form leaves it alone.
  var editBar = el("div", {"class": "offline-editing", hidden: "",
                           "data-live-skip": ""});
  bar.appendChild(barState);
  bar.appendChild(barQueue);
  bar.appendChild(announce);
  // Above the entry and the list, full width; not in the status header, which table-live.js
  // replaces when the table changes.
  var layout = document.querySelector(".entry-layout");
  if (layout && layout.parentNode) {
    layout.parentNode.insertBefore(bar, layout);
    layout.parentNode.insertBefore(conflictBox, layout);
  }
  if (form) {
    form.insertBefore(editBar, form.firstChild);
  }

  function say(text) {
    announce.textContent = "";
    window.setTimeout(function () { announce.textContent = text; }, 50);
  }

  // What still waits to be sent (a "drop", the scorer's "keep theirs", is sent too but is no
  // deal, so it is not counted).
  function waiting() {
    return ops.filter(function (op) {
      return op.op !== "drop" && (op.status === "pending" || op.status === "conflict");
    });
  }

  // The status line: "offline · 2 deals wait", "Sending…", or what the queue did last. A deal
  // saved online goes straight to the server, not through this queue, so the queue's silence
  // ("nothing sent") would be no news: only a time it knows is named.
  function statusLine(n) {
    if (!offline) {
      return syncing ? words.sending : "";
    }
    return n === 0 ? words.status_offline :
      fmt(n === 1 ? words.status_offline_one : words.status_offline_many, {count: n});
  }

  function showBar() {
    var n = waiting().length;
    bar.dataset.state = offline ? "offline" : (syncing ? "sending" : "online");
    barState.textContent = statusLine(n);
    // Offline, the status line counts what waits; this says what becomes of it.
    var queueText = offline ? words.offline : n === 0 ? words.nothing_waits :
      (n === 1 ? words.waiting_one : fmt(words.waiting_many, {count: n}));
    if (meta.lastSent) {
      queueText += " · " + fmt(words.last_sent, {time: new Date(meta.lastSent)
        .toLocaleTimeString(state.lang, {hour: "2-digit", minute: "2-digit", second: "2-digit"})});
    }
    barQueue.textContent = queueText;
    bar.dataset.waiting = String(n);
    // The corner of the status header says the same, not a stale "Online".
    var corner = document.querySelector(".connection-text");
    var live = document.getElementById("table-live");
    if (corner && offline) {
      corner.textContent = statusLine(n);
      corner.parentNode.dataset.state = "offline";
      corner.dataset.offlineTable = "true";
    } else if (corner && corner.dataset.offlineTable && live) {
      // Only what this file wrote is taken back (table-live.js says its own "lost").
      delete corner.dataset.offlineTable;
      corner.textContent = live.dataset.online;
      corner.parentNode.dataset.state = "saved";
    }
  }

  function setOffline(value) {
    if (offline !== value) {
      offline = value;
      document.documentElement.classList.toggle("skat-offline", value);
      showBar();
      if (value) {
        say(words.offline);
        window.setTimeout(probe, PROBE_MS);
      }
    }
  }

  // ------------------------------------------------------------------ records

  // The form's fields as a deal record (a promise): the form's data as the browser holds it
  // (each name: its texts), read by the engine with the very mapping DealForm uses
  // (scoring/engine/form_record.py), so a deal saved offline is the record the server would
  // have built. No rule here: which value counts is the engine's to say.
  function formRecord(source, submitter) {
    var data = new FormData(source, submitter || undefined);
    var raw = {};
    data.forEach(function (value, key) {
      (raw[key] = raw[key] || []).push(String(value));
    });
    return SkatEngine.recordFromForm(raw);
  }

  // What the form asks before the engine can say anything (DealForm.clean, same words).
  function incomplete(record) {
    var out = [];
    if (record.kind === "game") {
      if (record.declarer === null || record.declarer === undefined) {
        out.push(words.tap_declarer);
      }
      if (!record.game) {
        out.push(words.tap_game);
      }
      // the table screen's rule (forms/entry.py): a Kontra is said by somebody
      if (record.kontra && record.kontra !== "none" &&
          (record.kontra_by === null || record.kontra_by === undefined)) {
        out.push(words.tap_kontra_by);
      }
    } else if (record.kind === "ramsch" && record.ramsch.points &&
               !Object.keys(record.ramsch.points).length &&
               !Object.keys(record.ramsch.tricks).length) {
      out.push(words.tap_ramsch);
    }
    return out;
  }

  // The label of a deal as the form shows it (the checked game's button), for the list.
  function formLabel(source) {
    var parts = [];
    var kind = source.querySelector('input[name="kind"]:checked');
    var game = source.querySelector('input[name="game"]:checked');
    var chosen = kind && kind.value !== "game" ? kind : game;
    if (chosen) {
      var face = chosen.closest("label");
      parts.push((face ? face.textContent : chosen.value).trim().replace(/\s+/g, " "));
    }
    ["hand", "ouvert", "schneider_announced", "schwarz_announced"].forEach(function (name) {
      var box = source.querySelector('input[type="checkbox"][name="' + name + '"]:checked');
      if (box && box.closest("label")) {
        parts.push(box.closest("label").textContent.trim());
      }
    });
    var kontra = source.querySelector('input[name="kontra"]:checked');
    if (kontra && kontra.value !== "none" && kontra.closest("label")) {
      parts.push(kontra.closest("label").textContent.trim());
    }
    return parts.join(" · ");
  }

  // The table as this tablet knows it: the server's deals, then what waits, in order.
  function entries() {
    var list = state.table.deals.map(function (record, i) {
      return {record: record, id: state.ids[i], row: serverRows[i] || null, pending: null};
    });
    ops.forEach(function (op) {
      if (op.status === "refused" || op.op === "drop") {
        return;
      }
      if (op.op === "save") {
        list.push({record: op.record, id: null, request_id: op.request_id, row: null,
                   pending: op, label: op.label});
        return;
      }
      var at = list.findIndex(function (e) {
        return (op.deal && e.id === op.deal) ||
          (op.deal_request_id && e.request_id === op.deal_request_id);
      });
      if (at < 0) {
        return;
      }
      if (op.op === "edit") {
        list[at] = Object.assign({}, list[at], {record: op.record, pending: op,
                                                label: op.label || list[at].label});
      } else if (op.op === "delete") {
        list.splice(at, 1);
      }
    });
    return list;
  }

  function tableWith(records) {
    return Object.assign({}, state.table, {deals: records});
  }

  function evaluate(list, explainFrom) {
    return SkatEngine.ready().then(function () {
      return SkatEngine.evaluateTable(tableWith(list.map(function (e) { return e.record; })),
                                      {lang: state.lang, explain: true,
                                       explainFrom: explainFrom || 1});
    });
  }

  // ------------------------------------------------------------------ rendering

  // A waiting row's number and game cells (its score cells are the caller's).
  function pendingRow(entry, number, bock) {
    var tr = el("tr", {"class": "pending"});
    tr.appendChild(el("td", null, String(number)));
    var gameCell = el("td");
    gameCell.appendChild(el("span", {"class": "game"}, entry.label || entry.record.kind));
    if (bock) {
      gameCell.appendChild(document.createTextNode(" "));
      gameCell.appendChild(el("small", {"class": "badge badge-bock"}, words.bock));
    }
    var held = entry.pending && entry.pending.status === "held";
    gameCell.appendChild(document.createTextNode(" "));
    gameCell.appendChild(el("small", {"class": "badge badge-pending" + (held ? " held" : "")},
                            held ? words.held : words.pending));
    tr.appendChild(gameCell);
    return tr;
  }

  // The correction button of a waiting row, drawn as the server draws its rows' pencil: the
  // pencil is an aria-hidden glyph, which the side list hides while the button covers the
  // whole row (entry.css), so it never lands among the score columns.
  function correctCell(number) {
    var act = el("td");
    var button = el("button", {type: "button", "class": "edit-link offline-correct",
                               "data-tap": "offline-correct-" + number});
    button.appendChild(el("span", {"aria-hidden": "true"}, "\u270e"));
    button.appendChild(el("span", {"class": "visually-hidden"},
                          " " + words.correct + " " + fmt(words.no, {number: number})));
    act.appendChild(button);
    return act;
  }

  // A waiting deal's result in words, from its record alone (no value: that is the engine's):
  // as entered, or who lost the Ramsch with how many card points.
  function describe(entry) {
    var record = entry.record || {};
    var parts = [];
    var players = state.table.players;
    if (record.kind === "game") {
      if (record.result === "won" || record.result === "lost") {
        parts.push(words["result_" + record.result]);
      } else if (record.declarer_points !== undefined) {
        parts.push(fmt(words.card_points, {points: record.declarer_points}));
      } else if (record.declarer_tricks !== undefined) {
        parts.push(fmt(words.tricks, {tricks: record.declarer_tricks}));
      }
    } else if (record.kind === "ramsch" && record.ramsch && record.ramsch.losers) {
      Object.keys(record.ramsch.losers).forEach(function (seat) {
        var points = record.ramsch.losers[seat];
        parts.push((players[Number(seat)] || seat) +
                   (points === null || points === undefined ? "" : " " + points));
      });
    }
    return parts.join(" \u00b7 ");
  }

  // The list before the engine has answered (it takes seconds to start after a reload): the
  // waiting deals drawn at once from IndexedDB, in words, "waits" where their score will be;
  // the totals, which do not count them yet, marked provisional; dealer, Bock and the round
  // from the engine's last answer for exactly this list (kept with the queue), else marked
  // as being worked out. The engine's rows replace all of it (renderList).
  function sketch(list) {
    if (!rowsTable) {
      return;
    }
    var body = rowsTable.querySelector("tbody");
    var players = state.table.players.length;
    var fresh = document.createDocumentFragment();
    var drawn = 0;
    list.forEach(function (entry, i) {
      var tr;
      if (entry.row && !entry.pending) {
        tr = entry.row;
      } else {
        var said = describe(entry);
        tr = pendingRow(entry, i + 1, false);
        var who = state.table.players[entry.record.declarer];
        if (entry.record.kind === "game" && who !== undefined) {
          var game = tr.querySelector(".game");
          var name = el("small", {"class": "declarer-name"}, who);
          game.parentNode.insertBefore(name, game.nextSibling);
          game.parentNode.insertBefore(document.createTextNode(" "), name);
        }
        tr.classList.add("sketch");
        tr.appendChild(el("td", {"class": "num waits", colspan: String(players)},
                          (said ? said + " \u00b7 " : "") + words.waits));
        tr.appendChild(correctCell(i + 1));
        tr.dataset.number = String(i + 1);
        drawn += 1;
      }
      tr.dataset.offlineIndex = String(i);
      fresh.appendChild(tr);
    });
    body.textContent = "";
    body.appendChild(fresh);
    provisional(drawn > 0);
    var key = nextKey();
    if (meta.next && meta.next.key === key) {
      renderNext({next: meta.next});
    } else if (drawn) {
      var dealer = document.querySelector(".seat-dealer dd");
      if (dealer) {
        dealer.textContent = words.working_out;
        dealer.classList.add("provisional");
      }
      document.querySelectorAll(".table-status .badges .badge, .table-status .round")
        .forEach(function (node) { node.hidden = true; });
    }
    api.sketched = performance.now();
    var box = document.querySelector(".rows-box");
    if (box) {
      box.scrollTop = box.scrollHeight;
    }
  }

  // The totals shown do not count what waits yet (or do, once the engine has answered).
  function provisional(on) {
    var strip = document.querySelector(".totals-strip");
    if (strip) {
      strip.classList.toggle("provisional", on);  // its mark: data-mark, by the CSS
      strip.dataset.mark = words.provisional;
    }
    if (rowsTable) {
      rowsTable.querySelectorAll("tfoot .provisional-mark").forEach(function (m) { m.remove(); });
      rowsTable.querySelectorAll("tfoot td.total").forEach(function (td) {
        td.classList.toggle("provisional", on);
      });
      var head = rowsTable.querySelector("tfoot th");
      if (on && head) {  // its room before it: the CSS's margin
        head.appendChild(el("small", {"class": "provisional-mark"}, words.provisional));
      }
    }
    if (!on) {
      var dealer = document.querySelector(".seat-dealer dd.provisional");
      if (dealer) {
        dealer.classList.remove("provisional");
      }
    }
  }

  // What the engine's answer about the next deal depends on: the server's table as this
  // tablet has it, and what waits.
  function nextKey() {
    return JSON.stringify([state.version, state.ids, ops.map(function (op) {
      return [op.op, op.request_id, op.status, op.record || null, op.deal || null];
    })]);
  }

  function renderList(result, list) {
    if (!rowsTable || !result || result.error) {
      return;
    }
    var body = rowsTable.querySelector("tbody");
    var players = state.table.players.length;
    var fresh = document.createDocumentFragment();
    result.deals.forEach(function (deal, i) {
      var entry = list[i];
      var tr;
      if (entry.row && !entry.pending) {
        tr = entry.row;
        tr.querySelectorAll("td.num").forEach(function (td, seat) {
          var value = deal.entries[String(seat)];
          td.textContent = value === undefined ? "" : signed(value);
          td.classList.toggle("negative", value < 0);
        });
      } else {
        tr = pendingRow(entry, deal.number, deal.bock);
        for (var seat = 0; seat < players; seat++) {
          var value = deal.entries[String(seat)];
          var td = el("td", {"class": "num" + (value < 0 ? " negative" : "") +
                             (seat === entry.record.declarer ? " declarer" : "")},
                      value === undefined ? "" : signed(value));
          tr.appendChild(td);
        }
        tr.appendChild(correctCell(deal.number));
      }
      tr.dataset.number = String(deal.number);
      tr.classList.toggle("bock", Boolean(deal.bock));
      tr.classList.toggle("ramsch-round", Boolean(deal.ramsch_round));
      tr.dataset.offlineIndex = String(i);
      fresh.appendChild(tr);
    });
    body.textContent = "";
    body.appendChild(fresh);
    provisional(false);
    rowsTable.querySelectorAll("tfoot td.total").forEach(function (td, seat) {
      var total = result.totals[String(seat)] || 0;
      td.textContent = minus(total);
      td.classList.toggle("negative", total < 0);
    });
    document.querySelectorAll(".totals-strip dd").forEach(function (dd, seat) {
      var total = result.totals[String(seat)] || 0;
      dd.textContent = minus(total);
      dd.classList.toggle("negative", total < 0);
    });
    var box = document.querySelector(".rows-box");
    if (box) {
      box.scrollTop = box.scrollHeight;
    }
  }

  // Dealer, round, series, Bock and Ramsch round of the next deal, as the engine says, in
  // the server's words (offline-words): after deals that wait the header counts them ("game
  // 12 of 12", "Ramsch round 1/3"), as the server will once they are sent.
  function played(result) {
    if (result.deals) {
      return result.deals.filter(function (deal) { return deal.counts; }).length;
    }
    return result.next.played;
  }

  function bockWords(next, n) {
    var out = [];
    if (next.bock) {
      var text = next.bock_position ?
        fmt(words.bock_of, {position: next.bock_position, length: n}) : words.bock;
      if (next.bock > 1) {
        text += " \u00d7" + String(Math.pow(2, next.bock));  // the level's factor: ×4
      }
      out.push(["bock", text]);
    }
    if (next.bock_waiting) {
      var many = next.bock_waiting !== 1;
      out.push(["waiting", next.bock ?
        fmt(many ? words.bock_waiting_many : words.bock_waiting_one,
            {waiting: next.bock_waiting}) :
        fmt(many ? words.bock_rounds_many : words.bock_rounds_one,
            {rounds: next.bock_waiting})]);
    } else if (next.bock_to_go) {
      out.push(["waiting", fmt(next.bock_to_go === 1 ? words.bock_deals_one :
        words.bock_deals_many, {deals: next.bock_to_go})]);
    }
    return out;
  }

  function renderNext(result) {
    if (!result || result.error || !result.next) {
      return;
    }
    var next = result.next;
    var dealer = document.querySelector(".seat-dealer dd");
    if (dealer) {
      dealer.textContent = state.table.players[next.dealer];
      dealer.classList.remove("provisional");
    }
    var length = state.series_length;
    var count = played(result);
    var done = Boolean(length) && count !== undefined && count >= length;
    document.querySelectorAll(".table-status .round").forEach(function (node) {
      node.hidden = ops.length > 0 && done;
    });
    var n = state.table.players.length;
    var badges = document.querySelector(".table-status .badges");
    if (badges) {
      badges.querySelectorAll(".badge-offline").forEach(function (b) { b.remove(); });
      if (ops.length) {
        badges.querySelectorAll(".badge").forEach(function (b) { b.hidden = true; });
        if (!done && next.ramsch_round) {
          badges.appendChild(el("span", {"class": "badge badge-ramsch badge-offline"},
                                fmt(words.ramsch_of, {deal: next.ramsch_deal, length: n})));
        }
        if (!done) {
          bockWords(next, n).forEach(function (pair) {
            badges.appendChild(el("span", {"class": "badge badge-" + pair[0] +
                                           " badge-offline"}, pair[1]));
          });
        }
      }
    }
    document.documentElement.dataset.nextRamsch = next.ramsch_round ? "true" : "false";
    // "Round 2 · deal 1 of 3": the first two numbers of the translated line, as the engine says.
    var round = document.querySelector(".table-status .round");
    if (round && ops.length) {
      var values = [next.round, next.deal_in_round];
      round.textContent = round.textContent.replace(/\d+/g, function (m) {
        return values.length ? String(values.shift()) : m;
      });
    }
    // "Series 1 · game 12 of 12", or finished, counting what waits.
    var series = document.querySelector(".table-status .series");
    if (series && length && ops.length && count !== undefined) {
      series.textContent = fmt(done ? words.series_done : words.series_game, {
        number: state.series, deal: Math.min(count + 1, length), length: length});
      series.classList.toggle("series-complete", done);
    }
  }

  var lastResult = null;
  function refresh() {
    showBar();
    var list = entries();
    if (!ops.length || !window.SkatEngine) {
      return Promise.resolve();
    }
    if (SkatEngine.status !== "ready") {
      sketch(list);  // at once: the engine may take seconds to start
    }
    var key = nextKey();
    return evaluate(list).then(function (result) {
      lastResult = result;
      if (result && result.next && !result.error && key === nextKey()) {
        // Kept for the next page load, which draws before the engine is ready.
        meta.next = Object.assign({key: key, played: played(result)}, result.next);
        putMeta(meta).catch(function () {});
      }
      renderList(result, list);
      renderNext(result);
      api.engineDrawn = performance.now();
    }).catch(function () {});
  }

  function previewMarkup(messages, row, names) {
    var body = el("div", {"class": "preview-body",
                          "data-valid": row && !messages.length ? "true" : "false"});
    if (row && !messages.length && row.value !== null && row.value !== undefined) {
      body.dataset.value = String(row.value);
    }
    if (messages.length) {
      var ul = el("ul", {"class": "errors", role: "alert"});
      messages.forEach(function (m) { ul.appendChild(el("li", null, m)); });
      body.appendChild(ul);
    }
    if (row && !messages.length) {
      body.appendChild(el("p", {"class": "breakdown"}, row.explanation || ""));
      var p = el("p", {"class": "preview-entries"});
      if (row.bock) {
        p.appendChild(el("span", {"class": "badge badge-bock"}, words.bock));
      }
      var seats = Object.keys(row.entries || {});
      seats.forEach(function (seat) {
        var v = row.entries[seat];
        p.appendChild(el("span", {"class": "entry" + (v < 0 ? " negative" : "")},
                         names[Number(seat)] + " " + signed(v)));
      });
      if (!seats.length) {
        p.appendChild(el("span", {"class": "entry"}, words.no_score));
      }
      body.appendChild(p);
    }
    return body;
  }

  // The live breakdown without the server: the engine on the table plus this deal.
  function offlinePreview() {
    if (!form || !preview) {
      return;
    }
    var mine = ++previewSeq;
    var asked = lastTap === "result" && !editing;  // a correction is saved by its button
    var list = listForForm();
    var position = list.at;
    var records = list.list.map(function (e) { return e.record; });
    var done = formRecord(form).then(function (record) {
      if (record.error) {
        return record;
      }
      records.splice(position, 0, record);
      var missing = incomplete(record);
      return missing.length ? {missing: missing} :
        SkatEngine.evaluateTable(tableWith(records), {lang: state.lang, explain: true,
                                                      explainFrom: position + 1});
    });
    done.then(function (result) {
      if (mine !== previewSeq) {
        return;
      }
      var messages = result.missing || (result.error ? [result.error.message] : []);
      var row = result.deals ? result.deals[position] : null;
      preview.textContent = "";
      preview.appendChild(previewMarkup(messages, row, state.table.players));
      form.dataset.offlineValid = messages.length ? "false" : "true";
      // entry.js listens to this: Save is disabled on a refusal, the bid strip marks the
      // value, and a quick result saves at once when the deal is complete.
      document.body.dispatchEvent(new CustomEvent("htmx:afterSwap", {
        bubbles: true, detail: {target: preview, xhr: {skatAutoSave: asked}},
      }));
    }).catch(function (err) {
      preview.textContent = "";
      preview.appendChild(previewMarkup([words.engine_failed + " " + err.message], null, []));
    });
    return done;
  }

  // The list the form's deal goes into, and where: at the end, or in place of the deal being
  // corrected.
  function listForForm() {
    var list = entries();
    if (!editing) {
      return {list: list, at: list.length};
    }
    var at = list.findIndex(function (e) {
      return editing.seq ? (e.pending && e.pending.seq === editing.seq)
        : (e.id === editing.deal && e.id !== null);
    });
    if (at < 0) {
      return {list: list, at: list.length};
    }
    list.splice(at, 1);
    return {list: list, at: at};
  }

  // ------------------------------------------------------------------ saving offline

  function resetForm(ramschNext) {
    form.reset();
    form.querySelectorAll('input[name="request_id"]').forEach(function (i) { i.value = uuid(); });
    if (misdeal) {
      misdeal.querySelectorAll('input[name="request_id"]').forEach(function (i) {
        i.value = uuid();
      });
      var asked = misdeal.closest("details");
      if (asked) {
        asked.open = false;  // the next misdeal is asked again
      }
    }
    var kind = form.querySelector('input[name="kind"][value="' +
                                  (ramschNext ? "ramsch" : "game") + '"]');
    if (kind) {
      kind.checked = true;
      kind.dispatchEvent(new Event("change", {bubbles: true}));
    }
    form.classList.remove("counting");
    // the bid strip's marks of the deal just queued
    form.querySelectorAll(".at-value, .above-value").forEach(function (label) {
      label.classList.remove("at-value", "above-value");
    });
    editing = null;
    editBar.hidden = true;
    editBar.textContent = "";
    previewSeq += 1;  // no refusal for a form nobody has touched yet
    preview.textContent = "";
    var fresh = el("div", {"class": "preview-body", "data-valid": "false"});
    fresh.appendChild(el("p", {"class": "hint"}, words.hint));
    preview.appendChild(fresh);
    form.dataset.offlineValid = "";
    // a new, untouched form: nothing to save until the preview finds a whole deal (as
    // entry.js does for the server's fresh form; an empty Ramsch is no deal)
    form.setAttribute("data-fresh", "");
    var save = form.querySelector("button.save");
    if (save) {
      save.disabled = true;
      save.removeAttribute("aria-busy");
      save.setAttribute("aria-disabled", "true");
    }
  }

  var queuing = {};  // request ids of saves on their way into the queue
  function queueSave(source, submitter) {
    var recordPromise = formRecord(source, submitter);
    var record = null;
    var requestInput = source.querySelector('input[name="request_id"]');
    var requestId = (requestInput && requestInput.value) || uuid();
    if (!editing && (queuing[requestId] ||
                     ops.some(function (o) { return o.request_id === requestId; }))) {
      // This very save waits already, or is on its way into the queue (a second tap, or
      // the online save that timed out): queued once, as the server stores it once.
      return Promise.resolve(null);
    }
    queuing[requestId] = true;
    function done(value) {
      delete queuing[requestId];
      return value;
    }
    var list = listForForm();
    var records = list.list.map(function (e) { return e.record; });
    var check = recordPromise.then(function (built) {
      if (built.error) {
        return built;
      }
      record = built;
      records.splice(list.at, 0, record);
      var missing = incomplete(record);
      return missing.length ? {missing: missing} :
        SkatEngine.evaluateTable(tableWith(records), {lang: state.lang, explain: true,
                                                      explainFrom: list.at + 1});
    });
    return check.then(function (result) {
      var messages = result.missing || (result.error ? [result.error.message] : []);
      if (messages.length) {
        preview.textContent = "";
        preview.appendChild(previewMarkup(messages, null, []));
        say(words.not_saved + ": " + messages.join(" "));
        return null;
      }
      var label = source === form ? formLabel(form) : words.misdeal;
      var op;
      if (editing && editing.seq) {
        op = ops.find(function (o) { return o.seq === editing.seq; });
        op = Object.assign({}, op, {record: record, label: label});
      } else if (editing && editing.deal) {
        op = {table: TABLE, op: "edit", request_id: uuid(), base_version: state.version,
              deal: editing.deal, record: record, label: label, reason: words.reason_offline,
              status: "pending", created: Date.now()};
      } else {
        op = {table: TABLE, op: "save", request_id: requestId, base_version: state.version,
              record: record, label: label, status: "pending", created: Date.now()};
      }
      return putOp(op).then(function () {
        return loadOps();
      }).then(function (loaded) {
        ops = loaded;
        var ramschNext = result.next && result.next.ramsch_round;
        resetForm(ramschNext);
        say(words.kept);
        return refresh();
      }).then(function () {
        if (!offline) {
          flush();
        }
        return op;
      });
    }).then(done, function (error) {
      done(null);
      throw error;
    });
  }

  function fillForm(record) {
    form.reset();
    function check(name, value) {
      var input = form.querySelector('input[name="' + name + '"][value="' + value + '"]');
      if (input) {
        input.checked = true;
        var details = input.closest("details");
        if (details) {
          details.open = true;
        }
      }
      return input;
    }
    function setValue(name, value) {
      var input = form.querySelector('[name="' + name + '"]');
      if (input && value !== null && value !== undefined) {
        input.value = String(value);
      }
    }
    check("kind", record.kind);
    if (record.kind === "game") {
      check("declarer", record.declarer);
      check("game", record.game);
      ["hand", "ouvert", "schneider_announced", "schwarz_announced", "passt_mir_nicht"]
        .forEach(function (k) {
          var box = form.querySelector('input[type="checkbox"][name="' + k + '"]');
          if (box) {
            box.checked = Boolean(record[k]);
          }
        });
      check("matadors", record.matadors === undefined ? "" : record.matadors);
      if (record.bid !== undefined && !check("bid", record.bid)) {
        setValue("bid_more", record.bid);
      }
      check("result", record.result || "");
      setValue("declarer_points", record.declarer_points);
      setValue("declarer_tricks", record.declarer_tricks);
      check("kontra", record.kontra || "none");
      if (record.kontra_by !== undefined) {
        check("kontra_by", record.kontra_by);
      }
      if (record.concession) {
        check("concession", record.concession);
      }
    } else if (record.kind === "ramsch") {
      var r = record.ramsch;
      if (r.losers) {
        Object.keys(r.losers).forEach(function (seat) {
          var box = form.querySelector('input[name="ramsch_loser"][value="' + seat + '"]');
          if (box) {
            box.checked = true;
          }
          setValue("ramsch_loser_points", r.losers[seat]);
        });
        if (r.jungfrau) {
          check("ramsch_jungfrau", r.jungfrau);
        }
        if (r.durchmarsch !== null && r.durchmarsch !== undefined) {
          check("ramsch_durchmarsch", r.durchmarsch);
        }
      } else {
        Object.keys(r.points || {}).forEach(function (s) {
          setValue("ramsch_points_" + s, r.points[s]);
        });
        Object.keys(r.tricks || {}).forEach(function (s) {
          setValue("ramsch_tricks_" + s, r.tricks[s]);
        });
      }
    }
    var kind = form.querySelector('input[name="kind"]:checked');
    if (kind) {
      kind.dispatchEvent(new Event("change", {bubbles: true}));
    }
  }

  // A row of the list while offline (or any waiting row): into the form for correction.
  function startCorrection(index) {
    var list = entries();
    var entry = list[index];
    if (!entry || !form) {
      return;
    }
    editing = entry.pending && entry.pending.op === "save" && entry.pending.status === "pending"
      ? {seq: entry.pending.seq} : (entry.id ? {deal: entry.id} : null);
    if (!editing) {
      return;
    }
    fillForm(entry.record);
    editBar.hidden = false;
    editBar.textContent = "";
    editBar.appendChild(el("strong", null, words.correct + " " +
                           fmt(words.no, {number: index + 1})));
    var del = el("button", {type: "button", "class": "secondary offline-delete",
                            "data-tap": "offline-delete"}, words.delete);
    var cancel = el("button", {type: "button", "class": "secondary offline-cancel",
                               "data-tap": "offline-cancel"}, words.cancel);
    editBar.appendChild(del);
    editBar.appendChild(cancel);
    del.addEventListener("click", function () { deleteEntry(entry); });
    cancel.addEventListener("click", function () {
      resetForm(document.documentElement.dataset.nextRamsch === "true");
    });
    form.scrollIntoView({block: "start"});
    offlinePreview();
  }

  function deleteEntry(entry) {
    var done;
    if (editing && editing.seq) {
      done = deleteOp(editing.seq);  // never sent: it goes without a trace on the server
    } else {
      done = putOp({table: TABLE, op: "delete", request_id: uuid(), base_version: state.version,
                    deal: entry.id, reason: words.deleted_offline, status: "pending",
                    created: Date.now()});
    }
    return done.then(loadOps).then(function (loaded) {
      ops = loaded;
      resetForm(false);
      return refresh();
    }).then(function () {
      resetForm(document.documentElement.dataset.nextRamsch === "true");
      say(words.kept);
    });
  }

  // ------------------------------------------------------------------ sending

  function csrf() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function timed(url, options, ms) {
    var controller = new AbortController();
    var timer = window.setTimeout(function () { controller.abort(); }, ms);
    options.signal = controller.signal;
    return fetch(url, options).finally(function () { window.clearTimeout(timer); });
  }

  function body(op) {
    var out = {op: op.op, request_id: op.request_id, base_version: op.base_version};
    if (op.record) {
      out.record = op.record;
    }
    if (op.deal) {
      out.deal = op.deal;
    } else if (op.deal_request_id) {
      out.deal_request_id = op.deal_request_id;
    }
    if (op.reason) {
      out.reason = op.reason;
    }
    if (op.mode) {
      out.mode = op.mode;
    }
    if (op.dropped) {
      out.dropped = op.dropped;
    }
    return out;
  }

  // What the server stored goes into the tablet's state, so the list stays right.
  function applyStored(op, answer) {
    state.version = answer.version;
    if (op.op === "save") {
      state.table.deals.push(op.record);
      state.ids.push(answer.deal);
      serverRows.push(null);
      ops.forEach(function (other) {
        if (other.deal_request_id === op.request_id) {
          other.deal = answer.deal;
        }
      });
    } else {
      var at = state.ids.indexOf(op.deal || answer.deal);
      if (at >= 0 && op.op === "edit") {
        state.table.deals[at] = op.record;
        serverRows[at] = null;
      } else if (at >= 0 && op.op === "delete") {
        state.table.deals.splice(at, 1);
        state.ids.splice(at, 1);
        serverRows.splice(at, 1);
      }
    }
  }

  // ------------------------------------------------------------------ the session ended

  // The server no longer knows this tablet as a scorer of this table: the session ended
  // elsewhere (the password changed on another device, the session expired) or the account
  // was removed from the club or may no longer record. The screen says so and stops showing
  // the list and the form as if signed in; what waits stays in IndexedDB, under this
  // account, and is sent once it signs in here again (the page then loads as a scorer's).
  var sessionEnded = false;
  function gone(status) {
    return status === 401 || status === 403 || status === 404;
  }
  function ended(message) {
    if (sessionEnded) {
      return;
    }
    sessionEnded = true;
    window.clearTimeout(retryTimer);
    document.documentElement.classList.add("skat-session-ended");
    var kept = ops.filter(function (op) {
      return op.op !== "drop" && op.status !== "refused";
    }).length;
    var box = el("section", {"class": "session-ended", role: "alert",
                             "aria-labelledby": "session-ended-heading"});
    box.appendChild(el("h2", {id: "session-ended-heading"}, words.session_ended));
    if (message) {
      box.appendChild(el("p", {"class": "session-ended-why"}, message));
    }
    box.appendChild(el("p", {"class": "session-ended-kept"}, kept === 0 ? words.session_none :
      fmt(kept === 1 ? words.session_kept_one : words.session_kept_many, {count: kept})));
    if (cfg.loginUrl) {
      var back = el("a", {"class": "session-ended-login", "data-tap": "session-sign-in",
                          href: cfg.loginUrl + "?next=" +
                            encodeURIComponent(window.location.pathname)},
                    words.sign_in_again);
      box.appendChild(back);
    }
    bar.parentNode.insertBefore(box, bar);
    say(words.session_ended);
    api.ended = true;
  }

  var storedSome = false;
  function flush() {
    if (syncing || !cfg.syncUrl || sessionEnded) {
      return Promise.resolve();
    }
    syncing = true;
    showBar();
    function next() {
      var op = ops.find(function (o) { return o.status === "pending"; });
      if (!op) {
        return Promise.resolve();
      }
      if (ops.some(function (o) { return o.status === "conflict" && o.seq < op.seq; })) {
        return Promise.resolve();  // order matters: the scorer decides the conflict first
      }
      return timed(cfg.syncUrl, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf(),
                  "Accept": "application/json"},
        body: JSON.stringify(body(op)),
      }, 10000).then(function (response) {
        return response.json().then(function (answer) {
          return {code: response.status, answer: answer,
                  retry: Number(response.headers.get("Retry-After"))};
        });
      }).then(function (reply) {
        var answer = reply.answer || {};
        setOffline(false);
        if (reply.code >= 500) {
          // The server could not carry it out (its database is gone, an error: sync
          // contract, 503 with Retry-After): nothing was stored, the operation stays in the
          // queue as it was and the queue is sent again after the wait the server asked for.
          retryLater(reply.retry);
          return null;
        }
        if (reply.code === 200 && answer.status === "stored") {
          applyStored(op, answer);
          storedSome = true;
          meta.lastSent = Date.now();
          // Remembered a while: a page from the cache may still carry this request id.
          meta.sentIds = (meta.sentIds || []).concat([op.request_id]).slice(-100);
          return putMeta(meta).then(function () { return deleteOp(op.seq); }).then(function () {
            ops = ops.filter(function (o) { return o.seq !== op.seq; });
            return next();
          });
        }
        if (reply.code === 200 && answer.status === "dropped") {
          // The audit log has it: "keep theirs" is done on both sides.
          return deleteOp(op.seq).then(function () {
            ops = ops.filter(function (o) { return o.seq !== op.seq; });
            return next();
          });
        }
        if (reply.code === 429) {
          // Too many of this device's operations wait for the club admin (sync contract,
          // "held-full"): this one stays in the queue, pending, and goes at a later flush.
          op.message = answer.message;
          return putOp(op).then(function () {
            say(answer.message || "");
            return null;
          });
        }
        if (reply.code === 202) {
          op.status = "held";
          op.held = answer.held;
          op.message = answer.message;
        } else if (reply.code === 409) {
          op.status = "conflict";
          op.conflict = answer;
        } else if (reply.code === 422) {
          op.status = "refused";
          op.error = answer.error;
        } else {
          op.status = "forbidden";
          op.message = answer.message;
          if (answer.status === "forbidden") {
            // no longer signed in here (404: the server does not say more), or no longer
            // allowed to record (403, which it says)
            ended(reply.code === 403 ? answer.message : "");
          }
        }
        return putOp(op).then(function () {
          if (op.status === "conflict") {
            showConflict(op);
            return null;
          }
          if (op.status === "forbidden") {
            return null;
          }
          return next();
        });
      }, function () {
        setOffline(true);
      });
    }
    return next().then(function () {
      syncing = false;
      return refresh();
    }, function () {
      syncing = false;
      showBar();
    }).then(function () {
      if (storedSome && !waiting().length && !offline) {
        say(words.sent);
        reloadWhenIdle();
      }
    });
  }

  var retryTimer = null;
  function retryLater(seconds) {
    var wait = isFinite(seconds) && seconds > 0 ? Math.min(seconds, 300) : 15;
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(function () { retryTimer = null; flush(); }, wait * 1000);
  }

  // Everything is on the server: show its list (labels, links) once the form is untouched.
  function reloadWhenIdle() {
    var touched = form && (form.querySelector('input[name="declarer"]:checked') ||
                           form.querySelector('input[name="ramsch_loser"]:checked') || editing);
    if (!touched && !conflictBox.childElementCount) {
      window.location.assign(window.location.pathname);
    }
  }

  function probe() {
    if (!offline) {
      return;
    }
    timed(cfg.versionUrl || window.location.pathname + "version/",
          {credentials: "same-origin", cache: "no-store"}, 4000)
      .then(function (response) {
        if (gone(response.status)) {
          setOffline(false);
          ended("");
        } else if (response.status < 500) {
          setOffline(false);
          flush();
        } else {
          window.setTimeout(probe, PROBE_MS);
        }
      }, function () { window.setTimeout(probe, PROBE_MS); });
  }

  // ------------------------------------------------------------------ conflicts

  // One row of the server's conflict answer (sync contract), as the live conflict panel
  // shows it: number, game, details, result, each player's entry.
  function sideRow(row) {
    var box = el("div", {"class": "conflict-row" + (row.deleted ? " conflict-row-deleted" : "") +
                                  (row.same ? " conflict-row-same" : "")});
    var what = el("p", {"class": "conflict-what"});
    var number = fmt(words.no, {number: row.number === null ? row.position : row.number});
    what.appendChild(el(row.deleted ? "del" : "strong", {"class": "conflict-number"}, number));
    var text = [row.symbol, row.game].filter(Boolean).join(" ");
    var details = (row.details || []).concat(row.result ? [row.result] : []);
    what.appendChild(document.createTextNode(" " + text +
      (details.length ? " \u00b7 " + details.join(", ") : "")));
    if (row.actions && row.actions.length) {
      what.appendChild(el("span", {"class": "conflict-action"}, " " + row.actions.join(", ")));
    }
    if (row.by) {
      what.appendChild(el("span", {"class": "conflict-actor"}, " \u00b7 " + row.by));
    }
    box.appendChild(what);
    var entriesBox = el("p", {"class": "preview-entries"});
    (row.entries || []).forEach(function (item) {
      entriesBox.appendChild(el("span", {"class": "entry" + (item.entry < 0 ? " negative" : "")},
                                item.player + " " + signed(item.entry)));
    });
    box.appendChild(entriesBox);
    return box;
  }

  function totalsList(totals, key, label) {
    var dl = el("dl", {"class": "conflict-totals", "aria-label": label});
    var head = el("div", {"class": "conflict-totals-head"});
    head.appendChild(el("dt", null, label));
    dl.appendChild(head);
    totals.forEach(function (t) {
      if (t[key] === null || t[key] === undefined) {
        return;
      }
      var div = el("div");
      div.appendChild(el("dt", null, t.player));
      div.appendChild(el("dd", {"class": t[key] < 0 ? "negative" : ""}, minus(t[key])));
      dl.appendChild(div);
    });
    return dl;
  }

  function showConflict(op) {
    var c = op.conflict || {};
    conflictBox.textContent = "";
    var section = el("section", {"class": "conflict conflict-save", id: "offline-conflict",
                                 role: "region", "aria-labelledby": "offline-conflict-heading"});
    section.appendChild(el("h2", {id: "offline-conflict-heading"}, words.conflict));
    section.appendChild(el("p", {"class": "conflict-lead"}, words.conflict_lead));
    // The other device stored the same deal (the server compares the records as the engine
    // reads them): say so, and keeping one is the first choice.
    var same = Boolean(c.same) && op.op === "save";
    if (same) {
      var note = el("p", {"class": "conflict-same", role: "status"}, words.same + " ");
      note.appendChild(el("span", {"class": "conflict-same-hint"}, words.same_hint));
      section.appendChild(note);
    }
    var sides = el("div", {"class": "conflict-sides"});
    var theirs = el("section", {"class": "conflict-side conflict-theirs"});
    theirs.appendChild(el("h3", null, words.theirs));
    (c.theirs || []).forEach(function (row) { theirs.appendChild(sideRow(row)); });
    if (c.totals && c.totals.length) {
      theirs.appendChild(totalsList(c.totals, "theirs", words.totals_now));
    }
    var mine = el("section", {"class": "conflict-side conflict-mine"});
    mine.appendChild(el("h3", null, words.mine));
    if (c.mine && c.mine.row) {
      mine.appendChild(sideRow(c.mine.row));
    } else if (c.mine && c.mine.error) {
      var ul = el("ul", {"class": "errors conflict-errors", role: "alert"});
      ul.appendChild(el("li", null, c.mine.error.message));
      mine.appendChild(ul);
    } else {
      mine.appendChild(el("p", null, op.label || ""));
    }
    if (c.totals && c.totals.some(function (t) { return t.mine !== null; })) {
      mine.appendChild(totalsList(c.totals, "mine", words.totals_mine));
    }
    sides.appendChild(theirs);
    sides.appendChild(mine);
    section.appendChild(sides);
    var choices = el("div", {"class": "conflict-choices" +
                             (same ? " conflict-choices-same" : "")});
    var append = el("button", {type: "button", "class": "conflict-choice conflict-choice-mine" +
                               (same ? " conflict-choice-plain" : ""),
                               "data-tap": "offline-conflict-append"},
                    same ? words.append_anyway : words.append);
    var keep = el("button", {type: "button", "class": "conflict-choice conflict-choice-theirs" +
                             (same ? " conflict-choice-first" : ""),
                             "data-tap": "offline-conflict-theirs"},
                  same ? words.keep_once : words.keep_theirs);
    var edit = el("button", {type: "button", "class": "conflict-choice conflict-choice-edit",
                             "data-tap": "offline-conflict-edit"}, words.edit_mine);
    if (same) {
      choices.appendChild(keep);
    }
    if (op.op === "save" && c.mine && c.mine.row) {
      choices.appendChild(append);
    }
    if (!same) {
      choices.appendChild(keep);
    }
    if (op.op === "save" || op.op === "edit") {
      choices.appendChild(edit);
    }
    section.appendChild(choices);
    conflictBox.appendChild(section);
    say(words.conflict);
    append.addEventListener("click", function () {
      op.status = "pending";
      op.mode = "append";
      delete op.conflict;
      putOp(op).then(function () { conflictBox.textContent = ""; return flush(); });
    });
    // Keep theirs: mine is dropped, and the server hears of it (the sync contract's "drop":
    // every outcome is in the audit log). The drop takes the op's place in the queue, so it
    // is sent now, or when the network is back.
    keep.addEventListener("click", function () {
      var drop = {seq: op.seq, table: TABLE, op: "drop", request_id: uuid(),
                  base_version: c.version === undefined ? op.base_version : c.version,
                  dropped: {op: op.op, request_id: op.request_id, record: op.record || null,
                            deal: op.deal || null},
                  reason: c.same ? words.same : "", status: "pending", created: Date.now()};
      putOp(drop).then(function () {
        ops = ops.map(function (o) { return o.seq === op.seq ? drop : o; });
        conflictBox.textContent = "";
        return flush();
      }).then(function () {
        window.location.assign(window.location.pathname);
      });
    });
    edit.addEventListener("click", function () {
      deleteOp(op.seq).then(loadOps).then(function (loaded) {
        ops = loaded;
        conflictBox.textContent = "";
        fillForm(op.record);
        form.scrollIntoView({block: "start"});
        return refresh();
      });
    });
  }

  // ------------------------------------------------------------------ wiring

  // A page from the service worker's cache carries the request ids it was rendered with; a
  // deal queued (or queued and sent) from it took one of them. The form gets new ones, so
  // that the next deal is not taken for that one (the server stores a request once).
  function freshRequestIds() {
    var taken = {};
    ops.forEach(function (op) { taken[op.request_id] = true; });
    (meta.sentIds || []).forEach(function (id) { taken[id] = true; });
    document.querySelectorAll('#deal-form input[name="request_id"], ' +
                              '.misdeal-form input[name="request_id"]').forEach(function (input) {
      if (taken[input.value]) {
        input.value = uuid();
      }
    });
  }

  function intercept(event) {
    var source = event.target;
    if (source !== form && source !== misdeal) {
      return;
    }
    if (!offline && !editing) {
      // Online: the page posts as ever; if it has not answered within a few seconds, the
      // deal is kept here (same request id: the server stores it once, whichever arrives).
      var snapshot = {source: source, submitter: event.submitter};
      window.setTimeout(function () {
        if (document.visibilityState !== "hidden" && !window.skatUnloading) {
          window.stop();
          setOffline(true);
          queueSave(snapshot.source, snapshot.submitter);
        }
      }, SAVE_TIMEOUT_MS);
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    queueSave(source, event.submitter);
  }

  window.addEventListener("pagehide", function () { window.skatUnloading = true; });
  window.addEventListener("beforeunload", function () { window.skatUnloading = true; });
  document.addEventListener("submit", intercept, true);

  if (form) {
    form.addEventListener("change", function (event) {
      lastTap = event.target.name === "result" && event.target.value ? "result" : null;
      if (offline || editing) {
        offlinePreview();
      }
    });
    form.addEventListener("input", function (event) {
      if ((offline || editing) && event.target.type === "number") {
        window.clearTimeout(form.offlineTyping);
        form.offlineTyping = window.setTimeout(offlinePreview, 300);
      }
    });
  }
  // No request to the server for the preview while offline: the engine answers here.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if ((offline || editing) && event.detail.elt === form) {
      event.preventDefault();
    }
  });
  document.body.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt === form) {
      setOffline(true);
      offlinePreview();
    }
  });
  window.addEventListener("offline", function () { setOffline(true); });
  window.addEventListener("online", function () {
    setOffline(false);
    flush();
  });
  var box = document.querySelector(".rows-box");
  if (box) {
    box.addEventListener("click", function (event) {
      var tr = event.target.closest("tr[data-offline-index]");
      if (!tr || !(offline || tr.classList.contains("pending"))) {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      startCorrection(Number(tr.dataset.offlineIndex));
    }, true);
  }
  // The state as GET tables/<pk>/state/ answers it (sync contract), in this file's shape.
  function adopt(answer) {
    state = {version: answer.version, lang: answer.lang || state.lang,
             table: Object.assign({}, answer.table, {
               deals: answer.deals.map(function (d) { return d.record; })}),
             ids: answer.deals.map(function (d) { return d.id; }),
             series: answer.series, series_length: answer.series_length};
  }
  function fetchState() {
    if (!cfg.stateUrl) {
      return Promise.resolve();
    }
    return timed(cfg.stateUrl, {credentials: "same-origin", headers: {Accept: "application/json"}},
                 SAVE_TIMEOUT_MS).then(function (response) {
      if (gone(response.status)) {
        ended("");
      }
      return response.ok ? response.json() : null;
    }).then(function (answer) {
      if (answer && answer.table && answer.deals && answer.version >= state.version) {
        adopt(answer);
      }
    }).catch(function () {});
  }
  // Another device changed the table and table-live.js showed it: the rows and the state
  // are new; what waits here is shown on top of them again.
  document.addEventListener("table-live:refreshed", function () {
    fetchState().then(function () {
      findRows();
      return refresh();
    });
  });

  if (window.SkatEngine) {
    SkatEngine.ready().catch(function () {});
  }
  document.documentElement.classList.toggle("skat-offline", offline);
  Promise.all([loadOps(), loadMeta()]).then(function (loaded) {
    ops = loaded[0];
    meta = loaded[1];
    // This page was served to a scorer of this table: what a session that has ended
    // could not send (forbidden then) is sent again now.
    ops.forEach(function (op) {
      if (op.status === "forbidden") {
        op.status = "pending";
        delete op.message;
        putOp(op).catch(function () {});
      }
    });
    freshRequestIds();
    api.loaded = true;
    ops.filter(function (o) { return o.status === "conflict"; }).slice(0, 1).forEach(showConflict);
    return refresh();
  }).then(function () {
    if (offline) {
      window.setTimeout(probe, PROBE_MS);
    } else {
      // The service worker keeps this answer for a reload without network.
      fetchState().then(flush);
    }
  });

  var api = window.SkatOffline = {
    loaded: false,  // the queue is read from IndexedDB
    flush: flush,
    ops: function () { return ops.slice(); },
    isOffline: function () { return offline; },
    ended: false,  // the server no longer knows this tablet as a scorer here
    setOffline: setOffline,
  };
})();
