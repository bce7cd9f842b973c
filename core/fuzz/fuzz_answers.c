/*
 * libFuzzer target: fs_decide_answers on arbitrary text.
 *
 * Input: byte 0 picks the format (bit 0), the rules (bit 1: the finqa-answer/1 kind, or bare
 * numbers in the gold's scale) and the gold (the other bits: one of four, none, or the bytes after
 * the first 0x00 as a fifth gold, any bytes); the rest up to that 0x00 is split into completion
 * rows separated by 0x1E (any bytes: the core must not fault on what a host would never send). Beyond the sanitizers, it checks what must
 * hold for any input: the call succeeds, every decided row's reason is an fs_answer_reason, its
 * spans lie inside its own text, and its value fits the 64 bytes of its slot.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char RULES[] = "WP\x1er\x1e" "0.005\x1e" "10000\x1e" "100\x1e" "7\x1e$\x1e-\x1e"
                            "per cent\x1fpercent\x1f%\x1e" "thousands\x1d" "3\x1fmillion\x1d" "6\x1fm\x1d" "6\x1fk\x1d"
                            "3\x1e" "dollars\x1f" "dollar\x1fUSD";
static const char GOLDS[] = "94\x1f" "0.5\x1f\x1f" "0" "0.14464\x1f" "0.000005\x1f" "c\x1f" "0"
                            "-1.4464E-7\x1f" "5E-13\x1f" "pc\x1f" "6" "0\x1f" "0.5\x1f\x1f" "0";
/* Bare numbers read in the gold's scale (flag G), half-unit tolerance: the gold's scale field is used. */
static const char SCALED_RULES[] = "GP\x1eg\x1e\x1e" "10000\x1e" "100\x1e" "3\x1e$\x1e-\x1e%\x1e" "million\x1d" "6\x1e";
static const int32_t GOLD_SPANS[] = {0, 9, 9, 20, 29, 21, 50, 8, 58, 0};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 16)) return 0;
    int32_t format = data[0] & 1, scaled = (data[0] >> 1) & 1, gold = (data[0] >> 2) % 6 - 1; /* -1: none */
    data++, size--;
    const uint8_t *end = memchr(data, 0, size);
    size_t text_length = end ? (size_t)(end - data) : size;
    size_t fuzzed_gold_length = end ? size - text_length - 1 : 0; /* gold 4: the bytes after the 0x00 */
    int32_t rows_count = 1;
    for (size_t i = 0; i < text_length; i++) rows_count += data[i] == 0x1e;
    uint8_t *text = fs_fuzz_copy(data, text_length);
    int32_t *rows = fs_fuzz_zeroed((size_t)rows_count * 3, sizeof(int32_t));
    int32_t row = 0, start = 0;
    for (size_t i = 0; i <= text_length; i++) {
        if (i == text_length || data[i] == 0x1e) {
            rows[3 * row] = start, rows[3 * row + 1] = (int32_t)i - start, rows[3 * row + 2] = gold;
            row++, start = (int32_t)i + 1;
        }
    }
    const char *chosen_rules = scaled ? SCALED_RULES : RULES;
    size_t rules_length = scaled ? sizeof SCALED_RULES - 1 : sizeof RULES - 1;
    uint8_t *rules = fs_fuzz_copy((const uint8_t *)chosen_rules, rules_length);
    size_t golds_length = sizeof GOLDS - 1 + fuzzed_gold_length;
    uint8_t *golds = fs_fuzz_zeroed(golds_length, 1);
    memcpy(golds, GOLDS, sizeof GOLDS - 1);
    if (fuzzed_gold_length) memcpy(golds + sizeof GOLDS - 1, end + 1, fuzzed_gold_length);
    int32_t *spans = fs_fuzz_copy((const uint8_t *)GOLD_SPANS, sizeof GOLD_SPANS);
    spans[9] = (int32_t)fuzzed_gold_length;
    fs_answer_outcome *outcomes = fs_fuzz_zeroed((size_t)rows_count, sizeof *outcomes);
    uint8_t *values = fs_fuzz_zeroed((size_t)rows_count, FS_ANSWER_VALUE_BYTES);
    int32_t status = fs_decide_answers(rules, (int32_t)rules_length, format, text, (int32_t)text_length, rows,
                                       3 * rows_count, rows_count, golds, (int32_t)golds_length, spans, 5,
                                       outcomes, rows_count, values, FS_ANSWER_VALUE_BYTES * rows_count);
    fs_fuzz_check_status(status);
    if (status != FS_OK) abort();
    for (int32_t r = 0; r < rows_count; r++) {
        const fs_answer_outcome *o = &outcomes[r];
        int32_t length = rows[3 * r + 1];
        if (o->row != FS_ANSWER_DECIDED) {
            if (o->row != FS_ANSWER_DEFERRED) abort();
            continue;
        }
        if (o->reason < FS_ANSWER_EXACT || o->reason > FS_ANSWER_MISSING_PREDICTION) abort();
        if (o->reason == FS_ANSWER_NO_FINAL_ANSWER) continue;
        if (o->span_start < 0 || o->span_end > length || o->span_start > o->span_end) abort();
        if (o->read_start < 0 || o->read_end > length || o->read_start > o->read_end) abort();
        if (o->value_length < 0 || o->value_length > FS_ANSWER_VALUE_BYTES) abort();
        if (gold < 0 && o->reason != FS_ANSWER_SEVERAL_NUMBERS) abort(); /* no gold: nothing to compare */
    }
    free(text), free(rows), free(rules), free(golds), free(spans), free(outcomes), free(values);
    return 0;
}
