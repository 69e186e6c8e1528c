// Signing out on a shared tablet (issue 26, item 11): what the table screen's service worker
// and offline queue keep for this account goes with the account. On the sign-out form's
// submit (base.html, form[data-signout]):
//
// - deals this account scored that still wait to be sent (queued, or in a conflict the
//   scorer has not decided) are not dropped silently: the scorer is asked first; signing out
//   anyway leaves them queued under this account on this tablet (offline-table.js sends an
//   account's operations only while that account is signed in), to go out at its next
//   sign-in here;
// - the account's other entries in the queue (held for the club admin, refused: the server
//   has them or said no) are deleted;
// - the service worker's cache of table screens and states ("skatclub-pages") is emptied, so
//   that the next person on this tablet cannot open a table or its state offline;
// - a table-code device's queue (operations scored without an account) is left alone.
//
// Then the form is sent. A failure here never keeps anyone signed in.
(function () {
  "use strict";

  var PAGES = "skatclub-pages";  // static/js/offline-sw.js

  function openQueue() {
    // The same database and schema as offline-table.js (opening it creates it otherwise).
    return new Promise(function (resolve, reject) {
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

  function mine(account) {
    return function (op) { return op.account !== undefined && String(op.account) === account; };
  }

  function waits(op) {
    return op.op !== "drop" && (op.status === "pending" || op.status === "conflict");
  }

  function queued(account) {
    if (!window.indexedDB || !account) {
      return Promise.resolve({database: null, ops: []});
    }
    return openQueue().then(function (database) {
      return new Promise(function (resolve, reject) {
        var request = database.transaction("ops", "readonly").objectStore("ops").getAll();
        request.onsuccess = function () {
          resolve({database: database, ops: (request.result || []).filter(mine(account))});
        };
        request.onerror = function () { reject(request.error); };
      });
    });
  }

  function forget(database, ops) {
    var done = ops.filter(function (op) { return !waits(op); });
    if (!database || !done.length) {
      return Promise.resolve();
    }
    return new Promise(function (resolve) {
      var t = database.transaction("ops", "readwrite");
      done.forEach(function (op) { t.objectStore("ops").delete(op.seq); });
      t.oncomplete = resolve;
      t.onerror = resolve;
      t.onabort = resolve;
    });
  }

  function emptyPages() {
    return window.caches ? caches.delete(PAGES) : Promise.resolve();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-signout]") || form.dataset.cleared) {
      return;
    }
    event.preventDefault();
    var account = form.dataset.account || "";
    var proceed = function () {
      form.dataset.cleared = "true";
      form.submit();
    };
    queued(account).then(function (found) {
      if (found.ops.some(waits) && !window.confirm(form.dataset.warn)) {
        return false;
      }
      return forget(found.database, found.ops).then(emptyPages).then(function () {
        return true;
      });
    }).then(function (go) {
      if (go) {
        proceed();
      }
    }, function () {
      emptyPages().then(proceed, proceed);
    });
  });
}());
