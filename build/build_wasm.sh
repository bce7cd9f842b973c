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

if ! command -v emcc >/dev/null 2>&1; then
    echo "build_wasm.sh: emcc not found; install Debian's emscripten (apt-get install emscripten)" >&2
    exit 1
fi

exports='_fs_execute,_fs_execute_batch,_fs_execute_batch_packed,_fs_read_execute_batch,_fs_read_execute_batch_packed,_fs_round_half_even_scaled,_fs_python_pow,_fs_python_sum,_fs_status_name,_fs_abi_version,_fs_sizeof_step,_fs_sizeof_program,_fs_sizeof_result,_fs_alloc,_fs_free'

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
    -o "$work/finscore_core.wasm" \
    core/fs_exec.c core/fs_packed.c core/fs_pow.c core/fs_read.c core/fs_round.c core/fs_status.c core/fs_sum.c \
    core/fs_wasm_memory.c

mkdir -p "$(dirname "$output")"
cp "$work/finscore_core.wasm" "$output"
echo "built $output ($(wc -c <"$output") bytes)"
