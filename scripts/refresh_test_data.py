#!/usr/bin/env python3
"""Copy the recorded vectors and the real datasets the tests need into tests/data.

The suite must run from a plain clone, so the recordings of the official scorers and
the datasets they were made on live in the repository, compressed. This script
refreshes them from a copy of the project's shared material (default: ../shared
beside the repository, or $FINSCORE_SHARED, or --shared) and rewrites
tests/data/MANIFEST.json, whose digests a test checks. gzip is run without a name or
time stamp, so the same sources give the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
DATA = REPOSITORY / "tests" / "data"

#: (source relative to the shared folder, destination relative to tests/data, compress?)
FILES: tuple[tuple[str, str, bool], ...] = (
    *((f"vectors/{name}.jsonl.gz", f"vectors/{name}.jsonl.gz", False) for name in (
        "gold", "mutants", "fuzz", "fuzz-py312", "equal", "rewrites", "convfinqa", "tatqa")),
    *((f"vectors/peers/{name}.jsonl.gz", f"vectors/peers/{name}.jsonl.gz", False) for name in (
        "financemath", "docmath", "financereasoning", "finmmr", "helm", "pixiu")),
    ("vectors/README.md", "vectors/README.md", False),
    ("data/README.md", "DATA.md", False),
    *((f"data/finqa/{name}", f"finqa/{name}.gz", True) for name in (
        "example_predictions.json", "finqa_dev.json", "finqa_dev_gold_programs.json",
        "finqa_test.json", "finqa_test_gold_programs.json", "finqa_train.json",
        "finqa_train_gold_programs.json")),
    *((f"data/finqa/provenance/{name}", f"finqa/provenance/{name}.gz", True) for name in (
        "MANIFEST.json", "provenance_dev.json", "provenance_test.json", "provenance_train.json")),
    *((f"data/convfinqa/{name}", f"convfinqa/{name}.gz", True) for name in (
        "convfinqa_dev.json", "convfinqa_test_private.json", "provenance_dev.json")),
    ("data/tatqa/README.md", "tatqa/README.md", False),
    *((f"data/tatqa/{name}", f"tatqa/{name}.gz", True) for name in (
        "tatqa_dataset_dev.json", "tatqa_dataset_test_gold.json")),
)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path,
                        default=Path(os.environ.get("FINSCORE_SHARED", REPOSITORY.parent / "shared")),
                        help="the shared folder to copy from (default: $FINSCORE_SHARED or ../shared)")
    args = parser.parse_args(argv)
    missing = [source for source, _, _ in FILES if not (args.shared / source).is_file()]
    if missing:
        print(f"refresh_test_data: not found under {args.shared}: {', '.join(missing)}", file=sys.stderr)
        return 2
    # entries this script does not write (the recordings written by generators under tools/,
    # such as tools/differential/record.py and record_literals.py) are kept as they are
    old_path = DATA / "MANIFEST.json"
    old = json.loads(old_path.read_text(encoding="utf-8")) if old_path.exists() else {}
    manifest: dict[str, dict[str, str]] = {
        name: entry for name, entry in old.items() if entry.get("source", "").startswith("tools/")}
    for source, destination, compress in FILES:
        raw = (args.shared / source).read_bytes()
        target = DATA / destination
        target.parent.mkdir(parents=True, exist_ok=True)
        if compress:
            target.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
        else:
            shutil.copyfile(args.shared / source, target)
        manifest[destination] = {"source": source, "source_sha256": sha256(raw),
                                 "sha256": sha256(target.read_bytes())}
    (DATA / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"refresh_test_data: {len(manifest)} files written to {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
