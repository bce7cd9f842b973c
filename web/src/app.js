// The playground page: loads the core at once, and Python in a worker only when something the
// core cannot decide asks for it (ensurePython), and wires the forms.
import { loadCore, roundHalfEven, doubleHex, doubleText } from "./core.js";
import { ABI_VERSION } from "./binding/index.js";
import { PythonWorker } from "./python.js";
import { renderExecution } from "./stepview.js";
import { renderReport } from "./report.js";
import { wireCompare } from "./compare.js";
import { el, showError } from "./dom.js";
import { FRAGMENT_LIMIT, cleanState, decodeState, encodeState } from "./share.js";
import {
  PYTHON_READS, pythonFloatRepr, pythonStrip, pythonStrRepr, quickRows, quickRun, readRequest, tokenizeGoldProgram,
} from "./quick.js";
import { answerOptionsOf, loadAnswerData, quickDecide } from "./answers_quick.js";

const $ = (selector) => document.querySelector(selector);

function deferred() {
  let resolve, reject;
  const promise = new Promise((ok, fail) => { resolve = ok; reject = fail; });
  promise.catch(() => {}); // a failed load is shown on the page; callers awaiting it get the error too
  return { promise, resolve, reject };
}

const core = deferred();
const python = deferred();
const scorer = deferred();
const answerChoices = deferred(); // settled once the answer mode's choices are filled from Python (or failed to be)
let worker = null;
let examples = [];
let coreNow = null; // the loaded core, once it is
let pythonNow = null; // the Python worker, once it answers
let scorerNow = null; // the Python worker, once its file scorer is ready
let answerData = null; // answers.json: the protocols' rules and words for the core's answer path, once loaded
const LIVE_DELAY_MS = 250; // results follow typing after this pause

function setEngine(node, state, text) {
  node.dataset.state = state;
  const target = node.matches("p") ? node : node.querySelector("p");
  target.lastChild.textContent = text;
}

function enable(button, enabled, label) {
  button.disabled = !enabled;
  button.textContent = label;
}

// -- the core, at once ----------------------------------------------------------------

async function startCore() {
  try {
    const loaded = await loadCore(new URL("finscore_core.wasm", document.baseURI).href);
    setEngine($("#core-status"), "ready", `WebAssembly core: ready (ABI ${loaded.abiVersion})`);
    enable($("#round"), true, "Round");
    enable($("#run"), true, "Run");
    coreNow = loaded;
    core.resolve(loaded);
    return loaded;
  } catch (error) {
    setEngine($("#core-status"), "failed", `WebAssembly core: could not load (${error.message})`);
    core.reject(error);
    throw error;
  }
}

function roundWithCore(event) {
  event.preventDefault();
  const out = $("#round-result");
  core.promise.then((loaded) => {
    const text = $("#round-x").value.trim();
    const places = Number($("#round-places").value);
    const x = Number(text);
    if (text === "" || Number.isNaN(x) && !/^[+-]?nan$/i.test(text)) {
      out.textContent = `“${text}” is not a number JavaScript can read`;
      return;
    }
    if (!Number.isInteger(places) || places < 0 || places > 22) {
      out.textContent = "n must be a whole number from 0 to 22";
      return;
    }
    const rounded = roundHalfEven(loaded, x, places);
    out.textContent = rounded.ok
      ? `round(${doubleText(x)}, ${places}) = ${doubleText(rounded.value)}   (${rounded.hex})`
      : `the core refused: ${rounded.statusName} (${rounded.status})`;
    out.dataset.hex = rounded.ok ? rounded.hex : "";
  });
}

// -- Python, in a worker, loaded only when needed ---------------------------------------

let pythonStarted = false; // the worker was created (Pyodide is being, or has been, fetched)

/**
 * Start loading Python (once) because something the core cannot decide needs it: a program or
 * answer the core defers, a file to score or compare, "Load Python now". Resolves when the step
 * view's Python is ready; the file scorer (sympy) follows in the same worker (`scorer`).
 */
function ensurePython() {
  if (!pythonStarted) {
    pythonStarted = true;
    $("#load-python").hidden = true;
    setEngine($("#python-engine"), "loading", "Python: starting…");
    core.promise.then(({ module }) => startPython(module), () => {}); // a core that failed rejected both already
  }
  return python.promise;
}

/** Start loading Python if it is not, and resolve when the file scorer is ready. */
function ensureScorer() {
  ensurePython();
  return scorer.promise;
}

function startPython(coreModule) {
  const progress = $("#python-progress");
  const engine = $("#python-engine");
  worker = new PythonWorker(new URL("worker.js", document.baseURI), {
    onProgress: ({ done, total, text }) => {
      progress.max = total;
      progress.value = done;
      setEngine(engine, done >= total ? "ready" : "loading", text);
      pythonProgress = { done, total };
      refreshWaiting();
    },
    onReady: (message) => {
      if (message.what !== "exec") scorerNow = worker;
      if (message.what === "exec") {
        $("#versions").textContent = `Pyodide ${message.pyodide}, Python ${message.python}; the WebAssembly core of the finscore package.`;
        pythonNow = worker;
        python.resolve(worker);
      } else {
        scorer.resolve(worker);
      }
    },
    onScoreProgress: ({ stage, done, total }) => {
      const bar = $("#score-progress");
      bar.max = Math.max(total, 1);
      bar.value = done;
      $("#score-stage").textContent = `${stage}: ${done} of ${total}`;
    },
    onFailed: ({ what, error }) => {
      setEngine(engine, "failed", `Python: ${what === "exec" ? "could not start" : "the file scorer could not load"} (${error})`);
      if (what === "exec") {
        python.reject(new Error(error));
        answerChoices.reject(new Error(error)); // a queued answer ends with the error, as a run does
      }
      scorer.reject(new Error(error));
      enable($("#score"), false, "Score (Python failed to load)");
    },
  });
  worker.start(coreModule);
}

// -- the step view --------------------------------------------------------------------

function checked(name) {
  return document.querySelector(`input[name="${name}"]:checked`).value;
}

function programRequest() {
  return {
    program: $("#program").value,
    table: $("#table").value,
    table_format: $("#table-format").value,
    profile: checked("profile"),
    python: checked("python"),
  };
}

async function runProgram(request) {
  const ready = await ensurePython();
  return ready.call("run_program", JSON.stringify(request));
}

/** Mark the page busy while `work` runs (tests and assistive tech can wait on it). */
let busyCount = 0; // runs overlap (live updates, Ctrl+Enter): busy until the last one ends

async function busy(what, work) {
  busyCount += 1;
  document.body.dataset.busy = what;
  try {
    return await work();
  } finally {
    busyCount -= 1;
    if (busyCount === 0) delete document.body.dataset.busy;
  }
}

/**
 * Mark (or clear) one kind of request ("run", "answer") waiting for Python on the page:
 * `data-queued` lists the waiting kinds, so that one finishing never clears another's mark.
 */
function markQueued(kind, waiting) {
  const kinds = new Set((document.body.dataset.queued || "").split(" ").filter(Boolean));
  if (waiting) kinds.add(kind);
  else kinds.delete(kind);
  if (kinds.size) document.body.dataset.queued = [...kinds].sort().join(" ");
  else delete document.body.dataset.queued;
}

let runNumber = 0; // a newer run supersedes an older one still waiting for Python

// -- waiting for Python: said with its loading progress, never over another input's result ----

let pythonProgress = { done: 0, total: 0 };
const waiting = { run: null, answer: null }; // what each form waits for (a sentence), or null

function progressText() {
  const { done, total } = pythonProgress;
  return total ? `loading ${done} of ${total}` : "starting";
}

const waitingScore = { text: null }; // the file scorer's waiting sentence, or null

/** The status lines of the forms that wait for Python, with its current loading progress. */
function refreshWaiting() {
  if (waiting.run !== null) showStatus("#run-status", `Waiting for Python (${progressText()}) ${waiting.run}`);
  if (waiting.answer !== null) showStatus("#answer-status", `Waiting for Python (${progressText()}) ${waiting.answer}`);
  if (waitingScore.text !== null) $("#score-stage").textContent = `Waiting for Python (${progressText()}) ${waitingScore.text}`;
}

function waitFor(kind, sentence) {
  waiting[kind] = sentence;
  if (sentence === null) return;
  refreshWaiting();
}

/** A call that failed outright (Python could not start, or raised): said on the page, never left
 * as "Waiting for Python…" over an old answer; the form's caller gets {ok: false, error}. */
function failedCall(kind, statusSelector, errorElement, panel, failure, what = "Python could not answer") {
  const message = failure instanceof Error ? failure.message : String(failure);
  markQueued(kind, false);
  waitFor(kind, null);
  if (statusSelector) showStatus(statusSelector, "");
  if (panel) panel.hidden = true;
  showError(errorElement, `${what}: ${message}`);
  return { ok: false, error: message };
}

function runFromForm(event) {
  if (event) event.preventDefault();
  clearTimeout(liveTimer); // a live run still pending would only run this input again, after this one's outcome
  const request = programRequest();
  const number = ++runNumber;
  delete document.body.dataset.notes; // an earlier run's notes, still asked of Python, are not this one's
  return busy("run", async () => {
    const error = $("#program-error");
    let answer = null;
    let reason = null;
    if (coreNow) {
      const quick = quickRun(coreNow, request);
      answer = quick.answer ?? null;
      reason = quick.wait ?? null;
    }
    if (answer === null) {
      // The outcome on show answers another input: hidden at once, never shown for this one.
      $("#outcome").hidden = true;
      $("#outcome").dataset.stale = "true";
      markProgram(null);
      if (!pythonNow) {
        markQueued("run", true);
        waitFor("run", `to read this program${reason ? ` (${reasonText(reason)})` : ""}; it runs as soon as Python is ready.`);
      } else {
        showStatus("#run-status", `Python is reading this program${reason ? ` (${reasonText(reason)})` : ""}…`);
      }
      try {
        answer = await runProgram(request);
      } catch (failure) {
        if (number !== runNumber) return null; // superseded: a newer run speaks for the page
        markProgram(null);
        return failedCall("run", "#run-status", error, $("#outcome"), failure);
      }
      if (number !== runNumber) return answer; // superseded while it waited
      markQueued("run", false);
      answer.path = "python";
    }
    waitFor("run", null);
    showStatus("#run-status", "");
    $("#step-view").dataset.request = JSON.stringify(request); // what the outcome answers (for tests)
    delete $("#outcome").dataset.stale;
    if (!answer.ok) {
      $("#outcome").hidden = true;
      markProgram(null);
      showError(error, answer.error);
      return answer;
    }
    showError(error, "");
    renderExecution($("#outcome"), answer);
    renderTokens(answer);
    markProgram(answer);
    if (answer.path === "core" && answer.execution.invalid) addNotes(request, answer, number);
    if (window.finscore.firstAnswerMs === null) window.finscore.firstAnswerMs = performance.now();
    saveState();
    return answer;
  });
}

/**
 * The input changed: the outcome on show is the previous input's. It is marked stale at once
 * (dimmed, `data-stale`) until the new one's comes, and hidden at once when the new input needs
 * Python, whose answer may take seconds.
 */
function markStale() {
  const outcome = $("#outcome");
  if (outcome.hidden) return;
  outcome.dataset.stale = "true";
  if (!coreNow || quickRun(coreNow, programRequest()).answer === undefined) {
    outcome.hidden = true;
    markProgram(null);
  }
}

/**
 * The `note:` hints of `finscore exec` (what was most likely meant, e.g. `add(1, 2)` for `add(1,2)`)
 * are Python's words: for a refusal the core decided, they are asked of Python (once it is ready)
 * and added to the outcome if it still answers the same run. `data-notes` on the body says
 * "pending" meanwhile (for tests).
 */
async function addNotes(request, answer, number) {
  document.body.dataset.notes = "pending";
  if (!pythonStarted) {
    // a refusal is the core's to decide; its hints alone do not fetch 21.9 MB of Python
    showStatus("#run-status", "The command line's note: hints on a refusal, if it has any, are Python's words: " +
      "they are added here once Python is loaded (“Load Python now”, or anything only Python can do).");
  }
  let notes;
  try {
    const ready = await python.promise;
    const full = await ready.call("run_program", JSON.stringify(request));
    notes = full.ok ? full.execution.notes : [`Python could not give its notes: ${full.error}`];
  } catch (failure) {
    notes = [`Python could not give its notes: ${failure instanceof Error ? failure.message : String(failure)}`];
  }
  if (number !== runNumber) return; // another input is on show now
  delete document.body.dataset.notes;
  showStatus("#run-status", "");
  if (notes.length) renderExecution($("#outcome"), { ...answer, execution: { ...answer.execution, notes } });
}

// -- the state in the address ------------------------------------------------------------

function currentState() {
  const answer = answerRequest();
  return cleanState({
    ...programRequest(), example: $("#example").value, mode: checked("mode"),
    completion: answer.completion, answer_protocol: answer.protocol, answer_format: answer.format,
    gold_answer: answer.gold_answer, gold_program: answer.gold_program, gold_question: answer.gold_question,
    gold_scale: answer.gold_scale, gold_answer_type: answer.gold_answer_type,
  });
}

let savedFragment = null;

/** Write the state into the address (replaceState: no history entry per keystroke), within the cap. */
async function saveState() {
  const fragment = await encodeState(currentState());
  if (fragment === savedFragment) return;
  const status = $("#share-status");
  if (fragment.length > FRAGMENT_LIMIT) {
    status.textContent = `This program and table are too large for a link (${fragment.length.toLocaleString("en")} characters ` +
      `compressed; the limit is ${FRAGMENT_LIMIT.toLocaleString("en")}), so the address keeps the last state that fit.`;
    status.dataset.state = "too-large";
    return;
  }
  savedFragment = fragment;
  history.replaceState(null, "", fragment);
  if (status.dataset.state === "too-large") { status.textContent = ""; delete status.dataset.state; }
}

function applyState(state) {
  $("#program").value = state.program;
  $("#table").value = state.table;
  $("#table-format").value = state.table_format;
  for (const name of ["profile", "python"]) {
    const input = document.querySelector(`input[name="${name}"][value="${CSS.escape(state[name])}"]`);
    if (input) input.checked = true;
  }
  const example = examples.find((e) => e.key === state.example);
  $("#example").value = example ? example.key : "";
  $("#example-note").textContent = "";
  shownExample = null;
  $("#completion").value = state.completion;
  chooseOption($("#answer-protocol"), state.answer_protocol);
  chooseOption($("#answer-format"), state.answer_format);
  for (const name of ["gold_answer", "gold_program", "gold_question"]) $(`#${name.replace("_", "-")}`).value = state[name];
  chooseOption($("#gold-scale"), state.gold_scale);
  chooseOption($("#gold-answer-type"), state.gold_answer_type);
  const mode = document.querySelector(`input[name="mode"][value="${CSS.escape(state.mode)}"]`);
  (mode ?? document.querySelector('input[name="mode"][value="program"]')).checked = true;
  applyMode();
  showAnswerFields();
}

/** Select `value`, adding it as an option when the list lacks it (a link read before Python named
 * the protocols); Python then answers for it, or says it does not know it. */
function chooseOption(select, value) {
  if (![...select.options].some((option) => option.value === value)) {
    select.append(el("option", { value, text: value }));
  }
  select.value = value;
}

/** Run what the restored mode shows. */
function runRestored() {
  return checked("mode") === "answer" ? decideFromForm() : runFromForm();
}

/** Restore the state a link holds; true when there was one. */
async function restoreFromAddress() {
  let state;
  try {
    state = await decodeState(location.hash);
  } catch (error) {
    $("#share-status").textContent = `${error.message}; the page starts from its first example.`;
    $("#share-status").dataset.state = "bad-link";
    return false;
  }
  if (state === null) return false;
  applyState(state);
  savedFragment = location.hash;
  return true;
}

async function copyLink() {
  await saveState();
  const link = $("#share-link");
  link.value = location.href;
  link.hidden = false;
  link.select();
  try {
    await navigator.clipboard.writeText(location.href);
    $("#share-status").textContent = "Link copied.";
  } catch {
    $("#share-status").textContent = "Select the link above and copy it (this browser did not allow copying).";
  }
}

function reasonText(reason) {
  const words = {
    deferred: "the core defers it to the full reader",
    "a gold Python reads": "a gold only Python reads: yes / no, a text span, or text outside ASCII",
    "a format the core does not read": "an answer format only Python locates",
    "a protocol the core does not hold": "a protocol only Python decides",
    "text outside ASCII": "text outside ASCII, which Python reads by its Unicode rules",
    negative_base_fractional_exponent: "a complex power, which only Python follows",
    "not framed": "text the core's framing cannot hold",
    "pasted table": "a pasted table, which Python reads",
  };
  return words[reason] ?? reason;
}

/** A status line under a form (#run-status, #answer-status): shown while it has text. */
function showStatus(selector, text) {
  const node = $(selector);
  node.textContent = text;
  node.hidden = !text;
}

/** The token view: each token, its place in its step, and each argument as it was read. */
function renderTokens(answer) {
  const read = readRequest(programRequest());
  const tokens = read.tokens ?? [];
  const execution = answer.execution;
  const byStep = new Map(execution.steps.map((step) => [step.index, step]));
  const quirkSteps = new Map(execution.quirks.filter((q) => q.step !== null).map((q) => [q.step, q.status]));
  const rows = tokens.map((token, i) => {
    const step = Math.floor(i / 4);
    const place = i % 4;
    const last = i === tokens.length - 1;
    const role = last ? "end (dropped officially)" : place === 0 ? `op of #${step}` : place === 3 ? `close of #${step}` : `argument ${place} of #${step}`;
    const ran = byStep.get(step);
    const readAs = !last && ran && (place === 1 || place === 2) ? ran.arguments_text[place - 1] : "";
    const quirk = quirkSteps.get(step);
    return el("tr", { className: quirk ? "quirk" : null, "data-token": i },
      el("th", { scope: "row", text: String(i) }), el("td", { className: "token", text: pythonStrRepr(token) }),
      el("td", { text: role }), el("td", { className: "args", text: quirk ? `${readAs} — quirk: ${quirk}`.replace(/^ — /, "") : readAs }));
  });
  $("#tokens tbody").replaceChildren(...rows);
}

/** The program as typed, with the refused step marked and the reason beside it. */
function markProgram(answer) {
  const box = $("#program-check");
  const execution = answer?.execution;
  if (!execution || !execution.invalid || execution.failed_step === null) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  const text = $("#program").value;
  const read = readRequest(programRequest());
  const first = 4 * execution.failed_step;
  const spans = read.spans ? read.spans.slice(first, first + 4).filter(Boolean) : [];
  const reason = el("span", { className: "reason" }, el("strong", { text: execution.status_name }),
    ` at step #${execution.failed_step}: ${execution.status_description}`,
    execution.message && execution.message !== execution.status_name ? ` (${execution.message})` : "");
  if (spans.length) {
    const start = spans[0][0], end = spans[spans.length - 1][1];
    box.replaceChildren(el("code", { className: "program-echo" }, text.slice(0, start),
      el("mark", { className: "failing-token", text: text.slice(start, end) }), text.slice(end)), " ", reason);
  } else {
    const tokens = read.tokens ? read.tokens.slice(first, first + 4) : [];
    box.replaceChildren(tokens.length ? el("mark", { className: "failing-token", text: tokens.join(" ") }) : "", " ", reason);
  }
  box.hidden = false;
}

function tableText(table) {
  if (!Array.isArray(table) || table.length === 0) return "";
  return `[\n${table.map((row) => `  ${JSON.stringify(row)}`).join(",\n")}\n]`;
}

/** Put a program and its table into the form (and run it once Python is ready). */
let shownExample = null; // the program and table the example note describes

/** The example's note describes the example as shipped: say so once it is edited. */
function refreshExampleNote() {
  const note = $("#example-note");
  if (!shownExample) return;
  const edited = $("#program").value !== shownExample.program || $("#table").value !== shownExample.table;
  note.dataset.stale = String(edited);
  note.textContent = edited ? `Edited since it was loaded; the note describes the example as shipped: ${shownExample.note}`
    : shownExample.note;
}

function loadIntoStepView({ program, table, note }) {
  $("#program").value = Array.isArray(program) ? JSON.stringify(program) : program;
  $("#table").value = tableText(table);
  $("#table-format").value = "auto";
  $("#example-note").textContent = note || "";
  $("#example-note").dataset.stale = "false";
  shownExample = note ? { program: $("#program").value, table: $("#table").value, note } : null;
  if (!$("#run").disabled) runFromForm();
}

// The file scorer's benchmarks, from the registry's generated copy (tools/registry/make_web_benchmarks.py).
async function loadBenchmarks() {
  const response = await fetch(new URL("benchmarks.json", document.baseURI));
  if (!response.ok) throw new Error(`could not fetch benchmarks.json: HTTP ${response.status}`);
  const select = $("#score-benchmark");
  for (const benchmark of (await response.json()).benchmarks) {
    if (!benchmark.file_scorer) continue; // scored by its own command, not by the page
    const option = document.createElement("option");
    option.value = benchmark.name;
    option.textContent = `${benchmark.title} (${benchmark.official_scorer})`;
    select.append(option);
  }
}

async function loadExamples() {
  const response = await fetch(new URL("examples.json", document.baseURI));
  if (!response.ok) throw new Error(`could not fetch examples.json: HTTP ${response.status}`);
  examples = (await response.json()).examples;
  const select = $("#example");
  for (const example of examples) {
    const option = document.createElement("option");
    option.value = example.key;
    option.textContent = example.title;
    select.append(option);
  }
  select.addEventListener("change", () => {
    const example = examples.find((e) => e.key === select.value);
    if (!example) return;
    $("#compare").hidden = true;
    loadIntoStepView({
      program: example.program,
      table: example.table,
      note: `${example.note} Source: FinQA ${example.source}: “${example.question}”`,
    });
  });
}

// -- answer mode: how a pasted completion was read -----------------------------------------

let answerOptions = null; // {protocols, formats}: finscore.answers' own lists, from Python

function applyMode() {
  const mode = checked("mode");
  $("#step-view").hidden = mode !== "program";
  $("#answer-view").hidden = mode !== "answer";
  document.body.dataset.mode = mode;
}

function answerRequest() {
  return {
    completion: $("#completion").value,
    protocol: $("#answer-protocol").value,
    format: $("#answer-format").value,
    gold_answer: $("#gold-answer").value,
    gold_program: $("#gold-program").value,
    gold_question: $("#gold-question").value,
    gold_scale: $("#gold-scale").value,
    gold_answer_type: $("#gold-answer-type").value,
  };
}

function chosenProtocol() {
  return answerOptions?.protocols.find((p) => p.name === $("#answer-protocol").value) ?? null;
}

/** The gold fields the chosen protocol's gold reader reads, and the chosen format's declared rule. */
function showAnswerFields() {
  const protocol = chosenProtocol();
  const tatqa = protocol ? protocol.gold_reader === "tatqa_answer" : $("#answer-protocol").value.startsWith("tatqa");
  for (const node of document.querySelectorAll("[data-gold=tatqa]")) node.hidden = !tatqa;
  const financemath = protocol?.gold_reader === "financemath_ground_truth"; // no program: the question's words decide
  for (const node of document.querySelectorAll("[data-gold=program]")) node.hidden = tatqa || financemath;
  const rule = protocol?.formats[$("#answer-format").value];
  $("#answer-format-rule").textContent = rule ? `${$("#answer-format").value}: ${rule}` : "";
}

function fillSelect(select, names) {
  const wanted = select.value;
  select.replaceChildren(...names.map((name) => el("option", { value: name, text: name })));
  if (names.includes(wanted)) select.value = wanted;
}

function applyAnswerOptions(options) {
  answerOptions = options;
  fillSelect($("#answer-protocol"), options.protocols.map((p) => p.name));
  fillSelect($("#answer-format"), options.formats);
  showAnswerFields();
}

/** The protocols (finscore.answers.protocol_names()) and formats (FORMATS): from answers.json, which
 * is written from Python's own lists, as soon as it is fetched; from Python only if it could not be. */
async function loadAnswerOptions() {
  try {
    answerData = await loadAnswerData(new URL("answers.json", document.baseURI));
    applyAnswerOptions(answerOptionsOf(answerData));
    answerChoicesSettled = true;
    answerChoices.resolve();
    return;
  } catch (error) {
    showError($("#answer-error"), `${error.message}; the answer view waits for Python's lists`);
    answerListsFromPython = true;
    if (busyCount && document.body.dataset.busy === "answer") { // a reading already waits for the lists
      markQueued("answer", true);
      waitFor("answer", ": the answer is read as soon as Python is ready.");
    }
  }
  try {
    const options = await (await ensurePython()).call("answer_options");
    if (!options.ok) showError($("#answer-error"), options.error);
    else applyAnswerOptions(options);
  } catch (error) {
    showError($("#answer-error"), String(error));
  } finally {
    answerChoicesSettled = true; // a queued answer never waits for lists that will not come
    answerChoices.resolve();
  }
}

let answerNumber = 0; // a newer reading supersedes an older one still waiting for Python
let answerChoicesSettled = false; // loadAnswerOptions has ended (with the lists or with an error shown)
let answerListsFromPython = false; // answers.json could not be read: the lists, and every reading, wait for Python

function decideFromForm(event) {
  if (event) event.preventDefault();
  clearTimeout(answerTimer); // as runFromForm: a pending live decision would only decide this input again
  const number = ++answerNumber;
  return busy("answer", async () => {
    if (!answerChoicesSettled) {
      // the protocol and format lists come from answers.json (or, if it could not be read, from
      // Python): the form is read once they are there; the decision on show answers another
      // input, so it is hidden until this one's comes
      $("#answer-outcome").hidden = true;
      if (answerListsFromPython) {
        markQueued("answer", true);
        waitFor("answer", ": the answer is read as soon as Python is ready.");
      } else {
        showStatus("#answer-status", "Loading the answer protocols…");
      }
    }
    let request, answer = null;
    try {
      await answerChoices.promise;
      const loaded = await core.promise; // compiled at page load: the core decides what it can first
      if (number !== answerNumber) return null; // superseded while it waited
      request = answerRequest();
      const quick = answerData ? quickDecide(loaded, request, answerData) : { wait: "no answers.json" };
      answer = quick.answer ?? null;
      if (answer === null) {
        // the decision on show answers another input: hidden at once, until Python decides this one
        $("#answer-outcome").hidden = true;
        const why = reasonText(quick.wait);
        if (!pythonNow) {
          markQueued("answer", true);
          waitFor("answer", `to read this answer (${why}); it is decided as soon as Python is ready.`);
        } else {
          waitFor("answer", null);
          showStatus("#answer-status", `Python is reading this answer (${why})…`);
        }
        answer = await decideAnswer(request);
        if (number === answerNumber) answer.path = "python";
      }
    } catch (failure) {
      if (number !== answerNumber) return null;
      return failedCall("answer", "#answer-status", $("#answer-error"), $("#answer-outcome"), failure);
    }
    if (number !== answerNumber) return answer; // superseded while it waited
    markQueued("answer", false);
    waitFor("answer", null);
    delete $("#answer-outcome").dataset.stale;
    $("#answer-view").dataset.request = JSON.stringify(request); // what is shown answers this (for tests)
    showStatus("#answer-status", "");
    if (!answer.ok) {
      $("#answer-outcome").hidden = true;
      showError($("#answer-error"), answer.error);
    } else {
      showError($("#answer-error"), "");
      renderAnswer(answer);
    }
    saveState();
    return answer;
  });
}

/**
 * The answer form changed: the decision on show is the previous input's. It is marked stale at once
 * until the new one's comes, and hidden at once when the new input waits for Python.
 */
function markAnswerStale() {
  const outcome = $("#answer-outcome");
  outcome.dataset.stale = "true";
  if (!coreNow || !answerData || quickDecide(coreNow, answerRequest(), answerData).answer === undefined) {
    outcome.hidden = true;
  }
}

async function decideAnswer(request) {
  const ready = await ensurePython();
  return ready.call("decide_answer", JSON.stringify(request));
}

function fieldText(value) {
  if (value === null) return "none";
  if (Array.isArray(value)) return `characters ${value[0]} to ${value[1]} (counted from 0, the end excluded)`;
  return String(value);
}

const MARK_CLASSES = { number: "number", answer: "located", marker: "marker" };

/** One place of the reading (a {start, end, text} or null) as the view writes it. */
function readingPart(part, className) {
  return [el("mark", { className, text: part.text }),
    ` (characters ${part.start} to ${part.end}, counted from 0, the end excluded)`];
}

/**
 * How the format read the completion, shown above its marked text: the marker it found (null for
 * json, whole and last-number, which have none) and the span it read ({start, end, text} each,
 * offsets in characters), and the lenient label of a lenient format. The answer view calls it with
 * {format, marker, span, lenient}, whoever decided (Python today).
 */
function showReading({ format, marker, span, lenient }) {
  const line = $("#answer-reading");
  line.dataset.marker = JSON.stringify(marker);
  line.dataset.span = JSON.stringify(span);
  const found = marker
    ? ["Marker found: ", ...readingPart(marker, "marker")]
    : [`No marker: the ${format} format has none${lenient ? ` (${lenient})` : ""}`];
  const read = span ? ["; answer read: ", ...readingPart(span, "located")] : ["; no answer read"];
  line.replaceChildren(...found, ...read, ".");
}

/** The decision, the completion with what was located and read marked, and every field as Python wrote it. */
function renderAnswer(answer) {
  const decision = answer.decision;
  const outcome = $("#answer-outcome");
  outcome.dataset.passed = String(decision.passed);
  outcome.dataset.path = answer.path ?? "python";
  $("#answer-path").textContent = answer.path === "core"
    ? "Decided by the WebAssembly core in this page (the JavaScript binding), without Python."
    : "Decided by finscore in Python (Pyodide).";
  outcome.dataset.reason = decision.reason;
  $("#answer-decision").replaceChildren(
    el("span", { className: `verdict ${decision.passed ? "valid" : "invalid"}`, text: decision.passed ? "Pass" : "Miss" }),
    ": ", el("code", { className: "reason", text: decision.reason }),
    decision.k === null ? "" : ` (k = ${decision.k})`,
    ` under ${answer.protocol}, format ${answer.format}`);
  $("#answer-detail").textContent = decision.detail;
  showReading(answer.reading);
  $("#answer-marked").replaceChildren(...answer.parts.map(([text, role]) =>
    role ? el("mark", { className: MARK_CLASSES[role], "data-role": role }, text) : text));
  const gold = answer.gold_read;
  const located = answer.located;
  const rows = [
    ...Object.entries(decision).map(([name, value]) => [name, value, `decision.${name}`]),
    ["tolerance", answer.tolerance, "the protocol's tolerance"],
    ["located", located ? located.text : `none: ${answer.not_located.reason} (${answer.not_located.detail})`,
      "the answer the format found"],
    ["located span", located ? [located.start, located.end] : null, "where the format found it"],
    ["located verbatim", located ? located.verbatim : null, "the located text is the completion's own (not decoded)"],
    ["gold value", gold.yes_no ?? gold.value, "the gold as the protocol reads it (in the compared unit)"],
    ["gold in points", gold.points, "a % in the answer is a label, not a division by 100"],
    ["gold a percentage", gold.percentage, "for telling percent_vs_ratio from scale_off"],
    ["gold half unit", gold.half_unit, "half a unit of the last place the gold shows"],
    ["gold scale", gold.scale, "the power of ten of the gold's scale"],
  ];
  $("#answer-fields tbody").replaceChildren(...rows.map(([name, value, title]) =>
    el("tr", { "data-field": name },
      el("th", { scope: "row", text: name, title }),
      el("td", { "data-json": JSON.stringify(value), text: fieldText(value) }))));
  outcome.hidden = false;
}

// -- the file scorer --------------------------------------------------------------------

const files = { predictions: null, gold: null };
let filesChosen = 0; // counts file choices: a score of files since replaced is never shown

function acceptFile(kind, file) {
  files[kind] = file || null;
  filesChosen += 1;
  if (file) ensurePython(); // scoring a file is Python's: its loading starts as soon as one is chosen
  const zone = document.querySelector(`[data-drop="${kind}"]`);
  zone.querySelector(".drop-hint").textContent = file ? `Chosen: ${file.name}` : "…or drop it here.";
}

function wireDropZones() {
  for (const zone of document.querySelectorAll("[data-drop]")) {
    const kind = zone.dataset.drop;
    const input = zone.querySelector("input[type=file]");
    input.addEventListener("change", () => acceptFile(kind, input.files[0]));
    zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("over");
      if (event.dataTransfer.files.length) acceptFile(kind, event.dataTransfer.files[0]);
    });
  }
}

/** Score two files' bytes (Uint8Arrays) in Python; resolves to {ok, report, report_file, figure_texts, text, failing} or {ok: false, error}. */
async function scoreBytes(predictions, predictionsName, gold, goldName, options = {}) {
  const ready = await ensureScorer();
  return ready.call("score_files", predictions, predictionsName, gold, goldName, JSON.stringify(options));
}

async function fileBytes(file) {
  return new Uint8Array(await file.arrayBuffer());
}

function scoreFromForm(event) {
  event.preventDefault();
  return busy("score", () => scoreFiles());
}

async function scoreFiles() {
  const error = $("#score-error");
  if (!files.predictions || !files.gold) {
    showError(error, "Choose both a prediction file and a gold file.");
    return null;
  }
  showError(error, "");
  const button = $("#score");
  enable(button, false, "Scoring…");
  const chosen = filesChosen;
  try {
    const options = { benchmark: $("#score-benchmark").value, profile: checked("profile"), python: checked("python"),
      exclude_bad_ids: $("#exclude-bad-ids").checked };
    $("#score-status").hidden = false;
    const predictions = await fileBytes(files.predictions), gold = await fileBytes(files.gold);
    if (!scorerNow) {
      // the report on show is of other files (or none): hidden while Python loads for these
      $("#report").hidden = true;
      markQueued("score", true);
      waitingScore.text = "to score these files; they are scored as soon as it is ready.";
      refreshWaiting();
    }
    let answer;
    try {
      answer = await scoreBytes(predictions, files.predictions.name, gold, files.gold.name, options);
    } finally {
      markQueued("score", false);
      waitingScore.text = null;
    }
    if (chosen !== filesChosen) {
      $("#report").hidden = true;
      showError(error, "Other files were chosen while these were scored: press Score to score them.");
      return { ok: false, error: "superseded" };
    }
    if (!answer.ok) {
      $("#report").hidden = true;
      showError(error, answer.error);
      return answer;
    }
    goldExamples = answer.benchmark === "finqa" ? await goldById(files.gold) : new Map();
    renderReport($("#report"), answer, {
      predictions: files.predictions.name,
      gold: files.gold.name,
      round4: (x) => {
        const rounded = coreNow.roundHalfEven(x, 4);
        return rounded.ok ? pythonFloatRepr(rounded.value) : null;
      },
      open: (example) => {
        $("#example").value = "";
        loadIntoStepView(example);
        $("#step-view").focus();
        busy("compare", () => showComparison(example, goldExamples));
      },
    });
    return answer;
  } catch (failure) {
    // (its status line is hidden below; the failure may be reading a file as well as Python's)
    return failedCall("score", null, error, $("#report"), failure, "The files could not be scored");
  } finally {
    $("#score-status").hidden = true;
    enable(button, true, "Score");
  }
}

// -- theme and header ---------------------------------------------------------------------

/** Light, dark, or the system's (the default); kept in this browser's localStorage only. */
function applyTheme(choice) {
  if (choice === "light" || choice === "dark") document.documentElement.dataset.theme = choice;
  else delete document.documentElement.dataset.theme;
}

function wireTheme() {
  const select = $("#theme");
  let saved = "system";
  try { saved = localStorage.getItem("finscore-theme") || "system"; } catch { /* storage refused: system */ }
  select.value = ["light", "dark"].includes(saved) ? saved : "system";
  applyTheme(select.value);
  select.addEventListener("change", () => {
    applyTheme(select.value);
    try { localStorage.setItem("finscore-theme", select.value); } catch { /* storage refused: this visit only */ }
  });
}

/** The header's version line; a manifest that cannot be read says so there rather than nothing. */
async function showVersion() {
  const response = await fetch(new URL("manifest.json", document.baseURI));
  if (!response.ok) throw new Error(`manifest.json: HTTP ${response.status}`);
  const manifest = await response.json();
  const wheel = /finscore-([^-]+)-/.exec(manifest.finscore_wheel ?? "");
  $("#version").textContent = `finscore ${wheel ? wheel[1] : ""} · core ABI ${ABI_VERSION}`;
}

// -- gold beside prediction ------------------------------------------------------------------

let goldExamples = new Map();

/** The gold file's examples by id (for the question); an unreadable file gives none. */
async function goldById(file) {
  try {
    const data = JSON.parse(await file.text());
    return new Map((Array.isArray(data) ? data : []).filter((e) => e && typeof e === "object").map((e) => [e.id, e]));
  } catch {
    return new Map();
  }
}

/** One program's answer: from the core when it decides, else from Python (ready: the file was scored). */
async function answerFor(program, table) {
  const request = { program, table: table ? JSON.stringify(table) : "", table_format: "json",
    profile: checked("profile"), python: checked("python") };
  const quick = coreNow ? quickRun(coreNow, request) : { wait: "core" };
  return quick.answer ?? runProgram(request);
}

/** The first step where the two differ (op, arguments' values or value), or null when they agree. */
function firstDivergence(gold, predicted) {
  const a = gold.ok ? gold.execution.steps : [];
  const b = predicted.ok ? predicted.execution.steps : [];
  const same = (x, y) => x.op === y.op && x.value_type === y.value_type && x.value_text === y.value_text;
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!same(a[i], b[i])) return i;
  if (a.length !== b.length) return Math.min(a.length, b.length);
  const outcome = (x) => (x.ok ? `${x.execution.invalid}:${x.execution.result_text}` : "error");
  return outcome(gold) === outcome(predicted) ? null : Math.max(a.length - 1, 0);
}

function compareSide(side, program, answer, diverges) {
  const node = document.querySelector(`.compare-side[data-side="${side}"]`);
  node.querySelector(".compare-program").replaceChildren(el("code", { text: Array.isArray(program) ? JSON.stringify(program) : program }));
  const execution = answer.ok ? answer.execution : null;
  node.querySelector(".compare-answer").textContent = !execution ? answer.error
    : execution.invalid ? `Invalid: ${execution.status_name}` : `Answer ${execution.result_text}`;
  const rows = (execution ? execution.steps : []).map((step) => el("tr", {
    className: step.index === diverges ? "diverges" : null, "data-step": step.index,
  }, el("th", { scope: "row", text: `#${step.index}` }), el("td", { className: "op", text: step.op }),
  el("td", { className: "args", text: step.arguments_text.join(", ") }),
  el("td", { className: "value", text: step.value_type === "none" ? "refused" : step.value_text, title: step.hex || "" })));
  node.querySelector("tbody").replaceChildren(...rows);
}

async function showComparison(example, golds) {
  const panel = $("#compare");
  if (!example.compare) { panel.hidden = true; return; }
  const gold = golds.get(example.compare.id);
  const table = example.table && example.table.length ? example.table : null;
  const [goldAnswer, predictedAnswer] = await Promise.all([
    answerFor(example.compare.goldProgram, table), answerFor(JSON.stringify(example.program), table)]);
  const diverges = firstDivergence(goldAnswer, predictedAnswer);
  $("#compare-question").textContent = gold?.qa?.question ? `${example.compare.id}: “${gold.qa.question}”` : example.compare.id;
  $("#compare-divergence").textContent = diverges === null ? "The steps agree."
    : `The programs first diverge at step #${diverges}.`;
  panel.dataset.diverges = diverges === null ? "" : String(diverges);
  compareSide("gold", example.compare.goldProgram, goldAnswer, diverges);
  compareSide("prediction", example.program, predictedAnswer, diverges);
  panel.hidden = false;
}

// -- start ------------------------------------------------------------------------------

let liveTimer = null;
let answerTimer = null;

function wireForms() {
  $("#round-form").addEventListener("submit", roundWithCore);
  $("#program-form").addEventListener("submit", runFromForm);
  $("#score-form").addEventListener("submit", scoreFromForm);
  for (const id of ["#program", "#table"]) {
    $(id).addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        clearTimeout(liveTimer);
        runFromForm(); // before Python is ready, the run waits for it (queued)
      }
    });
  }
  // live: results follow typing and every option, after a short pause
  for (const node of document.querySelectorAll("#program, #table, #table-format, #program-form input[type=radio]")) {
    node.addEventListener(node.matches("textarea") ? "input" : "change", () => {
      refreshExampleNote();
      markStale();
      clearTimeout(liveTimer);
      liveTimer = setTimeout(() => { if (coreNow) runFromForm(); }, LIVE_DELAY_MS);
    });
  }
  // answer mode: the reading follows typing and every choice, after the same pause
  $("#answer-form").addEventListener("submit", decideFromForm);
  for (const node of document.querySelectorAll("#answer-form textarea, #answer-form input, #answer-form select")) {
    node.addEventListener(node.matches("select") ? "change" : "input", () => {
      showAnswerFields();
      markAnswerStale();
      clearTimeout(answerTimer);
      answerTimer = setTimeout(() => decideFromForm(), LIVE_DELAY_MS);
    });
  }
  for (const node of document.querySelectorAll('input[name="mode"]')) {
    node.addEventListener("change", () => {
      applyMode();
      if (checked("mode") === "answer") decideFromForm();
      else if (coreNow) runFromForm();
    });
  }
  wireDropZones();
  $("#copy-link").addEventListener("click", copyLink);
  window.addEventListener("hashchange", async () => {
    if (location.hash !== savedFragment && await restoreFromAddress()) runRestored();
  });
}

// The page's API, for the console and for tests: the same calls the forms make.
window.finscore = {
  core: core.promise,
  python: python.promise,
  scorer: scorer.promise,
  runProgram,
  runForm: () => runFromForm(),
  executeRows: async (rows, profile = "official") =>
    (await ensurePython()).call("execute_rows", JSON.stringify(rows), profile),
  scoreBytes,
  decideAnswer,
  answerRequest,
  answerOptions: async () => (await ensurePython()).call("answer_options"),
  roundHalfEven: async (x, places) => roundHalfEven(await core.promise, x, places),
  doubleHex,
  quickRows: async (rows) => quickRows(await core.promise, rows),
  quickRun: async (request) => quickRun(await core.promise, request).answer ?? null,
  quickDecide: async (request) => {
    await answerChoices.promise;
    return answerData ? quickDecide(await core.promise, request, answerData).answer ?? null : null;
  },
  pythonReady: () => pythonNow !== null,
  pythonStarted: () => pythonStarted, // has anything asked for Python (is Pyodide being fetched)?
  loadPython: () => { ensurePython(); return scorer.promise.then(() => true); }, // "Load Python now"; resolves when all of it is ready
  encodeState,
  decodeState,
  currentState,
  pythonFloatRepr,
  pythonStrRepr,
  pythonStrip,
  pythonReads: PYTHON_READS,
  tokenizeGoldProgram,
  firstAnswerMs: null, // when the first step view appeared, in ms since navigation start
};

wireTheme();
wireForms();
loadAnswerOptions();
wireCompare({ chosen: () => files, scorer: ensureScorer, failed: scorer.promise, busy });
$("#load-python").addEventListener("click", () => { ensurePython(); });
applyMode(); // a browser may restore the chosen mode's radio on reload
showVersion().catch((error) => {
  $("#version").textContent = `finscore (version unknown: ${error.message}) · core ABI ${ABI_VERSION}`;
});
const examplesLoaded = loadExamples();
const benchmarksLoaded = loadBenchmarks();
examplesLoaded.catch((error) => showError($("#program-error"), error.message));
benchmarksLoaded.catch((error) => showError($("#program-error"), error.message));
// the first step view: the first example, read and run by the core as soon as it is compiled
Promise.all([examplesLoaded, core.promise]).then(async () => {
  if (await restoreFromAddress()) {
    runRestored();
  } else if ($("#program").value.trim() === "" && examples.length) {
    $("#example").value = examples[0].key;
    $("#example").dispatchEvent(new Event("change"));
  }
}, () => {});

// Python is not loaded here: only what the core cannot decide starts it (ensurePython).
startCore().catch(() => {
  $("#load-python").hidden = true;
  setEngine($("#python-engine"), "failed", "Python: not started, since the WebAssembly core did not load");
  python.reject(new Error("the WebAssembly core did not load"));
  scorer.reject(new Error("the WebAssembly core did not load"));
});
