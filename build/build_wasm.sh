#!/usr/bin/env bash
# Build the finscore core into one standalone WebAssembly module.
#
#   build/build_wasm.sh [OUTPUT]     (default: python/finscore/finscore_core.wasm)
#
# Toolchain: Debian's emscripten package (emcc 3.1.6): `apt-get install emscripten`.
# The module is standalone (no imports, no JavaScript glue) so that wasmtime, browsers,
# Node and any other WebAssembly host load the very same bytes.
#
# Optimization is -O3 (about 10% faster than -O2 at reading and running programs; the
# same libm, and the suite's pow/round/sum oracles and every recorded vector pass on it).
# NEVER -Os or -Oz: at those levels emscripten links a smaller, less accurate pow(), and
# `exp` would then differ from CPython's float ** float. Neither level changes IEEE
# semantics: no -ffast-math, and
# -ffp-contract=off keeps every + - * / a separately rounded IEEE operation (no fused
# multiply-add), which the exact summation rules depend on.
#
# The build is reproducible byte for byte: fixed flags, sources in a fixed order,
# paths mapped to a fixed prefix, no timestamps. build/check_wasm_fresh.sh rebuilds it
# and fails if the committed module differs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output="${1:-$root/python/finscore/finscore_core.wasm}"
case "$output" in /*) ;; *) output="$PWD/$output" ;; esac

for tool in emcc wasm-metadce; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build_wasm.sh: $tool not found; install Debian's emscripten and binaryen (apt-get install emscripten binaryen)" >&2
        exit 1
    fi
done

# The exports are data: build/exports.txt, generated from core/abi.toml by build/gen_abi.py.
# emcc exports the functions named there (and, unasked, stackSave, stackRestore, stackAlloc,
# __errno_location and the function table, which 3.1.6 cannot be told to leave out); binaryen's
# wasm-metadce then keeps exactly the listed exports, so the module exports only what
# docs/abi.md documents.
mapfile -t names < <(grep -v '^#' "$root/build/exports.txt")
functions=()
graph='['
for name in "${names[@]}"; do
    case "$name" in memory|_initialize) ;; *) functions+=("_$name") ;; esac
    graph+="{\"name\": \"$name\", \"root\": true, \"export\": \"$name\"},"
done
graph="${graph%,}]"
exports="$(IFS=,; echo "${functions[*]}")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
# Debian's emscripten links against its own frozen, prebuilt system-library cache
# (/usr/share/emscripten/cache): nothing is compiled into a cache during the build.
export SOURCE_DATE_EPOCH=0

emcc -std=c99 -O3 -Wall -Wextra -Werror -ffp-contract=off \
    -ffile-prefix-map="$root"=/finscore \
    -sSTANDALONE_WASM=1 --no-entry \
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16777216 -sMAXIMUM_MEMORY=1073741824 \
    -sTOTAL_STACK=65536 -sFILESYSTEM=0 -sERROR_ON_UNDEFINED_SYMBOLS=1 \
    -sEXPORTED_FUNCTIONS="$exports" \
    -o "$work/linked.wasm" \
    core/fs_abi.c core/fs_alloc.c core/fs_exec.c core/fs_pow.c core/fs_read.c core/fs_round.c core/fs_sum.c core/fs_answer.c core/fs_peer.c

printf '%s' "$graph" >"$work/graph.json"
wasm-metadce "$work/linked.wasm" --graph-file "$work/graph.json" -o "$work/finscore_core.wasm" >/dev/null

mkdir -p "$(dirname "$output")"
cp "$work/finscore_core.wasm" "$output"
echo "built $output ($(wc -c <"$output") bytes)"
