// The file scorer's compare view: the chosen files under every applicable peer protocol, as
// `finscore protocols compare PREDICTIONS --benchmark B GOLD --json OUT --html PAGE` gives them.
// Every figure, count and reason is Python's; this file lays them out (bar lengths are geometry).
import { el, svg, showError } from "./dom.js";

/** The most disagreements listed on the page (the saved JSON and HTML hold them all). */
const LISTED = 50;

function percent(value) {
  return value === null ? "-" : `${(100 * value).toFixed(2)}%`;
}

function scoreChart(rows) {
  const rowHeight = 24;
  const labelWidth = 170;
  const barSpace = 260;
  const height = rows.length * rowHeight + 8;
  return el("figure", { className: "chart" },
    svg("svg", { role: "img", "aria-label": "scores by protocol", width: labelWidth + barSpace + 70, height },
      rows.map((row, i) => {
        const y = 4 + i * rowHeight;
        const length = row.score === null ? 0 : Math.round(row.score * barSpace);
        return svg("g", { "data-protocol": row.protocol },
          svg("text", { x: labelWidth - 8, y: y + 16, "text-anchor": "end", text: row.protocol }),
          svg("rect", { class: "bar", x: labelWidth, y: y + 3, width: Math.max(1, length), height: rowHeight - 8 }),
          svg("text", { x: labelWidth + length + 6, y: y + 16, class: "count", text: percent(row.score) }));
      })),
    el("figcaption", { text: "Score by protocol (accepted over every gold example)" }));
}

function table(headers, rows, id) {
  return el("table", { id },
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((cell) => el("td", {}, cell))))));
}

function saveLink(text, type, name, label, id) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  return el("a", { href: url, download: name, text: label, id });
}

/** The compare view of one answer of compare_files. */
export function renderCompare(node, answer) {
  const report = answer.report;
  const rows = report.protocols;
  const reasons = Object.entries(report.disagreement_reasons).filter(([, count]) => count > 0);
  const notes = [
    ...(report.unavailable.length ? [`not in this installation: ${report.unavailable.join(", ")}`] : []),
    ...Object.entries(report.not_applicable).map(([id, why]) => `not applicable: ${id}: ${why}`),
    ...(report.unknown_ids.length ? [`${report.unknown_ids.length} completion(s) for ids no gold example has, not scored`] : []),
  ];
  const listed = report.disagreements.slice(0, LISTED);
  node.replaceChildren(
    el("h3", { text: `Side by side: ${report.benchmark}` }),
    el("p", { text: `${report.completions} completions for ${report.examples} gold examples, as ` +
      `finscore protocols compare --benchmark ${answer.benchmark} gives them.` }),
    table(["protocol", "score", "accepted", "denominator", "as published", "raises", "not decided",
      "peer_executes_code", "missing"], rows.map((row) => [
      row.protocol, percent(row.score), String(row.accepted), String(row.denominator),
      `${percent(row.published_score)} of ${row.published_denominator}`, String(row.raises), String(row.not_decided),
      String(row.peer_executes_code) + (row.reproducible ? "" : ` (${row.undecided_code} undecided: not reproducible without running model text)`),
      String(row.missing)]), "protocols-table"),
    scoreChart(rows),
    el("ul", { className: "hint" }, rows.map((row) => el("li", {}, el("code", { text: row.signature })))),
    notes.map((note) => el("p", { className: "hint", text: note })),
    el("h4", { text: `${report.disagreements.length} example(s) where the protocols disagree` }),
    reasons.length ? el("p", { id: "protocols-reasons", text: reasons.map(([r, n]) => `${r} ${n}`).join(", ") }) : null,
    table(["id", "accepted by", "why", "each protocol's reason"], listed.map((item) => [
      item.id, item.accepted_by.join(", ") || "none",
      item.why.map((pair) => `${pair.reason}: ${pair.accepted_by.join(", ") || "-"} vs ${pair.not_accepted_by.join(", ")}`).join("; "),
      Object.entries(item.reasons).map(([id, reason]) => `${id}: ${reason}`).join("; ")]), "protocols-disagreements"),
    listed.length < report.disagreements.length
      ? el("p", { className: "hint", text: `First ${listed.length} listed; the saved page and JSON hold all of them.` }) : null,
    el("p", {}, saveLink(answer.html, "text/html", "compare.html", "Save the offline HTML page", "protocols-save-html"), " · ",
      saveLink(answer.report_file, "application/json", "compare.json", "Save the JSON report",
        "protocols-save-json")));
  node.hidden = false;
}

/**
 * Add the "Compare protocols" button to the file scorer. `chosen()` gives the chosen files
 * ({predictions, gold}), `scorer()` starts loading Python if it is not and resolves to the worker
 * once the file scorer is loaded, `failed` rejects if it cannot load, `busy(what, work)` marks the
 * page busy meanwhile.
 */
export function wireCompare({ chosen, scorer, failed, busy }) {
  const button = el("button", { id: "compare-protocols", type: "button", text: "Compare protocols" });
  const error = el("p", { id: "protocols-error", className: "error", role: "alert", hidden: true });
  const view = el("div", { id: "protocols-view", className: "panel", "aria-live": "polite", hidden: true });
  document.querySelector("#score").after(" ", button);
  document.querySelector("#report").after(error, view);
  failed.catch(() => {
    button.disabled = true;
    button.textContent = "Compare protocols (Python failed to load)";
  });
  button.addEventListener("click", () => busy("compare-protocols", async () => {
    const files = { ...chosen() }; // these files, as chosen now
    if (!files.predictions || !files.gold) {
      showError(error, "Choose both a completions (or prediction) file and a gold file.");
      return null;
    }
    showError(error, "");
    button.disabled = true;
    button.textContent = "Comparing…";
    view.hidden = true; // the view on show compared other files (or none): never shown for these
    try {
      const bytes = async (file) => new Uint8Array(await file.arrayBuffer());
      const ready = await scorer(); // Python's: loaded now if nothing loaded it before
      if (files.predictions !== chosen().predictions || files.gold !== chosen().gold) {
        throw new Error("other files were chosen while Python loaded: press Compare protocols again");
      }
      const answer = await ready.call("compare_files", await bytes(files.predictions), files.predictions.name,
        await bytes(files.gold), files.gold.name, JSON.stringify({ benchmark: "auto" }));
      if (!answer.ok) {
        view.hidden = true;
        showError(error, answer.error);
      } else {
        renderCompare(view, answer);
      }
      return answer;
    } catch (failure) {
      view.hidden = true;
      showError(error, `The files could not be compared: ${failure.message}`);
      return null;
    } finally {
      button.disabled = false;
      button.textContent = "Compare protocols";
    }
  }));
}
