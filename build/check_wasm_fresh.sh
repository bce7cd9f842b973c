#!/usr/bin/env bash
# Rebuild the core module from core/ and fail if it differs from the committed one.
#
# The committed python/finscore/finscore_core.wasm is what every user runs; this check
# proves it was built from these sources with build/build_wasm.sh (the build is
# reproducible byte for byte, so any difference means a stale or hand-edited module).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
committed="$root/python/finscore/finscore_core.wasm"
fresh="$(mktemp -d)/finscore_core.wasm"
"$root/build/build_wasm.sh" "$fresh" >/dev/null
if cmp -s "$committed" "$fresh"; then
    echo "check_wasm_fresh: the committed core module matches a fresh build ($(sha256sum "$fresh" | cut -c1-16))"
else
    echo "check_wasm_fresh: python/finscore/finscore_core.wasm differs from a fresh build of core/;" >&2
    echo "  run build/build_wasm.sh and commit the result" >&2
    exit 1
fi
