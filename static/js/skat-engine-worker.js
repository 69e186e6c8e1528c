/*
 * The Web Worker behind SkatEngine (skat-engine.js): loads the vendored Pyodide from our
 * static files, puts the engine bundle (scoring/engine zipped by the server) on sys.path and
 * answers calls through scoring.engine.jsonapi, JSON text in and out. No rule of Skat here.
 *
 * Messages in:  {type: "boot", pyodide: indexURL, engine: bundle URL, mode}
 *               {type: "call", id, fn: "evaluate" | "evaluate_table" | "record_from_form", json,
 *                lang, explain, explainFrom}
 * Messages out: {type: "ready", boot, timings} | {type: "failed", message}
 *               {type: "restoring"} (a snapshot is being restored: see skat-engine.js)
 *               {type: "kept", ok, timings} (after a first start: the snapshot is stored)
 *               {type: "result", id, json} | {type: "result", id, message} (runtime failure)
 *
 * Start-up (docs/developers/engine-in-browser.md). What costs the time on a tablet is not the
 * download (the browser keeps every file, and compiles the WebAssembly once: V8 caches the
 * code of a module compiled from a streamed response) but Python starting: the interpreter's
 * initialisation and the imports of the standard library and the engine. So:
 * - the engine bundle is fetched while the runtime loads, not after it;
 * - the package lock (pyodide-lock.json, 120 kB of packages the engine never loads) is not
 *   fetched: the engine needs no package beyond the standard library;
 * - the first start makes a memory snapshot of Pyodide (its `_makeSnapshot` and
 *   `makeMemorySnapshot`, experimental in 0.29) once the engine is imported, before it has
 *   answered anything, and keeps it in the Cache Storage ("skat-engine-snapshot"), keyed by
 *   the runtime's folder and the engine bundle's URL (which carries its hash): a later start
 *   restores that memory instead of starting Python and importing again. A snapshot that
 *   does not restore (another runtime build) is deleted and Python starts as the first time.
 * mode "fresh" deletes the snapshots first and starts as the first time (skat-engine.js asks
 * for it when a restore did not end within its time); mode "plain" starts the old way (no snapshot, the lock fetched, the bundle after the
 * runtime): bench/offline.py measures it beside the new one.
 *
 * The worker is served with its own Content-Security-Policy (skatclub/csp.py): scripts from
 * our origin plus 'wasm-unsafe-eval' for WebAssembly, never 'unsafe-eval'. The pages keep
 * their strict policy.
 */
/* global loadPyodide */
"use strict";

const BUNDLE = "/home/pyodide/skat-engine.zip";
const SNAPSHOTS = "skat-engine-snapshot";  // not "skatclub…": the service worker keeps it
let engineCall = null;
const queue = [];
const timings = {};
let bootMode = null;

function mark(name) {
  timings[name] = Math.round(performance.now());
}

// Pyodide waits for ever when its WebAssembly may not compile (no WebAssembly at all, as in
// iOS's Lockdown Mode, or a policy without 'wasm-unsafe-eval'), so that is tried first on
// the smallest module there is.
function checkWebAssembly() {
  if (typeof WebAssembly !== "object") {
    throw new Error("this browser runs no WebAssembly");
  }
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  } catch (error) {
    throw new Error("WebAssembly is blocked here: " + String(error));
  }
}

function fetchBundle(url) {
  return fetch(url, {credentials: "same-origin"}).then(function (response) {
    if (!response.ok) {
      throw new Error("engine bundle: HTTP " + response.status);
    }
    return response.arrayBuffer();
  }).then(function (buffer) {
    mark("bundle");
    return new Uint8Array(buffer);
  });
}

function snapshotKey(message) {
  return new URL("snapshot?runtime=" + encodeURIComponent(message.pyodide) + "&engine=" +
                 encodeURIComponent(message.engine), self.location.href).href;
}

function openSnapshots() {
  return typeof caches === "object" ? caches.open(SNAPSHOTS).catch(function () { return null; })
    : Promise.resolve(null);
}

// A kept snapshot is used only if it is whole: its length and first word as they were
// stored (loadPyodide waits for ever on memory that is not a snapshot).
function findSnapshot(message) {
  return openSnapshots().then(function (cache) {
    return cache ? cache.match(snapshotKey(message)) : null;
  }).then(function (hit) {
    if (!hit) {
      return null;
    }
    const length = Number(hit.headers.get("X-Snapshot-Length"));
    const head = Number(hit.headers.get("X-Snapshot-Head"));
    return hit.arrayBuffer().then(function (buffer) {
      const whole = buffer.byteLength === length && length >= 4 &&
        new Uint32Array(buffer, 0, 1)[0] === head;
      if (!whole) {
        return forgetSnapshots().then(function () { return null; });
      }
      return new Uint8Array(buffer);
    });
  }).catch(function () { return null; });
}

// Only the snapshot of this runtime and engine is kept.
function keepSnapshot(message, bytes) {
  return openSnapshots().then(function (cache) {
    if (!cache) {
      return null;
    }
    const key = snapshotKey(message);
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) { return r.url !== key; })
        .map(function (r) { return cache.delete(r); }));
    }).then(function () {
      return cache.put(key, new Response(bytes, {headers: {
        "Content-Type": "application/octet-stream",
        "X-Snapshot-Length": String(bytes.byteLength),
        "X-Snapshot-Head": String(new Uint32Array(bytes.buffer, bytes.byteOffset, 1)[0]),
      }}));
    });
  }).then(function () {
    mark("snapshotKept");
    self.postMessage({type: "kept", ok: true, timings: timings, bytes: bytes.length});
  }, function (error) {
    self.postMessage({type: "kept", ok: false, message: String(error)});
  });
}

function forgetSnapshots() {
  return typeof caches === "object" ? caches.delete(SNAPSHOTS).catch(function () {})
    : Promise.resolve();
}

function options(message, extra) {
  return Object.assign({
    indexURL: message.pyodide,
    stdout: function () {},
    stderr: function (text) { console.warn("SkatEngine (Python):", text); },
  }, extra);
}

function importEngine(pyodide, bundle) {
  pyodide.FS.writeFile(BUNDLE, bundle);
  pyodide.runPython(
    "import sys\n" +
    "if " + JSON.stringify(BUNDLE) + " not in sys.path:\n" +
    "    sys.path.insert(0, " + JSON.stringify(BUNDLE) + ")\n" +
    "import scoring.engine.jsonapi\n");
  mark("imported");
  return pyodide.pyimport("scoring.engine.jsonapi").call;
}

// The way it started before snapshots: kept as the bench's baseline.
async function bootPlain(message) {
  const pyodide = await loadPyodide(options(message, {}));
  mark("runtime");
  const bundle = await fetchBundle(message.engine);
  engineCall = importEngine(pyodide, bundle);
  bootMode = "plain";
}

async function bootFast(message, lockContents) {
  const bundle = fetchBundle(message.engine);
  const snapshot = await findSnapshot(message);
  mark("snapshotRead");
  const noLock = lockContents ? {lockFileContents: lockContents} : {};
  if (snapshot && message.mode !== "fresh") {
    // skat-engine.js starts a new worker without the snapshot if this never ends.
    self.postMessage({type: "restoring"});
    try {
      const pyodide = await loadPyodide(options(message, Object.assign({
        _loadSnapshot: snapshot}, noLock)));
      mark("runtime");
      engineCall = importEngine(pyodide, await bundle);
      bootMode = "snapshot";
      return;
    } catch (error) {
      console.warn("SkatEngine: the snapshot did not restore, starting afresh:", error);
      await forgetSnapshots();
    }
  }
  const pyodide = await loadPyodide(options(message, Object.assign({_makeSnapshot: true},
                                                                   noLock)));
  mark("runtime");
  engineCall = importEngine(pyodide, await bundle);
  bootMode = "fresh";
  // The memory now: Python started and the engine imported, nothing answered yet.
  let bytes = null;
  try {
    bytes = pyodide.makeMemorySnapshot();
    mark("snapshotMade");
  } catch (error) {
    console.warn("SkatEngine: no snapshot:", error);
  }
  if (bytes) {
    // After "ready" (the boot's promise resolves first): storing it must not delay the engine.
    Promise.resolve().then(function () { return keepSnapshot(message, bytes); });
  }
}

async function boot(message) {
  mark("boot");
  checkWebAssembly();
  importScripts(message.pyodide + "pyodide.js");
  mark("loader");
  if (message.mode === "fresh") {
    await forgetSnapshots();  // the last one hung: start as the first time
  }
  if (message.mode === "plain") {
    await bootPlain(message);
  } else {
    await bootFast(message, message.lock);
  }
}

function answer(message) {
  try {
    const json = engineCall(message.fn, message.json, message.lang, message.explain,
                            message.explainFrom);
    self.postMessage({type: "result", id: message.id, json: json});
  } catch (error) {
    self.postMessage({type: "result", id: message.id, message: String(error)});
  }
}

self.onmessage = function (event) {
  const message = event.data;
  if (message.type === "boot") {
    boot(message).then(function () {
      self.postMessage({type: "ready", boot: bootMode, timings: timings});
      queue.splice(0).forEach(answer);
    }, function (error) {
      self.postMessage({type: "failed", message: "SkatEngine: " + String(error)});
    });
  } else if (message.type === "call") {
    if (engineCall) {
      answer(message);
    } else {
      queue.push(message);
    }
  }
};
