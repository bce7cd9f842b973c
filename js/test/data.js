// The recorded vectors and FinQA tables of the repository's tests/data, read with Node's zlib.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

export const REPOSITORY = new URL("../../", import.meta.url);
const DATA = new URL("tests/data/", REPOSITORY);

function gunzipText(relative) {
  const url = new URL(relative, DATA);
  return gunzipSync(readFileSync(url)).toString("utf-8");
}

/** Every row of tests/data/vectors/<name>.jsonl.gz. */
export function vectorRows(name) {
  return gunzipText(`vectors/${name}.jsonl.gz`).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

let tables = null;

/** Every FinQA table (train subset, dev, test) by example id. */
export function finqaTables() {
  if (tables === null) {
    tables = new Map();
    for (const split of ["train", "dev", "test"]) {
      for (const example of JSON.parse(gunzipText(`finqa/finqa_${split}.json.gz`))) tables.set(example.id, example.table);
    }
  }
  return tables;
}

/** [available, table] of a vector row: inline, by FinQA id, or null for no table. */
export function tableOf(row) {
  if ("table" in row) return [true, row.table];
  if (row.table_ref === null || row.table_ref === undefined) return [true, null];
  const all = finqaTables();
  return [all.has(row.table_ref), all.get(row.table_ref) ?? null];
}
