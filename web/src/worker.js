// Python in a Web Worker, so the page stays responsive while Pyodide loads and works.
//
// The page posts the compiled core module; this worker instantiates it, hands the
// instance to finscore through globalThis.finscoreCoreInstance (which the Pyodide
// back end of finscore/host picks up), installs the finscore wheel and the pinned
// pure-Python wheels from the page's own files, and then answers calls by passing
// text to the Python module finscore_playground and text back. No JavaScript here
// reads a program or computes anything.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const STAGES = 5;
const PYTHON_FUNCTIONS = new Set(["run_program", "execute_rows", "score_files", "answer_options", "decide_answer",
  "compare_files"]);
const NEEDS_SCORER = new Set(["score_files", "compare_files"]);

let playground = null;
let manifest = null;
let resolveExec, rejectExec, resolveScorer, rejectScorer;
const execReady = new Promise((resolve, reject) => { resolveExec = resolve; rejectExec = reject; });
const scorerReady = new Promise((resolve, reject) => { resolveScorer = resolve; rejectScorer = reject; });
// a failed load is reported once, through "failed"; calls waiting on it get the error too
execReady.catch(() => {});
scorerReady.catch(() => {});

function progress(done, text) {
  self.postMessage({ type: "progress", done, total: STAGES, text });
}

// the worker sits beside index.html, so the page's files resolve against its own URL
function pageUrl(path) {
  return new URL(path, self.location.href).href;
}

async function fetchJson(path) {
  const response = await fetch(pageUrl(path));
  if (!response.ok) throw new Error(`could not fetch ${path}: HTTP ${response.status}`);
  return response.json();
}

async function fetchText(path) {
  const response = await fetch(pageUrl(path));
  if (!response.ok) throw new Error(`could not fetch ${path}: HTTP ${response.status}`);
  return response.text();
}

function describe(error) {
  return String(error && error.message ? error.message : error);
}

const quiet = { messageCallback: () => {}, errorCallback: (message) => { throw new Error(message); } };

async function startPython(coreModule) {
  manifest = await fetchJson("manifest.json");
  const instance = await WebAssembly.instantiate(coreModule, {});
  instance.exports._initialize();
  globalThis.finscoreCoreInstance = instance;

  progress(0, `Python: starting Pyodide ${manifest.pyodide} (Python ${manifest.python})…`);
  const pyodide = await loadPyodide({ indexURL: pageUrl("pyodide/") });
  progress(1, "Python: installing the finscore wheel…");
  await pyodide.loadPackage([pageUrl(manifest.finscore_wheel)], quiet);
  progress(2, "Python: importing finscore…");
  pyodide.FS.writeFile("/home/pyodide/finscore_playground.py", await fetchText(manifest.playground_module));
  playground = pyodide.pyimport("finscore_playground");
  resolveExec();
  self.postMessage({ type: "ready", what: "exec", pyodide: manifest.pyodide, python: manifest.python });
  return pyodide;
}

async function startScorer(pyodide) {
  progress(3, "Python: installing sympy and mpmath for program equivalence…");
  await pyodide.loadPackage(manifest.scorer_wheels.map(pageUrl), quiet);
  progress(4, "Python: importing the file scorer…");
  pyodide.runPython("import finscore_playground; finscore_playground.prepare_scorer()");
  progress(5, "Python: ready");
  resolveScorer();
  self.postMessage({ type: "ready", what: "score" });
}

async function call(id, name, args) {
  try {
    if (!PYTHON_FUNCTIONS.has(name)) throw new Error(`no such call: ${name}`);
    await (NEEDS_SCORER.has(name) ? scorerReady : execReady);
    const value = name === "score_files"
      ? playground.score_files(...args, (stage, done, total) =>
        self.postMessage({ type: "score-progress", stage, done, total }))
      : playground[name](...args);
    self.postMessage({ type: "result", id, ok: true, value });
  } catch (error) {
    self.postMessage({ type: "result", id, ok: false, error: describe(error) });
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") {
    startPython(message.coreModule)
      .catch((error) => {
        rejectExec(error);
        throw error;
      })
      .then(startScorer)
      .catch((error) => {
        rejectScorer(error);
        self.postMessage({ type: "failed", what: playground ? "score" : "exec", error: describe(error) });
      });
  } else if (message.type === "call") {
    call(message.id, message.name, message.args);
  }
};
