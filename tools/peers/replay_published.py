"""Replay the peers' published figures from their stored outputs; write benchmarks/peers_replay.{json,md}.

Run by hand from local mirrors (bare git directories; nothing of them is copied into finscore):

    python tools/peers/replay_published.py financemath=/path/FinanceMath.git \
        financereasoning=/path/FinanceReasoning.git finmmr=/path/FinMMR.git

For every stored chain-of-thought output file the snapshot holds, finscore's protocol functions
(`financemath.score_cot_items`, `financereasoning.score_cot_records`, `get_acc`) recompute the file's
figure from its stored extracted answers (the peers' LLM extraction step is not re-run), and the
figure is set beside the published one: FinanceMath's `outputs/results/validation_cot*_results.json`;
for FinanceReasoning and FinMMR, which publish no per-model table in their repositories, the figure
their `get_statistics` prints from the per-item `acc` the file stores. The honest figure divides the
accepted answers by every question of the split (the peer's data file), counts the questions a file
lacks or repeats, and names the answers whose decision needs the model's text run
(`peer_executes_code`: the figure is then not reproducible without running it). Files of the
snapshot that are absent (large blobs) and figures that cannot be replayed (program-of-thought runs
execute the model's code; test splits have no public gold) are listed. Writes the JSON record (read
by tests/protocols/test_replays.py) and the Markdown tables rendered from it between the page's two
marks; `--render` writes the page again from the record (after an edit of its prose).
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "python"))

from finscore.protocols import financemath, financereasoning  # noqa: E402
from finscore.protocols.arith import PeerExecutesCode, PeerRaised  # noqa: E402

JSON_OUT = REPOSITORY / "benchmarks" / "peers_replay.json"
MD_OUT = REPOSITORY / "benchmarks" / "peers_replay.md"
#: The reasons of an accepted answer that are plain agreement; any other accepted reason is a lenient rule.
PLAIN = ("exact", "within_relative_tolerance")
#: The bound on the files one mirror may list (the largest snapshot holds a few hundred).
MAX_FILES = 2_000


def _git(mirror: str, *args: str, stdin: str | None = None) -> str:
    return subprocess.run(["git", "-C", mirror, *args], input=stdin, capture_output=True, text=True,
                          check=True).stdout


def _show(mirror: str, path: str) -> Any:
    return json.loads(_git(mirror, "show", f"HEAD:{path}"))


def _files(mirror: str, under: str) -> list[str]:
    listed = _git(mirror, "ls-tree", "-r", "--name-only", "HEAD", under).split("\n")
    files = [path for path in listed if path]
    if len(files) > MAX_FILES:
        raise SystemExit(f"{mirror}: {len(files)} files under {under}, over the bound {MAX_FILES}")
    return files


def _present(mirror: str, paths: Sequence[str]) -> set[str]:
    """The paths whose blob the snapshot holds (large blobs may be listed but absent)."""
    answer = _git(mirror, "cat-file", "--batch-check", stdin="".join(f"HEAD:{p}\n" for p in paths))
    return {path for path, line in zip(paths, answer.splitlines()) if not line.endswith(" missing")}


def _accepted(decide: Callable[[object, object], tuple[int, str, object]], pairs: Sequence[tuple[object, object]]
              ) -> tuple[int, dict[str, int], int, int]:
    """The answers accepted; how many of them each rule other than plain agreement accepted; the
    answers the peer evaluates as code (names, calls: decided by finscore without running them)
    and how many of those it accepts. Answers the peer stops on or whose decision needs the text
    run are not accepted (and counted as `undecided` by the figure)."""
    accepted = code = code_accepted = 0
    counts: dict[str, int] = {}
    for answer, gt in pairs:
        try:
            acc, reason, _ = decide(answer, gt)
        except (PeerExecutesCode, PeerRaised):
            continue
        accepted += acc
        if reason == "peer_executes_code":
            code += 1
            code_accepted += acc
        elif acc and reason not in PLAIN:
            counts[reason] = counts.get(reason, 0) + 1
    return accepted, dict(sorted(counts.items())), code, code_accepted


def _coverage(question_ids: Sequence[str], split: set[str]) -> tuple[int, int, int]:
    """(questions of the split the file lacks, ids it repeats, ids outside the split)."""
    seen = set(question_ids)
    return len(split - seen), len(question_ids) - len(seen), len(seen - split)


def _honest(accepted: int, undecided: int, split_size: int) -> float | None:
    """Accepted over the split's questions (answers accepted only by running code are not counted);
    None where some decision needs the text run."""
    return None if undecided else round(accepted / split_size * 100, 2)


def replay_financemath(mirror: str) -> dict[str, Any]:
    data = _show(mirror, "data/validation.json")
    gold = {example["question_id"]: example["ground_truth"] for example in data}
    split = set(gold)
    rows: list[dict[str, Any]] = []
    folders = (("processed_cot_outputs", "validation_cot_results.json"),
               ("math_expression_extracted_cot_outputs", "validation_cot_math_expression_results.json"))
    unreplayed: list[dict[str, Any]] = []
    for folder, results in folders:
        published = {row["model_name"]: row for row in _show(mirror, f"outputs/results/{results}")}
        paths = _files(mirror, f"outputs/validation/{folder}/")
        names = set()
        for path in paths:
            items = _show(mirror, path)
            name = path.rsplit("/", 1)[1].rsplit(".", 1)[0]
            names.add(name)
            figure = financemath.score_cot_items(items, gold)
            pairs = [(item["extracted_pred_answer"], float(gold[item["question_id"]])) for item in items
                     if "none" not in item["extracted_pred_answer"].lower()]
            accepted, lenient, code, code_accepted = _accepted(financemath.get_acc, pairs)
            missing, repeated, outside = _coverage([item["question_id"] for item in items], split)
            row = published.get(name)
            rows.append({
                "table": folder, "model": name, "file": path, "items": len(items), "split_size": len(split),
                "published": None if row is None else row["accuracy"],
                "published_topics": None if row is None else row.get("topic_accuracy"),
                "recomputed": figure["accuracy"], "recomputed_topics": figure["topic_accuracy"],
                "execution_rate": figure["execution_rate"],
                "accepted": accepted, "undecided": figure["undecided"], "stopped": figure["stopped"],
                "missing": missing, "repeated": repeated, "outside_split": outside,
                "none_answers": len(items) - len(pairs),
                "code": code, "code_accepted": code_accepted,
                "honest": _honest(accepted - code_accepted, figure["undecided"], len(split)), "lenient": lenient})
        for name in sorted(set(published) - names):
            unreplayed.append({"table": results, "model": name, "published": published[name]["accuracy"],
                               "why": f"published in {results}, no stored file in outputs/validation/{folder}/"})
    for results, why in (
            ("validation_pot_results.json", "program of thought: the peer exec()s the model's Python program; "
                                            "every item is peer_executes_code"),
            ("test_cot_results.json", "test split: its gold is not public (outputs/test/ holds raw outputs only)"),
            ("test_pot_results.json", "test split, program of thought: no public gold, and the peer runs the code")):
        count = len(_show(mirror, f"outputs/results/{results}"))
        unreplayed.append({"table": results, "model": f"{count} models", "published": None, "why": why})
    return {"rows": rows, "absent": [], "unreplayed": unreplayed}


def _split_of(path: str) -> str:
    """`results/.../<split>/<cot|pot>/<model>/evaluation.json` -> the split's folder name."""
    return path.split("/")[-4]


def replay_reasoning(peer: str, mirror: str, results_root: str,
                     split_files: Mapping[str, str]) -> dict[str, Any]:
    paths = [path for path in _files(mirror, results_root) if path.endswith("/evaluation.json")]
    present = _present(mirror, paths)
    splits: dict[str, dict[str, Any]] = {}
    rows: list[dict[str, Any]] = []
    absent: list[str] = []
    unreplayed: list[dict[str, Any]] = []
    for path in paths:
        if path not in present:
            absent.append(path)
            continue
        mode = path.split("/")[-3]
        model = path.split("/")[-2]
        split_name = _split_of(path)
        if mode != "cot":
            unreplayed.append({"table": f"{split_name}/{mode}", "model": model, "published": None,
                               "why": "program of thought: the peer exec()s the model's Python program"})
            continue
        records = _show(mirror, path)
        if any("ground_truth" not in record for record in records):
            unreplayed.append({"table": f"{split_name}/{mode}", "model": model, "published": None,
                               "why": "test split: the file holds no ground_truth"})
            continue
        if split_name not in splits:
            data = _show(mirror, split_files[split_name])
            splits[split_name] = {example["question_id"]: example["ground_truth"] for example in data}
        split = splits[split_name]
        figure = financereasoning.score_cot_records(records)
        stored = round(sum(record["result"]["acc"] for record in records) / len(records) * 100, 2)
        answers = [(record["result"]["extracted_answer"], record["ground_truth"]) for record in records]
        pairs = [(a, g) for a, g in answers if a and "none" not in a.lower()]
        accepted, lenient, code, code_accepted = _accepted(financereasoning.get_acc, pairs)
        missing, repeated, outside = _coverage([record["question_id"] for record in records], set(split))
        gold_differs = sum(1 for record in records
                           if record["question_id"] in split and split[record["question_id"]] != record["ground_truth"])
        rows.append({
            "table": split_name, "model": model, "file": path, "items": len(records), "split_size": len(split),
            "published": stored, "recomputed": figure["avg_accuracy"], "execution_rate": figure["avg_execution_rate"],
            "accepted": accepted, "undecided": figure["undecided"], "stopped": figure["stopped"],
            "missing": missing, "repeated": repeated, "outside_split": outside, "gold_differs": gold_differs,
            "none_answers": len(answers) - len(pairs),
            "code": code, "code_accepted": code_accepted,
                "honest": _honest(accepted - code_accepted, figure["undecided"], len(split)), "lenient": lenient})
    return {"rows": rows, "absent": sorted(absent), "unreplayed": unreplayed}


def _commit(mirror: str) -> str:
    return _git(mirror, "rev-parse", "HEAD").strip()


def _finscore_commit() -> str:
    return subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()


def replay(mirrors: Mapping[str, str]) -> dict[str, Any]:
    peers: dict[str, Any] = {}
    if "financemath" in mirrors:
        peers["financemath"] = replay_financemath(mirrors["financemath"])
    if "financereasoning" in mirrors:
        peers["financereasoning"] = replay_reasoning(
            "financereasoning", mirrors["financereasoning"], "results/FinanceReasoning/",
            {level: f"data/FinanceReasoning/{level}.json" for level in ("easy", "medium", "hard")})
    if "finmmr" in mirrors:
        peers["finmmr"] = replay_reasoning(
            "finmmr", mirrors["finmmr"], "results/evaluate-results/FinMMR/",
            {f"{level}-validation": f"data/validation/{level}_validation.json" for level in ("easy", "medium", "hard")})
    for peer, mirror in mirrors.items():
        peers[peer]["commit"] = _commit(mirror)
    return {"finscore_commit": _finscore_commit(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "peers": peers}


def _figure(value: float | None) -> str:
    return "not reproducible" if value is None else f"{value:.2f}"


def _difference(row: Mapping[str, Any]) -> str:
    if row["published"] is None:
        return "no published figure"
    if row["recomputed"] is None:
        return "peer_executes_code: not decided"
    delta = round(row["recomputed"] - row["published"], 2)
    topics = row.get("published_topics")
    if delta == 0 and (topics is None or topics == row.get("recomputed_topics")):
        return "0" + (" (per topic too)" if topics is not None else "")
    return f"{delta:+.2f}"


def _honest_note(row: Mapping[str, Any]) -> str:
    notes = []
    for key, words in (("missing", "questions missing"), ("repeated", "repeated"),
                       ("outside_split", "outside the split"),
                       ("undecided", "left undecided (the text would have to run)"),
                       ("gold_differs", "file gold differs from the data")):
        if row.get(key):
            notes.append(f"{row[key]} {words}")
    if row["code"]:
        notes.append(f"{row['code']} peer_executes_code (the peer eval()s them as code; decided without running "
                     f"them: {row['code_accepted']} accepted)")
    if row["none_answers"]:
        notes.append(f"{row['none_answers']} no answer (0, kept in the denominator)")
    lenient = ", ".join(f"{reason} {count}" for reason, count in row["lenient"].items())
    if lenient:
        notes.append(f"accepted by a rule other than exact or relative tolerance: {lenient}")
    return "; ".join(notes) or "none"


PEER_TITLES = {
    "financemath": ("FinanceMath (yale-nlp/FinanceMath), validation, chain of thought",
                    "published: `outputs/results/validation_cot_results.json` (`processed_cot_outputs`) and "
                    "`validation_cot_math_expression_results.json` (`math_expression_extracted_cot_outputs`), "
                    "accuracy and every per-topic accuracy compared"),
    "financereasoning": ("FinanceReasoning (Staudinger0325/FinanceReasoning), chain of thought",
                         "published: the repository holds no per-model table; the figure is what its "
                         "`get_statistics` prints from the per-item `acc` stored in each `evaluation.json`"),
    "finmmr": ("FinMMR (addictedLL/FinMMR), validation, chain of thought",
               "published: as FinanceReasoning, the stored per-item `acc` of each `evaluation.json`"),
}


def render(record: Mapping[str, Any], prose_before: str, prose_after: str) -> str:
    """The Markdown page: `prose_before`, then one table per peer from `record`, then `prose_after`."""
    out = [prose_before.rstrip("\n"), ""]
    out.append(f"Figures recomputed at finscore `{record['finscore_commit']}`, {record['date']}.")
    out.append("")
    for peer, replayed in record["peers"].items():
        title, published = PEER_TITLES[peer]
        rows = replayed["rows"]
        same = sum(1 for row in rows if row["published"] is not None and _difference(row).startswith("0"))
        out += [f"### {title}", "",
                f"Mirror commit `{replayed['commit']}`; {published}. {len(rows)} files replayed, {same} with "
                f"zero difference.", "",
                "| table | model | items / split | published | recomputed as published | honest | difference | "
                "honest figure's counts |",
                "|---|---|---|---|---|---|---|---|"]
        for row in rows:
            out.append(f"| {row['table']} | {row['model']} | {row['items']} / {row['split_size']} | "
                       f"{_figure(row['published'])} | {_figure(row['recomputed'])} | {_figure(row['honest'])} | "
                       f"{_difference(row)} | {_honest_note(row)} |")
        out.append("")
        if replayed["unreplayed"]:
            out += ["Not replayed:", ""]
            groups: dict[tuple[str, str], list[str]] = {}
            for item in replayed["unreplayed"]:
                published_text = "" if item["published"] is None else f" (published {item['published']})"
                groups.setdefault((item["table"], item["why"]), []).append(item["model"] + published_text)
            for (table, why), models in groups.items():
                listed = ", ".join(models) if len(models) == 1 else f"{len(models)}: {', '.join(models)}"
                out.append(f"- {table} ({listed}): {why}")
            out.append("")
        if replayed["absent"]:
            out += [f"Absent from the snapshot ({len(replayed['absent'])} `evaluation.json` files listed in its "
                    f"tree whose blobs were not fetched):", ""]
            folders: dict[str, list[str]] = {}
            for path in replayed["absent"]:
                folders.setdefault("/".join(path.split("/")[-4:-2]), []).append(path.split("/")[-2])
            for folder, models in folders.items():
                out.append(f"- {folder} ({len(models)}): {', '.join(models)}")
            out.append("")
    out.append(prose_after.strip("\n"))
    out.append("")
    return "\n".join(out)


PROSE_MARK = "<!-- tables: written by tools/peers/replay_published.py from peers_replay.json -->"


def write(record: Mapping[str, Any]) -> None:
    """Write the JSON record and the page (the prose around the tables is kept from the page as it is)."""
    JSON_OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    before, after = split_page(MD_OUT.read_text(encoding="utf-8"))
    MD_OUT.write_text(render(record, before, after), encoding="utf-8")


def split_page(page: str) -> tuple[str, str]:
    """The hand-written prose before the tables (up to and with the mark) and after them (from the
    second mark on)."""
    parts = page.split(PROSE_MARK)
    if len(parts) != 3:
        raise SystemExit(f"{MD_OUT} must hold the line {PROSE_MARK!r} twice (before and after the tables)")
    return parts[0] + PROSE_MARK + "\n", PROSE_MARK + parts[2]


def main(arguments: Sequence[str]) -> int:
    if list(arguments) == ["--render"]:  # the prose changed: the page again from the record as it is
        write(json.loads(JSON_OUT.read_text(encoding="utf-8")))
        return 0
    pairs = dict(argument.split("=", 1) for argument in arguments)
    unknown = set(pairs) - {"financemath", "financereasoning", "finmmr"}
    if not pairs or unknown:
        raise SystemExit(__doc__)
    write(replay(pairs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
