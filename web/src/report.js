// The file scorer's report (placeholder until the scorer's JSON is wired).
import { el } from "./dom.js";

export function renderReport(panel, answer) {
  panel.replaceChildren(el("pre", { text: JSON.stringify(answer.report, null, 2) }));
  panel.hidden = false;
}
