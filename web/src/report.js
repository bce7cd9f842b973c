// The file scorer's report: the JSON of `finscore finqa --json`, shown. Every figure and
// count is Python's; this file only lays them out (the chart's bar lengths are geometry).
import { el, svg } from "./dom.js";

const DENOMINATORS = {
  per_prediction: "per prediction (the official denominator)",
  per_gold_example: "per gold example (a missing prediction counts as a failure)",
};

/** "0.6152" as a percentage, "61.52": the decimal point moved two places, as text (no arithmetic). */
export function percentText(decimal) {
  const [whole, fraction = ""] = decimal.split(".");
  const padded = fraction.padEnd(2, "0");
  const integer = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, "");
  const rest = padded.slice(2).replace(/0+$/, "");
  return rest ? `${integer}.${rest}` : integer;
}

function figureCard(label, figure, text, unit, rounded) {
  // the card: rounded half-even to 4 places by the core, as a percentage; the exact figure under it
  // (and in the JSON report) as Python prints it
  const big = figure.value === null || rounded === null ? text : `${percentText(rounded)} %`;
  return el("div", { className: "figure" },
    el("span", { className: "label", text: label }),
    el("span", { className: "big", text: big, title: text }),
    el("span", { className: "exact", text: figure.value === null ? "" : `exact: ${text}` }),
    el("span", { className: "fraction", text: `${figure.correct} / ${figure.total} ${unit}` }));
}

function figures(report, texts, round4) {
  const own = report.figures[report.profile];
  const ownTexts = texts[report.profile];
  const cards = [];
  for (const [denominator, words] of Object.entries(DENOMINATORS)) {
    const unit = denominator === "per_prediction" ? "predictions" : "gold examples";
    for (const [metric, name] of [["execution_accuracy", "Execution accuracy"], ["program_accuracy", "Program accuracy"]]) {
      const figure = own[denominator][metric];
      cards.push(figureCard(`${name}, ${words}`, figure, ownTexts[denominator][metric], unit,
        figure.value === null ? null : round4(figure.value)));
    }
  }
  return el("div", { className: "figures", id: "report-figures" }, cards);
}

function countsLine(report) {
  const c = report.counts;
  return `${c.prediction_entries} prediction entries, ${c.scored_predictions} scored, ${c.excluded_entries} excluded; ` +
    `${c.gold_examples} gold examples, ${c.missing_predictions} without a prediction` +
    (c.excluded_predictions ? `, ${c.excluded_predictions} whose predictions were excluded` : "") + ".";
}

/** Failure categories as horizontal bars, in the report's order, with the counts written out. */
function categoryChart(categories) {
  const entries = Object.entries(categories);
  const most = Math.max(1, ...entries.map(([, count]) => count));
  const rowHeight = 24;
  const labelWidth = 150;
  const barSpace = 220;
  const width = labelWidth + barSpace + 50;
  const height = entries.length * rowHeight + 8;
  const summary = entries.map(([name, count]) => `${name}: ${count}`).join(", ");
  const rows = entries.map(([name, count], i) => {
    const y = 4 + i * rowHeight;
    const length = Math.max(1, Math.round((count / most) * barSpace));
    return svg("g", { "data-category": name },
      svg("text", { x: labelWidth - 8, y: y + 16, "text-anchor": "end", text: name }),
      svg("rect", { class: name === "correct" ? "bar correct" : "bar", x: labelWidth, y: y + 3, width: length, height: rowHeight - 8 }),
      svg("text", { x: labelWidth + length + 6, y: y + 16, class: "count", text: String(count) }));
  });
  return el("figure", { className: "chart" },
    svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "chart-title", id: "category-chart" },
      svg("title", { id: "chart-title", text: `Gold examples by category: ${summary}` }),
      rows),
    el("figcaption", { className: "hint", text: "Gold examples by category (one category each)." }));
}

function failingList(failing, open) {
  const items = failing.map((row) => el("li", {},
    el("button", {
      type: "button", className: "link", "data-id": row.id,
      onclick: () => open({
        program: row.predicted_tokens,
        table: row.table || [],
        note: `The prediction for ${row.id} (${row.category}); the gold program is ${row.gold_program}, ` +
          `with the answer ${row.gold_answer_text}.`,
        compare: { id: row.id, goldProgram: row.gold_program, category: row.category },
      }),
    }, row.id),
    ` — ${row.category}: ${row.outcome}`));
  return [
    el("h4", { text: `Failing predictions (${failing.length}); choose one to see it step by step` }),
    el("ul", { className: "failures", id: "failing-examples" }, items),
  ];
}

function officialStops(report) {
  if (!report.official_stops.length) return [];
  return [
    el("h4", { text: `Where the official evaluator would have crashed (${report.official_stops.length})` }),
    el("ul", {}, report.official_stops.map((stop) => el("li", {}, el("code", { text: stop.id }), `: ${stop.reason}`))),
  ];
}

let savedReportUrl = null;

/** A link that saves the JSON report from memory (a blob: URL; nothing is sent anywhere). */
function saveLink(reportFile) {
  if (savedReportUrl) URL.revokeObjectURL(savedReportUrl);
  savedReportUrl = URL.createObjectURL(new Blob([reportFile], { type: "application/json" }));
  return el("a", { href: savedReportUrl, download: "finscore-finqa-report.json", id: "save-report" },
    "Save the JSON report (as finscore finqa --json writes it)");
}

/** Render the answer of score_files into the report panel. */
export function renderReport(panel, answer, { predictions, gold, open, round4 }) {
  const report = answer.report;
  panel.replaceChildren(
    el("h3", { text: `Report: ${predictions} against ${gold}` }),
    el("p", {}, saveLink(answer.report_file)),
    el("p", { className: "hint", text: `Profile ${report.profile}, sum() of CPython ${report.python}; finscore ${report.finscore_version} under Python ${report.host_python}. ${countsLine(report)}` }),
    figures(report, answer.figure_texts, round4),
    categoryChart(report.categories),
    ...officialStops(report),
    ...failingList(answer.failing, open),
    el("details", {},
      el("summary", { text: "The report as the command line prints it" }),
      el("pre", { className: "text-report", id: "text-report", text: answer.text })),
  );
  panel.hidden = false;
}
