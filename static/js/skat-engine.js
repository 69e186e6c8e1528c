/*
 * SkatEngine: the server's scoring engine (scoring/engine, Python) running in this browser,
 * so that a table can keep scoring while the Wi-Fi is down. There is no rule of Skat in
 * JavaScript: a Web Worker (skat-engine-worker.js) loads Pyodide, the vendored
 * CPython-for-WebAssembly, from our own static files and imports the very same package the
 * server runs, zipped from its one source (scoring/offline.py). The runtime loads in the
 * worker, off the page's thread, and the browser caches every file of it (versioned,
 * immutable URLs).
 *
 * Include it with {% load engine_tags %}{% skat_engine_script %} in a template's head: that
 * <script data-skat-engine> carries the URLs of the worker, the runtime and the engine.
 *
 *   SkatEngine.ready()                 -> Promise, resolves once the engine can answer;
 *                                         starts loading on the first call (call it early,
 *                                         while online). Rejects if the runtime cannot load.
 *   SkatEngine.evaluate(deal, lang)    -> Promise of what the server's
 *                                         scoring.engine.evaluate(deal, lang) returns
 *   SkatEngine.evaluateTable(table, {lang, explain, explainFrom})
 *                                      -> Promise of evaluate_table(table, lang, explain,
 *                                         explain_from)
 *   SkatEngine.recordFromForm(raw)    -> Promise of the deal record the table screen's form
 *                                         data stands for ({name: [text, ...]}, as FormData
 *                                         holds it): the server's DealForm mapping
 *                                         (scoring/engine/form_record.py), never a copy
 *   SkatEngine.status                  -> "idle" | "loading" | "ready" | "failed"
 *   SkatEngine.error                   -> why it failed (a string), else null
 *   SkatEngine.timings                 -> {start, ready} in performance.now() milliseconds
 *   SkatEngine.boot                    -> how it started: "snapshot" (a later start: the
 *                                         memory kept from the first), "fresh" or "plain"
 *   SkatEngine.workerTimings           -> the worker's own marks (its clock), for the bench
 *   SkatEngine.snapshot                -> after a first start, once the snapshot is stored:
 *                                         {ok, bytes}; else null
 *   document event "skatengine:status" -> fired on every change; event.detail.status
 *
 * A record the engine refuses is no rejection: the promise resolves with
 * {"error": {"field", "message", "deal"}}, the message in `lang` ("de" or "en"; default: the
 * page's <html lang>), exactly as `manage.py score --lang` prints it. A promise rejects only
 * when the runtime itself failed. Records are passed as JSON, so pass plain objects.
 */
(function () {
  "use strict";

  const tag = document.currentScript || document.querySelector("script[data-skat-engine]");
  const config = {
    worker: tag && tag.dataset.worker,
    pyodide: tag && tag.dataset.pyodide,
    engine: tag && tag.dataset.engine,
    // The runtime's lock without packages (scoring/offline.py): saves fetching the real one.
    lock: tag && tag.dataset.lock ? JSON.parse(tag.dataset.lock) : undefined,
  };

  let worker = null;
  let readyPromise = null;
  let nextId = 1;
  const pending = new Map();

  const api = {
    status: "idle",
    error: null,
    timings: {start: null, ready: null},
    boot: null,
    workerTimings: null,
    snapshot: null,
    ready: ready,
    evaluate: function (deal, lang) {
      return call("evaluate", deal, {lang: lang});
    },
    evaluateTable: function (table, options) {
      return call("evaluate_table", table, options || {});
    },
    recordFromForm: function (raw) {
      return call("record_from_form", raw, {});
    },
  };

  function setStatus(status, error) {
    api.status = status;
    api.error = error || null;
    document.dispatchEvent(new CustomEvent("skatengine:status", {
      detail: {status: status, error: api.error},
    }));
  }

  function pageLanguage() {
    return (document.documentElement.lang || "en").slice(0, 2).toLowerCase();
  }

  function failAll(message) {
    pending.forEach(function (entry) { entry.reject(new Error(message)); });
    pending.clear();
  }

  function ready() {
    if (readyPromise) {
      return readyPromise;
    }
    readyPromise = new Promise(function (resolve, reject) {
      if (!config.worker || !config.pyodide || !config.engine) {
        const message = "SkatEngine: the page lacks {% skat_engine_script %}";
        setStatus("failed", message);
        reject(new Error(message));
        return;
      }
      api.timings.start = performance.now();
      setStatus("loading");
      start(window.SkatEngineBoot || "fast", resolve, reject);
    });
    return readyPromise;
  }

  // A restore from the snapshot takes about a second; one that has not ended in this time
  // is given up: the worker is ended and a new one starts Python afresh.
  const RESTORE_MS = 20000;

  function start(mode, resolve, reject) {
    let watchdog = null;
    worker = new Worker(config.worker);
    worker.onmessage = function (event) {
      const reply = event.data;
      if (reply.type === "restoring") {
        watchdog = setTimeout(function () {
          console.warn("SkatEngine: the snapshot did not restore in time; starting afresh");
          worker.terminate();
          start("fresh", resolve, reject);
        }, RESTORE_MS);
        return;
      }
      clearTimeout(watchdog);
      if (reply.type === "ready") {
        api.timings.ready = performance.now();
        api.boot = reply.boot;
        api.workerTimings = reply.timings;
        setStatus("ready");
        resolve(api);
      } else if (reply.type === "kept") {
        api.snapshot = {ok: reply.ok, bytes: reply.bytes || 0};
        if (reply.timings) {
          api.workerTimings = reply.timings;
        }
      } else if (reply.type === "failed") {
        setStatus("failed", reply.message);
        failAll(reply.message);
        reject(new Error(reply.message));
      } else if (reply.type === "result") {
        const entry = pending.get(reply.id);
        pending.delete(reply.id);
        if (!entry) {
          return;
        }
        if (reply.json !== undefined) {
          entry.resolve(JSON.parse(reply.json));
        } else {
          entry.reject(new Error(reply.message));
        }
      }
    };
    worker.onerror = function (event) {
      const message = "SkatEngine: the worker failed: " + (event.message || "unknown error");
      event.preventDefault();
      clearTimeout(watchdog);
      setStatus("failed", message);
      failAll(message);
      reject(new Error(message));
    };
    // window.SkatEngineBoot = "plain": the old start, for bench/offline.py's baseline.
    worker.postMessage({type: "boot", pyodide: config.pyodide, engine: config.engine,
                        lock: config.lock, mode: mode});
  }

  function call(fn, record, options) {
    let json;
    try {
      json = JSON.stringify(record);
    } catch (error) {
      return Promise.reject(error);
    }
    return ready().then(function () {
      return new Promise(function (resolve, reject) {
        const id = nextId++;
        pending.set(id, {resolve: resolve, reject: reject});
        worker.postMessage({
          type: "call", id: id, fn: fn, json: json === undefined ? "null" : json,
          lang: options.lang || pageLanguage(),
          explain: Boolean(options.explain),
          explainFrom: options.explainFrom === undefined ? 1 : options.explainFrom,
        });
      });
    });
  }

  window.SkatEngine = api;
})();
