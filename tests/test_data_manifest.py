"""The committed test data is what its manifest says it is.

Every exactness test reads tests/data; a file edited, truncated or left out by
accident would change what those tests prove without failing them.
"""

from __future__ import annotations

import hashlib
import json

from support.shared import DATA, MANIFEST


def test_every_file_matches_its_digest() -> None:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    assert len(manifest) >= 27
    for name, entry in manifest.items():
        digest = hashlib.sha256((DATA / name).read_bytes()).hexdigest()
        assert digest == entry["sha256"], f"tests/data/{name} differs from MANIFEST.json"


def test_no_file_outside_the_manifest() -> None:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    present = {path.relative_to(DATA).as_posix() for path in DATA.rglob("*") if path.is_file()}
    assert present - {"MANIFEST.json"} == set(manifest)
