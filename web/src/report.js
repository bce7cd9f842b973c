// The file scorer's report: the JSON of `finscore finqa|convfinqa|tatqa --json`, shown. Every figure and
// count is Python's; this file only lays them out (the chart's bar lengths are geometry).
import { el, svg } from "./dom.js";

/** "0.6152" as a percentage, "61.52": the decimal point moved two places, as text (no arithmetic). */
export function percentText(decimal) {
  const [whole, fraction = ""] = decimal.split(".");
  const padded = fraction.padEnd(2, "0");
  const integer = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, "");
  const rest = padded.slice(2).replace(/0+$/, "");
  return rest ? `${integer}.${rest}` : integer;
}

function figureCard(card, rounded) {
  // the card: rounded half-even to 4 places by the core, as a percentage; the exact figure under it
  // (and in the JSON report) as Python prints it
  const big = card.value === null || rounded === null ? card.text : `${percentText(rounded)} %`;
  return el("div", { className: "figure" },
    el("span", { className: "label", text: card.label }),
    el("span", { className: "big", text: big, title: card.text }),
    el("span", { className: "exact", text: card.value === null ? "" : `exact: ${card.text}` }),
    el("span", { className: "fraction", text: card.fraction }));
}

/** The figure cards Python chose for this benchmark (their labels, reprs and fractions are Python's). */
function figures(cards, round4) {
  return el("div", { className: "figures", id: "report-figures" },
    cards.map((card) => figureCard(card, card.value === null ? null : round4(card.value))));
}

function countsLine(report) {
  const c = report.counts;
  if (c.gold_questions !== undefined) { // TAT-QA
    return `${c.prediction_entries} prediction entries, ${c.scored_predictions} scored, ${c.excluded_entries} excluded; ` +
      `${c.gold_questions} gold questions, ${c.missing_predictions} without a prediction.`;
  }
  return `${c.prediction_entries} prediction entries, ${c.scored_predictions} scored, ${c.excluded_entries} excluded; ` +
    `${c.gold_examples} gold examples, ${c.missing_predictions} without a prediction` +
    (c.excluded_predictions ? `, ${c.excluded_predictions} whose predictions were excluded` : "") + ".";
}

/** Failure categories (or TAT-QA's reasons) as horizontal bars, in the report's order, with the counts written out. */
function categoryChart(categories, what) {
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
      svg("title", { id: "chart-title", text: `${what}: ${summary}` }),
      rows),
    el("figcaption", { className: "hint", text: `${what} (one each).` }));
}

function failingList(failing, opens, what, open) {
  if (!opens) {
    return [
      el("h4", { text: `Failing ${what} (${failing.length})` }),
      el("ul", { className: "failures", id: "failing-examples" }, failing.map((row) =>
        el("li", { "data-id": row.id }, el("code", { text: row.id }), ` — ${row.category}: ${row.outcome}`))),
    ];
  }
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

/** Where the official script would stop: FinQA's and ConvFinQA's list, TAT-QA's one uid. */
function officialStops(report) {
  if (report.official_stop) {
    return [el("p", { className: "hint", id: "official-stop" }, "The official tatqa_eval.py would stop at ",
      el("code", { text: report.official_stop.uid }), ` (${report.official_stop.exception}) and print no figures.`)];
  }
  if (!report.official_stops?.length) return [];
  return [
    el("h4", { text: `Where the official evaluator would have crashed (${report.official_stops.length})` }),
    el("ul", {}, report.official_stops.map((stop) => el("li", {}, el("code", { text: stop.id }), `: ${stop.reason}`))),
  ];
}

let savedReportUrl = null;

/** A link that saves the JSON report from memory (a blob: URL; nothing is sent anywhere). */
function saveLink(reportFile, benchmark, command) {
  if (savedReportUrl) URL.revokeObjectURL(savedReportUrl);
  savedReportUrl = URL.createObjectURL(new Blob([reportFile], { type: "application/json" }));
  return el("a", { href: savedReportUrl, download: `finscore-${benchmark}-report.json`, id: "save-report" },
    `Save the JSON report (as ${command} --json writes it)`);
}

const CHART_TITLES = { finqa: "Gold examples by category", convfinqa: "Gold turns by category", tatqa: "Gold questions by reason" };
const FAILING = { finqa: "predictions", convfinqa: "turns", tatqa: "questions" };

function settingsLine(answer) {
  const report = answer.report;
  const host = `finscore ${report.finscore_version}${report.host_python ? ` under Python ${report.host_python}` : ""}.`;
  if (answer.benchmark === "tatqa") return `No profile or sum() rule applies; ${host} ${countsLine(report)}`;
  return `Profile ${report.profile}, sum() of CPython ${report.python}; ${host} ${countsLine(report)}`;
}

/** Render the answer of score_files into the report panel. */
export function renderReport(panel, answer, { predictions, gold, open, round4 }) {
  const report = answer.report;
  panel.dataset.benchmark = answer.benchmark;
  panel.replaceChildren(
    el("h3", { text: `Report: ${predictions} against ${gold}` }),
    el("p", { className: "protocol", id: "score-protocol", text: answer.protocol_text }),
    el("p", { className: "hint", id: "score-decided", text: answer.decided_text }),
    el("p", {}, saveLink(answer.report_file, answer.benchmark, answer.command)),
    el("p", { className: "hint", text: settingsLine(answer) }),
    figures(answer.cards, round4),
    categoryChart(answer.chart, CHART_TITLES[answer.benchmark]),
    ...officialStops(report),
    ...failingList(answer.failing, answer.failing_opens, FAILING[answer.benchmark], open),
    el("details", { open: answer.benchmark !== "finqa" },
      el("summary", { text: "The report as the command line prints it" }),
      el("pre", { className: "text-report", id: "text-report", text: answer.text })),
  );
  panel.hidden = false;
}
