// The service worker of the table screen (issue 13). Served by scoring/views/offline_app.py at
// /sw.js, which puts self.SKAT_CACHE (a name that changes with every deployment) and
// self.SKAT_PRECACHE (the hashed URLs of what the table screen runs) in front of this file.
//
// - install: every precached file is fetched into the cache (CSS, JS, htmx, the Pyodide
//   runtime and the engine bundle), so that a table reopens without network;
// - a table screen (GET /tables/<pk>/) and its state (GET /tables/<pk>/state/): network first,
//   answered from the cache when the network fails, is slower than a few seconds, or the
//   server answers with an error of its own (5xx: its database is gone) and the cache has
//   the page; every good answer replaces the cached one;
// - static files and the engine bundle: from the cache, else from the network (their URLs
//   carry their hash, so a cached copy is never stale);
// - everything else (POSTs, other pages) goes to the network untouched.
/* global self, caches, fetch */
"use strict";

var CACHE = self.SKAT_CACHE || "skatclub";
var PRECACHE = self.SKAT_PRECACHE || [];
var PAGES = "skatclub-pages";  // table screens and states: kept across deployments
var TIMEOUT_MS = 4000;
var TABLE_PAGE = /^\/tables\/\d+\/(state\/)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(PRECACHE);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name !== CACHE && name !== PAGES && name.indexOf("skatclub") === 0;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function networkFirst(request) {
  var key = request.url.split("?")[0];
  return new Promise(function (resolve) {
    var settled = false;
    function fromCache() {
      return caches.open(PAGES).then(function (cache) { return cache.match(key); });
    }
    var timer = setTimeout(function () {
      fromCache().then(function (hit) {
        if (hit && !settled) {
          settled = true;
          resolve(hit);
        }
      });
    }, TIMEOUT_MS);
    fetch(request).then(function (response) {
      clearTimeout(timer);
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(PAGES).then(function (cache) { return cache.put(key, copy); });
      }
      if (response.status >= 500) {
        // The server cannot show the table now: the kept one lets the scorer go on (what is
        // scored waits in the queue until the server stores again).
        fromCache().then(function (hit) {
          if (!settled) {
            settled = true;
            resolve(hit || response);
          }
        });
        return;
      }
      if (!settled) {
        settled = true;
        resolve(response);
      }
    }, function () {
      clearTimeout(timer);
      fromCache().then(function (hit) {
        if (!settled) {
          settled = true;
          resolve(hit || Response.error());
        }
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (TABLE_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request));
    return;
  }
  var precached = PRECACHE.indexOf(url.pathname + url.search) >= 0;
  if (precached || url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request, {ignoreVary: true}).then(function (hit) {
      return hit || fetch(request);
    }));
  }
});
