#!/usr/bin/env bash
# Build the core natively with gcc for C-level tests, under AddressSanitizer and
# UndefinedBehaviorSanitizer (-Wall -Wextra -Werror, C99, no contraction into FMA).
#
#   build/build_native.sh OUTDIR    -> OUTDIR/test_core and OUTDIR/driver
#
# Run the results with GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA: glibc's FMA variant of
# pow() differs from CPython-on-non-FMA (and from musl in the WebAssembly build) by
# one ulp on rare inputs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: build_native.sh OUTDIR}"
mkdir -p "$out"
flags=(-std=c99 -O1 -g -Wall -Wextra -Werror -pedantic -ffp-contract=off
       -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
       -I"$root/core")
sources=("$root"/core/fs_abi.c "$root"/core/fs_alloc.c "$root"/core/fs_exec.c "$root"/core/fs_pow.c
         "$root"/core/fs_read.c "$root"/core/fs_round.c "$root"/core/fs_sum.c "$root"/core/fs_answer.c "$root"/core/fs_peer.c)
"${CC:-gcc}" "${flags[@]}" "$root/core/tests/test_core.c" "${sources[@]}" -lm -o "$out/test_core"
"${CC:-gcc}" "${flags[@]}" "$root/core/tests/driver.c" "${sources[@]}" -lm -o "$out/driver"
echo "built $out/test_core and $out/driver"
