// The page's handle on Python: a Web Worker running Pyodide (see worker.js).
// Calls pass text in and get JSON text back; every answer is decided in Python.

export class PythonWorker {
  constructor(url, { onProgress, onReady, onFailed, onScoreProgress }) {
    this.worker = new Worker(url, { type: "module" });
    this.pending = new Map();
    this.nextId = 1;
    this.worker.onmessage = (event) => {
      const message = event.data;
      if (message.type === "progress") onProgress(message);
      else if (message.type === "ready") onReady(message);
      else if (message.type === "failed") onFailed(message);
      else if (message.type === "result") this.settle(message);
      else if (message.type === "score-progress") onScoreProgress(message);
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      onFailed({ what: "exec", error: event.message || "the Python worker could not start" });
    };
  }

  /** Hand the compiled core to the worker, which instantiates its own copy and starts Pyodide. */
  start(coreModule) {
    this.worker.postMessage({ type: "init", coreModule });
  }

  settle(message) {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.ok) pending.resolve(message.value);
    else pending.reject(new Error(message.error));
  }

  /** Call a function of finscore_playground with text arguments; resolves to its JSON, parsed. */
  async call(name, ...args) {
    const id = this.nextId++;
    const text = await new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "call", id, name, args });
    });
    return JSON.parse(text);
  }
}
