// The step view: shows an execution exactly as Python described it. Every value
// on screen is text that Python spelled (repr, float.hex); nothing is computed here.
import { el } from "./dom.js";

function stepRow(step, failedStep) {
  const refused = step.value_type === "none";
  const failing = refused || step.index === failedStep;
  const value = refused ? "refused" : step.value_text;
  return el("tr", { className: failing ? "failing" : null, "data-step": step.index },
    el("th", { scope: "row", text: `#${step.index}` }),
    el("td", { className: "op", text: step.op, "data-label": "op" }),
    el("td", { className: "args", "data-label": "arguments" },
      step.arguments_text.map((text, i) => el("span", { className: "arg" }, i ? ", " : "", text))),
    el("td", { className: "value", text: value, "data-type": step.value_type, "data-label": "value" }),
    el("td", { className: "hex", text: step.hex || "", "data-label": "hex" }));
}

function unreadRow(execution) {
  return el("tr", { className: "failing", "data-step": execution.failed_step },
    el("th", { scope: "row", text: `#${execution.failed_step}` }),
    el("td", { className: "op", text: "(not read)", "data-label": "op" }),
    el("td", { className: "args", text: execution.message, "data-label": "reason" }),
    el("td", { className: "value", text: "refused", "data-label": "value" }),
    el("td", { className: "hex", text: "", "data-label": "hex" }));
}

function answerLine(execution) {
  if (execution.invalid) {
    const where = execution.failed_step === null ? "" : ` at step #${execution.failed_step}`;
    return [
      el("span", { className: "verdict invalid", text: "Invalid" }),
      ` refused${where}: `,
      el("strong", { className: "status-name", text: execution.status_name }),
      ` (${execution.status} — ${execution.status_description})`,
    ];
  }
  const parts = [el("span", { className: "verdict valid", text: "Answer" }), " ",
    el("strong", { className: "result", text: execution.result_text })];
  if (execution.result_hex) parts.push(" ", el("code", { className: "result-hex", text: execution.result_hex }));
  return parts;
}

function detailLine(execution, answer) {
  const program = answer.program_kind === "tokens" ? "a JSON token list" : "a gold program string";
  const table = answer.table_format === "none"
    ? "no table"
    : `the table read as ${answer.table_format_text} (${answer.table_rows} rows)`;
  const unrounded = execution.invalid || execution.unrounded_text === null
    ? ""
    : ` The last step's unrounded value is ${execution.unrounded_text}; only the answer is rounded, to 5 places.`;
  const by = answer.path === "core"
    ? " Read and run by the WebAssembly core in this page (the JavaScript binding), without Python."
    : " Read and run by finscore in Python (Pyodide).";
  return `Profile ${execution.profile}, sum() of CPython ${execution.python}; the program read as ${program}, ${table}.${unrounded}${by}`;
}

function notes(execution) {
  const items = [];
  // the answer line already gives the status's name and meaning: a message saying no more is not repeated
  if (execution.invalid && execution.message && execution.message !== execution.status_name
      && execution.message !== execution.status_description) {
    items.push(el("li", { className: "refusal", text: execution.message }));
  }
  for (const quirk of execution.quirks) {
    const where = quirk.step === null ? "" : ` at #${quirk.step}`;
    items.push(el("li", {}, "quirk", where, ": ", el("strong", { text: quirk.status }), ` — ${quirk.message}`));
  }
  for (const index of execution.skipped_steps) {
    items.push(el("li", { text: `#${index} skipped: not one of the ten ops` }));
  }
  // the `note:` lines of `finscore exec` (text_input.program_notes): what was most likely meant
  for (const note of execution.notes ?? []) {
    items.push(el("li", { className: "note" }, el("strong", { text: "note" }), `: ${note}`));
  }
  return items;
}

/** Render one answer of run_program into the outcome panel. */
export function renderExecution(panel, answer) {
  const execution = answer.execution;
  panel.querySelector("#answer").replaceChildren(...answerLine(execution));
  panel.querySelector("#outcome-detail").textContent = detailLine(execution, answer);
  const rows = execution.steps.map((step) => stepRow(step, execution.failed_step));
  const shown = execution.steps.some((step) => step.index === execution.failed_step);
  if (execution.invalid && execution.failed_step !== null && !shown) rows.push(unreadRow(execution));
  if (rows.length === 0) {
    rows.push(el("tr", {}, el("td", { colspan: 5, text: "No step ran." })));
  }
  panel.querySelector("#steps tbody").replaceChildren(...rows);
  panel.querySelector("#notes").replaceChildren(...notes(execution));
  panel.dataset.invalid = String(execution.invalid);
  panel.dataset.path = answer.path ?? "python";
  panel.hidden = false;
}
