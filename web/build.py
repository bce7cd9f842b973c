#!/usr/bin/env python3
"""Assemble the browser playground into one directory of static files.

    npm ci --prefix web          # once: the pinned Pyodide from the npm registry
    python3 web/build.py         # -> web/dist/ (or --out DIR)

Everything the page loads ends up inside the output directory, so it works
offline from any static file server: the page sources, the JavaScript binding (js/src), the Pyodide runtime
(copied from the npm package, never a CDN), the WebAssembly core (the very
module the Python package ships), the finscore wheel built from this checkout
(`pip wheel --no-deps`, so the page always runs the code next to it), and the
pure-Python wheels the scorer needs (downloaded from PyPI once into
web/vendor/wheels/, pinned by hash in web/pyodide-requirements.txt).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WEB = Path(__file__).resolve().parent
ROOT = WEB.parent
CORE_WASM = ROOT / "python" / "finscore" / "finscore_core.wasm"
BINDING = ROOT / "js" / "src"  # the JavaScript binding the page runs plain programs with
PYODIDE_PACKAGE = WEB / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
REQUIREMENTS = WEB / "pyodide-requirements.txt"
VENDOR_WHEELS = WEB / "vendor" / "wheels"
_PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;]+)\s+--hash=sha256:([0-9a-f]{64})\s*$")


class BuildError(RuntimeError):
    """A prerequisite is missing or a step failed; the message says what to do."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pinned_wheels() -> list[tuple[str, str, str]]:
    """(name, version, sha256) of each line of pyodide-requirements.txt."""
    pins = []
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _PIN.match(line)
        if match is None:
            raise BuildError(f"{REQUIREMENTS.name}: every line must be NAME==VERSION --hash=sha256:HEX, not {line!r}")
        pins.append((match.group(1), match.group(2), match.group(3)))
    return pins


def _run(command: list[str], what: str) -> None:
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise BuildError(f"{what} failed ({' '.join(command)}):\n{completed.stdout}{completed.stderr}")


def _find_wheel(directory: Path, name: str, version: str) -> Path | None:
    stem = f"{name.replace('-', '_')}-{version}-".lower()
    for wheel in sorted(directory.glob("*.whl")):
        if wheel.name.lower().startswith(stem) and wheel.name.endswith("-py3-none-any.whl"):
            return wheel
    return None


def vendor_wheels() -> list[Path]:
    """The pinned pure-Python wheels, downloaded once and checked against their hashes."""
    pins = pinned_wheels()
    missing = [pin for pin in pins if _find_wheel(VENDOR_WHEELS, pin[0], pin[1]) is None]
    if missing:
        VENDOR_WHEELS.mkdir(parents=True, exist_ok=True)
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
              "--require-hashes", "-r", str(REQUIREMENTS), "-d", str(VENDOR_WHEELS)],
             "downloading the pinned wheels from PyPI")
    wheels = []
    for name, version, expected in pins:
        wheel = _find_wheel(VENDOR_WHEELS, name, version)
        if wheel is None:
            raise BuildError(f"no pure-Python wheel of {name} {version} in {VENDOR_WHEELS}")
        if sha256(wheel) != expected:
            raise BuildError(f"{wheel} does not have the sha256 pinned in {REQUIREMENTS.name}; delete it and rebuild")
        wheels.append(wheel)
    return wheels


def _package_sources(into: Path) -> Path:
    """A copy of what the wheel is built from, so the build writes nothing into the checkout
    (setuptools would leave build/lib and an egg-info beside the sources)."""
    source = into / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "python", source / "python",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    return source


def finscore_wheel(into: Path) -> Path:
    """Build the finscore wheel from this checkout, without its dependencies."""
    with tempfile.TemporaryDirectory() as scratch:
        source = _package_sources(Path(scratch))
        wheel_dir = Path(scratch) / "wheel"
        _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheel_dir), str(source)],
             "building the finscore wheel")
        built = sorted(wheel_dir.glob("finscore-*.whl"))
        if len(built) != 1:
            raise BuildError(f"expected one finscore wheel, found {[w.name for w in built]}")
        target = into / built[0].name
        shutil.copy2(built[0], target)
    return target


def pyodide_version() -> tuple[str, str]:
    """(Pyodide version, the Python version it carries), checked against web/package.json's pin."""
    if not (PYODIDE_PACKAGE / "package.json").is_file():
        raise BuildError(f"{PYODIDE_PACKAGE} is missing: run `npm ci --prefix {WEB}` first")
    installed = json.loads((PYODIDE_PACKAGE / "package.json").read_text(encoding="utf-8"))["version"]
    pinned = json.loads((WEB / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    if installed != pinned:
        raise BuildError(f"web/node_modules has pyodide {installed} but package.json pins {pinned}: run npm ci")
    lock = json.loads((PYODIDE_PACKAGE / "pyodide-lock.json").read_text(encoding="utf-8"))
    return installed, lock["info"]["python"]


def build(out: Path) -> dict[str, object]:
    version, python = pyodide_version()
    if not CORE_WASM.is_file():
        raise BuildError(f"{CORE_WASM} is missing: build it with build/build_wasm.sh")
    scorer_wheels = vendor_wheels()
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(WEB / "src", out)
    shutil.copytree(BINDING, out / "binding", ignore=shutil.ignore_patterns("*.d.ts"))
    (out / "py").mkdir()
    shutil.copy2(WEB / "py" / "finscore_playground.py", out / "py" / "finscore_playground.py")
    (out / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        source = PYODIDE_PACKAGE / name
        if not source.is_file():
            raise BuildError(f"pyodide {version} has no {name}; PYODIDE_FILES in build.py must follow the pinned version")
        shutil.copy2(source, out / "pyodide" / name)
    shutil.copy2(CORE_WASM, out / "finscore_core.wasm")
    if (ROOT / "README.md").is_file():  # the header links to it
        shutil.copy2(ROOT / "README.md", out / "README.md")
    wheels = out / "wheels"
    wheels.mkdir()
    own = finscore_wheel(wheels)
    for wheel in scorer_wheels:
        shutil.copy2(wheel, wheels / wheel.name)
    manifest: dict[str, object] = {
        "pyodide": version,
        "python": python,
        "core": {"file": "finscore_core.wasm", "sha256": sha256(out / "finscore_core.wasm")},
        "finscore_wheel": f"wheels/{own.name}",
        "scorer_wheels": [f"wheels/{wheel.name}" for wheel in scorer_wheels],
        "playground_module": "py/finscore_playground.py",
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=WEB / "dist", help="output directory (default web/dist)")
    args = parser.parse_args(argv)
    try:
        manifest = build(args.out.resolve())
    except BuildError as error:
        print(f"web/build.py: {error}", file=sys.stderr)
        return 1
    print(f"web/build.py: built {args.out} (Pyodide {manifest['pyodide']}, Python {manifest['python']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
