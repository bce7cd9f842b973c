#!/usr/bin/env bash
# Build the core's libFuzzer targets natively with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer, and run them.
#
#   build/fuzz.sh build OUTDIR                     -> OUTDIR/fuzz_read_execute, fuzz_execute, fuzz_numeric,
#                                                     fuzz_answers
#   build/fuzz.sh run OUTDIR SECONDS [TARGET...]   -> build, then fuzz each target for SECONDS
#                                                     (0: until stopped), one after another
#   build/fuzz.sh runs OUTDIR RUNS [TARGET...]     -> build, then a fixed number of runs each
#
# Each run starts from the committed seed corpus (core/fuzz/corpus/TARGET, written by
# core/fuzz/make_corpus.py) copied into OUTDIR/corpus/TARGET, which grows as libFuzzer finds
# new paths; crashes land in OUTDIR/crashes/. The reader's tokens are in core/fuzz/reader.dict.
# Needs clang with its sanitizer runtimes (Debian: apt-get install clang libclang-rt-14-dev).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:?usage: fuzz.sh build|run|runs OUTDIR [N] [TARGET...]}"
out="${2:?usage: fuzz.sh build|run|runs OUTDIR [N] [TARGET...]}"
all_targets=(fuzz_read_execute fuzz_execute fuzz_numeric fuzz_answers)
mkdir -p "$out"
flags=(-std=c99 -O1 -g -Wall -Wextra -Werror -ffp-contract=off
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -fno-omit-frame-pointer
       -I"$root/core")
sources=("$root"/core/fs_abi.c "$root"/core/fs_alloc.c "$root"/core/fs_exec.c "$root"/core/fs_pow.c
         "$root"/core/fs_read.c "$root"/core/fs_round.c "$root"/core/fs_sum.c "$root"/core/fs_answer.c "$root"/core/fs_peer.c)
for target in "${all_targets[@]}"; do
    "${CC:-clang}" "${flags[@]}" "$root/core/fuzz/$target.c" "${sources[@]}" -lm -o "$out/$target"
done
[ "$mode" = build ] && { echo "built ${all_targets[*]} in $out"; exit 0; }
amount="${3:?usage: fuzz.sh run|runs OUTDIR N [TARGET...]}"
shift 3
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
# pow() must be glibc's non-FMA variant, as everywhere the core is checked natively
export GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA
# Any undefined behaviour stops the run.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
for target in "${targets[@]}"; do
    corpus="$out/corpus/$target"
    mkdir -p "$corpus" "$out/crashes"
    cp -n "$root/core/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
    options=(-dict="$root/core/fuzz/reader.dict" -artifact_prefix="$out/crashes/$target-"
             -print_final_stats=1 -max_len=4096)
    if [ "$mode" = runs ]; then
        # -reload=0: by default libFuzzer re-reads its corpus folder every second and runs what it
        # finds there newer than its last read (mtimes are compared to the second, so seeds copied
        # just before the start can be run again): a 10,000-run count once ended at 10,066 on a
        # loaded machine. A fixed-count run reads its corpus once.
        options+=(-runs="$amount" -seed=1 -reload=0)
    else
        options+=(-max_total_time="$amount")
    fi
    echo "== $target"
    "$out/$target" "${options[@]}" "$corpus"
done
