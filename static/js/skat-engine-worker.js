/*
 * The Web Worker behind SkatEngine (skat-engine.js): loads the vendored Pyodide from our
 * static files, puts the engine bundle (scoring/engine zipped by the server) on sys.path and
 * answers calls through scoring.engine.jsonapi, JSON text in and out. No rule of Skat here.
 *
 * Messages in:  {type: "boot", pyodide: indexURL, engine: bundle URL}
 *               {type: "call", id, fn: "evaluate" | "evaluate_table", json, lang, explain,
 *                explainFrom}
 * Messages out: {type: "ready"} | {type: "failed", message}
 *               {type: "result", id, json} | {type: "result", id, message} (runtime failure)
 *
 * The worker is served with its own Content-Security-Policy (skatclub/csp.py): scripts from
 * our origin plus 'wasm-unsafe-eval' for WebAssembly, never 'unsafe-eval'. The pages keep
 * their strict policy.
 */
/* global loadPyodide */
"use strict";

const BUNDLE = "/home/pyodide/skat-engine.zip";
let engineCall = null;
const queue = [];

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

async function boot(message) {
  checkWebAssembly();
  importScripts(message.pyodide + "pyodide.js");
  const pyodide = await loadPyodide({
    indexURL: message.pyodide,
    stdout: function () {},
    stderr: function (text) { console.warn("SkatEngine (Python):", text); },
  });
  const response = await fetch(message.engine, {credentials: "same-origin"});
  if (!response.ok) {
    throw new Error("engine bundle: HTTP " + response.status);
  }
  pyodide.FS.writeFile(BUNDLE, new Uint8Array(await response.arrayBuffer()));
  pyodide.runPython(
    "import sys\n" +
    "sys.path.insert(0, " + JSON.stringify(BUNDLE) + ")\n" +
    "import scoring.engine.jsonapi\n");
  engineCall = pyodide.pyimport("scoring.engine.jsonapi").call;
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
      self.postMessage({type: "ready"});
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
