/*
 * Free-text answers: the common case of finscore.answers' reading and comparison, in one pass.
 *
 * The rules are the declared answer protocols' (the JSON files of python/finscore/answers/protocols), as
 * finscore.answers implements them (locate.py, numbers.py, compare.py): this file decides the
 * rows it can decide with certainty and marks every other one FS_ANSWER_DEFERRED for the host,
 * which decides it by the same rules. Decided here: ASCII completions (the host sends no other),
 * the answer-line and whole formats, an answer holding one number (or several: several_numbers)
 * of at most 19 significant digits, against a number gold, when every comparison fits 126 bits
 * once aligned. Everything else (refusals other than several_numbers, yes/no golds, bigger
 * numbers) is deferred, never guessed.
 *
 * Values are exact decimals (sign, coefficient, exponent) as Python's Decimal holds them: the
 * exponent is kept as written (94.00 has exponent -2), since the rounding reason and the value
 * shown depend on it. No allocation; every loop is bounded by its input's length.
 */
#include <stddef.h>
#include <string.h>

#include "finscore_core.h"
#include "fs_internal.h"

#define MAX_WORDS 64
#define MAX_COEFFICIENT_DIGITS 19
#define LARGEST_ADJUSTED 308
#define SMALLEST_ADJUSTED (-308)
#define MAX_EXPONENT_DIGITS 4
#define MAX_SCALE_K 24

/* 128-bit integers: a GCC and Clang extension (both compilers of the core: emcc for WebAssembly,
 * gcc for the sanitizer builds), marked as one so that -pedantic accepts it. */
__extension__ typedef __int128 fs_i128;
__extension__ typedef unsigned __int128 fs_u128;
#define ALIGNED_LIMIT ((fs_u128)1 << 124) /* every aligned magnitude stays below: sums fit */

typedef struct {
    int negative;
    uint64_t coefficient;
    int32_t exponent;
} fs_decimal;

typedef struct {
    const unsigned char *text;
    int32_t length;
    int32_t power; /* scale words: the power of ten */
} fs_word;

typedef struct {
    int western, indian, parentheses, scale_applied, bare_gold_scale;
    char tolerance_kind; /* 'r' relative, 'a' absolute, 'g' gold places */
    fs_decimal tolerance;
    int32_t max_answer_chars, max_number_chars, longest_code;
    const unsigned char *symbols;
    int32_t symbol_count;
    const unsigned char *minus;
    int32_t minus_count;
    fs_word percents[MAX_WORDS], scales[MAX_WORDS], codes[MAX_WORDS];
    int32_t percent_count, scale_count, code_count;
} fs_answer_rules;

typedef struct {
    fs_decimal value;
    int percent, has_scale;
    int32_t scale;
    int32_t begin, end; /* the number as found, with sign, currency, percent, scale, parentheses */
} fs_reading;

typedef struct {
    fs_decimal value;
    fs_decimal half_unit;
    int points, percentage;
    int32_t scale;
} fs_gold;

/* ---- characters ------------------------------------------------------------------------- */

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static unsigned char lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c; }

static int in_set(unsigned char c, const unsigned char *set, int32_t count) {
    int32_t i;
    for (i = 0; i < count; i++)
        if (set[i] == c) return 1;
    return 0;
}

/* Whether text[at, at + word length) equals the word, ignoring ASCII case. */
static int word_at(const unsigned char *text, int32_t length, int32_t at, const fs_word *word) {
    int32_t i;
    if (at < 0 || word->length > length - at) return 0;
    for (i = 0; i < word->length; i++)
        if (lower(text[at + i]) != lower(word->text[i])) return 0;
    return 1;
}

/* ---- decimals ------------------------------------------------------------------------------ */

/* A decimal as Python's str(Decimal) or a reader's digits write it: [-]digits[.digits][E[+-]digits].
 * 0 when it is not one, or holds more than 19 significant digits. */
static int parse_decimal(const unsigned char *text, int32_t length, fs_decimal *out) {
    int32_t at = 0, fraction = 0, digits = 0, seen = 0;
    int64_t exponent = 0;
    int exponent_negative = 0;
    out->negative = 0;
    out->coefficient = 0;
    if (at < length && (text[at] == '-' || text[at] == '+')) out->negative = text[at++] == '-';
    for (; at < length && (is_digit(text[at]) || text[at] == '.'); at++) {
        if (text[at] == '.') {
            if (fraction) return 0;
            fraction = 1;
            continue;
        }
        seen = 1;
        if (fraction) exponent--;
        if (out->coefficient == 0 && text[at] == '0') continue;
        if (++digits > MAX_COEFFICIENT_DIGITS) return 0;
        out->coefficient = out->coefficient * 10u + (uint64_t)(text[at] - '0');
    }
    if (!seen) return 0;
    if (at < length && (text[at] == 'e' || text[at] == 'E')) {
        int64_t written = 0;
        int32_t first;
        at++;
        if (at < length && (text[at] == '-' || text[at] == '+')) exponent_negative = text[at++] == '-';
        first = at;
        for (; at < length && is_digit(text[at]); at++) {
            if (at - first >= 6) return 0;
            written = written * 10 + (text[at] - '0');
        }
        if (at == first) return 0;
        exponent += exponent_negative ? -written : written;
    }
    if (at != length) return 0;
    out->exponent = (int32_t)exponent;
    return 1;
}

static int32_t digit_count(uint64_t value) {
    int32_t n = 1;
    while (value >= 10u) {
        value /= 10u;
        n++;
    }
    return n;
}

/* Decimal.adjusted(): the exponent of the most significant digit. */
static int32_t adjusted(const fs_decimal *d) { return d->exponent + digit_count(d->coefficient) - 1; }

/* d times 10^(d's exponent - at) as a signed 128-bit integer; 0 when it would not fit. */
static int aligned(const fs_decimal *d, int32_t at, fs_i128 *out) {
    fs_u128 magnitude = d->coefficient;
    int32_t shift = d->exponent - at;
    for (; shift > 0 && magnitude != 0; shift--) {
        if (magnitude >= ALIGNED_LIMIT / 10u) return 0;
        magnitude *= 10u;
    }
    *out = d->negative ? -(fs_i128)magnitude : (fs_i128)magnitude;
    return 1;
}

static int32_t lowest_exponent(const fs_decimal *const *values, int count) {
    int32_t low = 0;
    int i, any = 0;
    for (i = 0; i < count; i++) {
        if (values[i]->coefficient == 0) continue; /* a zero fits any exponent */
        if (!any || values[i]->exponent < low) low = values[i]->exponent;
        any = 1;
    }
    return low;
}

/* Whether |a - b| <= bound exactly (*answer); 0 when the aligned values would not fit. */
static int difference_within(const fs_decimal *a, const fs_decimal *b, const fs_decimal *bound, int *answer) {
    const fs_decimal *all[3];
    fs_i128 x, y, z, difference;
    int32_t at;
    all[0] = a;
    all[1] = b;
    all[2] = bound;
    at = lowest_exponent(all, 3);
    if (!aligned(a, at, &x) || !aligned(b, at, &y) || !aligned(bound, at, &z)) return 0;
    difference = x - y;
    if (difference < 0) difference = -difference;
    if (z < 0) z = -z;
    *answer = difference <= z;
    return 1;
}

/* Whether a == b numerically (*answer); 0 when the aligned values would not fit. */
static int decimals_equal(const fs_decimal *a, const fs_decimal *b, int *answer) {
    const fs_decimal *all[2];
    fs_i128 x, y;
    int32_t at;
    all[0] = a;
    all[1] = b;
    at = lowest_exponent(all, 2);
    if (!aligned(a, at, &x) || !aligned(b, at, &y)) return 0;
    *answer = x == y;
    return 1;
}

/* format(d, "f") of Python's Decimal into out (capacity bytes): its length, or -1 if longer. */
static int32_t format_fixed(const fs_decimal *d, unsigned char *out, int32_t capacity) {
    unsigned char digits[24];
    int32_t count = 0, length = 0, i;
    uint64_t c = d->coefficient;
    do {
        digits[count++] = (unsigned char)('0' + c % 10u);
        c /= 10u;
    } while (c != 0);
    if (d->negative) {
        if (length >= capacity) return -1;
        out[length++] = '-';
    }
    if (d->exponent >= 0) {
        int32_t zeros = d->coefficient == 0 ? 0 : d->exponent;
        if ((int64_t)length + count + zeros > capacity) return -1;
        for (i = count - 1; i >= 0; i--) out[length++] = digits[i];
        for (i = 0; i < zeros; i++) out[length++] = '0';
        return length;
    } else {
        int32_t places = -d->exponent;
        int32_t whole = count > places ? count - places : 0;
        int32_t lead_zeros = count > places ? 0 : places - count;
        if ((int64_t)length + (whole ? whole : 1) + 1 + places > capacity) return -1;
        if (whole == 0) out[length++] = '0';
        for (i = count - 1; i >= count - whole; i--) out[length++] = digits[i];
        out[length++] = '.';
        for (i = 0; i < lead_zeros; i++) out[length++] = '0';
        for (i = count - whole - 1; i >= 0; i--) out[length++] = digits[i];
        return length;
    }
}

/* ---- the protocol's rules ------------------------------------------------------------------ */

/* The next field of `text` (fields separated by `separator`) at *at: its start and length. */
static int next_field(const unsigned char *text, int32_t length, unsigned char separator, int32_t *at,
                      const unsigned char **start, int32_t *field_length) {
    int32_t end = *at;
    if (*at > length) return 0;
    while (end < length && text[end] != separator) end++;
    *start = text + *at;
    *field_length = end - *at;
    *at = end + 1;
    return 1;
}

/* A decimal integer of at most 10 digits that fits int32_t. */
static int parse_count(const unsigned char *text, int32_t length, int32_t *out) {
    int64_t value = 0;
    int32_t i;
    if (length == 0 || length > 10) return 0;
    for (i = 0; i < length; i++) {
        if (!is_digit(text[i])) return 0;
        value = value * 10 + (text[i] - '0');
    }
    if (value > INT32_MAX) return 0;
    *out = (int32_t)value;
    return 1;
}

/* An optional '-', then a decimal integer of at most `max_digits` digits that fits int32_t. */
static int parse_signed(const unsigned char *text, int32_t length, int32_t max_digits, int32_t *out) {
    int negative = length > 0 && text[0] == '-';
    if (length - negative > max_digits || !parse_count(text + negative, length - negative, out)) return 0;
    if (negative) *out = -*out;
    return 1;
}

/* Words separated by 0x1F; scale words carry their power after a 0x1D. */
static int parse_words(const unsigned char *text, int32_t length, fs_word *words, int32_t *count, int powers) {
    int32_t at = 0;
    *count = 0;
    while (at < length) {
        int32_t end = at, split;
        while (end < length && text[end] != 0x1F) end++;
        if (*count >= MAX_WORDS || end == at) return 0;
        split = end;
        words[*count].power = 0;
        if (powers) {
            split = at;
            while (split < end && text[split] != 0x1D) split++;
            if (split == end || split == at) return 0;
            if (!parse_signed(text + split + 1, end - split - 1, 6, &words[*count].power)) return 0; /* < 10^6 */
        }
        words[*count].text = text + at;
        words[*count].length = split - at;
        (*count)++;
        at = end + 1;
    }
    return 1;
}

/* The rules as finscore.answers.decide_in_core lays them out (fields separated by 0x1E):
 * flags (W western, I indian, P parentheses, A scale words applied, G bare numbers in the gold's
 * scale), tolerance kind (r, a, g), tolerance value, max answer chars, max number chars, longest
 * currency code, currency symbols (one byte each), minus signs (one byte each), percent marks,
 * scale words (word 0x1D power), currency codes; lists in the protocol's order of trial. */
static int parse_rules(const unsigned char *config, int32_t length, fs_answer_rules *rules) {
    const unsigned char *field;
    int32_t field_length, at = 0, i;
    memset(rules, 0, sizeof *rules);
    if (!next_field(config, length, 0x1E, &at, &field, &field_length)) return 0;
    for (i = 0; i < field_length; i++) {
        switch (field[i]) {
        case 'W': rules->western = 1; break;
        case 'I': rules->indian = 1; break;
        case 'P': rules->parentheses = 1; break;
        case 'A': rules->scale_applied = 1; break;
        case 'G': rules->bare_gold_scale = 1; break;
        default: return 0;
        }
    }
    if (!next_field(config, length, 0x1E, &at, &field, &field_length) || field_length != 1) return 0;
    rules->tolerance_kind = (char)field[0];
    if (rules->tolerance_kind != 'r' && rules->tolerance_kind != 'a' && rules->tolerance_kind != 'g') return 0;
    if (!next_field(config, length, 0x1E, &at, &field, &field_length)) return 0;
    if (rules->tolerance_kind != 'g' && !parse_decimal(field, field_length, &rules->tolerance)) return 0;
    if (!next_field(config, length, 0x1E, &at, &field, &field_length) ||
        !parse_count(field, field_length, &rules->max_answer_chars))
        return 0;
    if (!next_field(config, length, 0x1E, &at, &field, &field_length) ||
        !parse_count(field, field_length, &rules->max_number_chars))
        return 0;
    if (!next_field(config, length, 0x1E, &at, &field, &field_length) ||
        !parse_count(field, field_length, &rules->longest_code))
        return 0;
    if (!next_field(config, length, 0x1E, &at, &rules->symbols, &rules->symbol_count)) return 0;
    if (!next_field(config, length, 0x1E, &at, &rules->minus, &rules->minus_count)) return 0;
    if (!next_field(config, length, 0x1E, &at, &field, &field_length) ||
        !parse_words(field, field_length, rules->percents, &rules->percent_count, 0))
        return 0;
    if (!next_field(config, length, 0x1E, &at, &field, &field_length) ||
        !parse_words(field, field_length, rules->scales, &rules->scale_count, 1))
        return 0;
    if (!next_field(config, length, 0x1E, &at, &field, &field_length) ||
        !parse_words(field, field_length, rules->codes, &rules->code_count, 0))
        return 0;
    return at == length + 1;
}

/* ---- locating the answer ----------------------------------------------------------------- */

static int ci_literal(const unsigned char *text, int32_t length, int32_t at, const char *literal) {
    fs_word word;
    word.text = (const unsigned char *)literal;
    word.length = (int32_t)strlen(literal);
    word.power = 0;
    return word_at(text, length, at, &word);
}

/* The end of the marker `[ \t*_#>]{0,8}(final[ \t]{1,4})?answer[ \t*_]{0,4}:` at a line start,
 * or -1. Each part's class excludes what follows it, so the greedy reading is the only one. */
static int32_t marker_end(const unsigned char *text, int32_t length, int32_t at) {
    int32_t run = 0;
    while (at < length && run < 9 && (text[at] == ' ' || text[at] == '\t' || text[at] == '*' || text[at] == '_' ||
                                      text[at] == '#' || text[at] == '>')) {
        at++;
        run++;
    }
    if (run > 8) return -1;
    if (ci_literal(text, length, at, "final")) {
        int32_t spaces = 0, after = at + 5;
        while (after < length && spaces < 5 && (text[after] == ' ' || text[after] == '\t')) {
            after++;
            spaces++;
        }
        if (spaces < 1 || spaces > 4 || !ci_literal(text, length, after, "answer")) return -1;
        at = after + 6;
    } else if (ci_literal(text, length, at, "answer")) {
        at += 6;
    } else {
        return -1;
    }
    run = 0;
    while (at < length && run < 5 && (text[at] == ' ' || text[at] == '\t' || text[at] == '*' || text[at] == '_')) {
        at++;
        run++;
    }
    if (run > 4 || at >= length || text[at] != ':') return -1;
    return at + 1;
}

static int emphasis(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '*' || c == '_'; }

/* The answer's span after the marker of the last line that has one (answer-line) or the whole
 * text (whole), emphasis stripped from each end as Python's strip does (an answer of emphasis
 * only gives start > end, as there). 0: no line has the marker. */
static int locate(const unsigned char *text, int32_t length, int whole, int32_t *start, int32_t *end) {
    int32_t begin = 0, stop = length, lead = 0, trail = 0, line;
    if (!whole) {
        for (line = length; line >= 0; line--) {
            if (line > 0 && text[line - 1] != '\n') continue;
            begin = marker_end(text, length, line);
            if (begin >= 0) break;
        }
        if (line < 0) return 0;
        stop = begin;
        while (stop < length && text[stop] != '\n') stop++;
    }
    while (begin + lead < stop && emphasis(text[begin + lead])) lead++;
    while (stop - trail > begin && emphasis(text[stop - 1 - trail])) trail++;
    *start = begin + lead;
    *end = stop - trail;
    return 1;
}

/* ---- reading the number ------------------------------------------------------------------ */

enum { READ_NONE = 0, READ_NUMBER = 1, READ_DEFER = 2 };

static int grouping_ok(const fs_answer_rules *rules, const unsigned char *whole, int32_t length) {
    int32_t first = -1, i, start = 0, groups = 0, last_length = 0, middle_ok = 1;
    int western_tail = 1;
    for (i = 0; i <= length; i++) {
        if (i < length && whole[i] != ',') continue;
        if (groups == 0) {
            first = i - start;
        } else {
            int32_t size = i - start;
            if (size != 3) western_tail = 0;
            if (groups >= 2 && last_length != 2) middle_ok = 0; /* the previous group was a middle one */
            last_length = size;
        }
        groups++;
        start = i + 1;
    }
    if (groups == 1) return 1;
    if (rules->western && first >= 1 && first <= 3 && western_tail) return 1;
    return rules->indian && first >= 1 && first <= 2 && last_length == 3 && middle_ok;
}

/* Start of a currency code ending at `end` (one space allowed after it), or -1. */
static int32_t code_before(const fs_answer_rules *rules, const unsigned char *text, int32_t end) {
    int32_t stop = (end > 0 && text[end - 1] == ' ') ? end - 1 : end, begin = stop, i;
    while (begin > 0 && stop - begin <= rules->longest_code && is_alpha(text[begin - 1])) begin--;
    if (begin >= stop) return -1;
    for (i = 0; i < rules->code_count; i++)
        if (rules->codes[i].length == stop - begin && word_at(text, stop, begin, &rules->codes[i])) return begin;
    return -1;
}

/* The first of `words` (in order) at `from` that no letter follows, or -1. */
static int32_t word_here(const unsigned char *text, int32_t length, int32_t from, const fs_word *words,
                         int32_t count) {
    int32_t i;
    for (i = 0; i < count; i++) {
        int32_t end = from + words[i].length;
        if (word_at(text, length, from, &words[i]) && !(end < length && is_alpha(text[end]))) return i;
    }
    return -1;
}

/* The end of ` ?(word)(?![A-Za-z])` over `words` at `at`, a space first when there is one; -1 if none. */
static int32_t word_after(const unsigned char *text, int32_t length, int32_t at, const fs_word *words,
                          int32_t count) {
    int pass;
    for (pass = 0; pass < 2; pass++) {
        int32_t from = at + (pass == 0 ? 1 : 0), which;
        if (pass == 0 && !(at < length && text[at] == ' ')) continue;
        which = word_here(text, length, from, words, count);
        if (which >= 0) return from + words[which].length;
    }
    return -1;
}

/* The suffix ` ?(percent mark|scale word)(?![A-Za-z])`: percent marks tried before scale words
 * at each of the two starting points, as the protocol's one alternation does. */
static int32_t suffix_after(const fs_answer_rules *rules, const unsigned char *text, int32_t length, int32_t at,
                            int *percent, int32_t *scale_index) {
    int pass;
    for (pass = 0; pass < 2; pass++) {
        int32_t from = at + (pass == 0 ? 1 : 0), which;
        if (pass == 0 && !(at < length && text[at] == ' ')) continue;
        which = word_here(text, length, from, rules->percents, rules->percent_count);
        if (which >= 0) {
            *percent = 1;
            return from + rules->percents[which].length;
        }
        which = word_here(text, length, from, rules->scales, rules->scale_count);
        if (which >= 0) {
            *scale_index = which;
            return from + rules->scales[which].length;
        }
    }
    return -1;
}

/* Sign and currency read leftwards from `start` (at most three steps), as NumberReader._left. */
static int32_t read_left(const fs_answer_rules *rules, const unsigned char *text, int32_t start, int *sign) {
    int currency = 0, step;
    int32_t at = start, code;
    *sign = 1;
    for (step = 0; step < 3; step++) {
        int has = at > 0;
        unsigned char before = has ? text[at - 1] : 0;
        int symbol_here = has && in_set(before, rules->symbols, rules->symbol_count);
        if (!currency && (symbol_here || (has && before == ' ' && at > 1 &&
                                          in_set(text[at - 2], rules->symbols, rules->symbol_count)))) {
            at -= symbol_here ? 1 : 2;
            currency = 1;
        } else if (*sign == 1 && has && (in_set(before, rules->minus, rules->minus_count) || before == '+') &&
                   (at < 2 || !(is_alpha(text[at - 2]) || is_digit(text[at - 2])))) {
            *sign = before == '+' ? 1 : -1;
            at -= 1;
            if (before == '+') break;
        } else if (!currency && has && (is_alpha(before) || (before == ' ' && at > 1 && is_alpha(text[at - 2]))) &&
                   (code = code_before(rules, text, at)) >= 0) {
            at = code;
            currency = 1;
        } else {
            break;
        }
    }
    return at;
}

/* The number whose digits start at `start` (a maximal run of [0-9,.] from a digit, ending at
 * run_end), as NumberReader._number_at: READ_NUMBER, READ_NONE (digits of a word) or READ_DEFER
 * (a refusal, or a number this file does not hold). */
static int number_at(const fs_answer_rules *rules, const unsigned char *text, int32_t length, int32_t start,
                     int32_t run_end, fs_reading *out) {
    int32_t end = run_end, point = -1, i, bare_end, scale_index = -1, begin, suffix, code_end;
    int32_t chunk_start, fraction_commas = 0, exponent_digits = 0;
    int percent = 0, sign;
    unsigned char digits[160];
    int32_t digit_length = 0;
    while (end > start && (text[end - 1] == '.' || text[end - 1] == ',')) end--;
    /* 1.e3, 5.E-1 (a point just before the exponent): the host's reading */
    if (end + 1 < length && text[end] == '.' && (text[end + 1] == 'e' || text[end + 1] == 'E')) return READ_DEFER;
    chunk_start = start;
    if (start > 0 && text[start - 1] == '.' && (start < 2 || !is_digit(text[start - 2]))) chunk_start = start - 1;
    if (chunk_start > 0 && is_alpha(text[chunk_start - 1]) && code_before(rules, text, chunk_start) < 0)
        return READ_NONE;
    if (end - chunk_start > rules->max_number_chars) return READ_DEFER;
    for (i = chunk_start; i < end; i++) {
        if (text[i] == '.') {
            if (point >= 0) return READ_DEFER; /* two points: unparseable */
            point = i;
        } else if (text[i] == ',' && point >= 0) {
            fraction_commas++;
        }
    }
    if (fraction_commas) return READ_DEFER;
    if (!grouping_ok(rules, text + chunk_start, (point >= 0 ? point : end) - chunk_start)) return READ_DEFER;
    for (i = chunk_start; i < end; i++)
        if (text[i] != ',') {
            if (digit_length >= (int32_t)sizeof digits - 8) return READ_DEFER;
            digits[digit_length++] = text[i];
        }
    if (end < length && (text[end] == 'e' || text[end] == 'E')) {
        int32_t at = end + 1, first;
        if (at < length && (text[at] == '+' || text[at] == '-')) at++;
        first = at;
        while (at < length && is_digit(text[at])) at++;
        if (at > first) {
            /* Python counts the digits after stripping e, E, + and - from the left */
            exponent_digits = at - first;
            if (exponent_digits > MAX_EXPONENT_DIGITS) return READ_DEFER;
            for (i = end; i < at; i++) digits[digit_length++] = text[i];
            end = at;
        }
    }
    bare_end = end;
    suffix = suffix_after(rules, text, length, end, &percent, &scale_index);
    if (suffix > end) end = suffix;
    code_end = word_after(text, length, end, rules->codes, rules->code_count);
    if (code_end >= 0) end = code_end;
    if (end == bare_end && end < length && is_alpha(text[end])) return READ_NONE;
    begin = read_left(rules, text, chunk_start, &sign);
    /* The host's readings: a sign one space before the number or its currency (- 5), a currency
     * symbol with a letter before it (US$5, HK$5), one space inside a parenthesis (( 5 )). */
    if (begin >= 2 && text[begin - 1] == ' ' &&
        (in_set(text[begin - 2], rules->minus, rules->minus_count) || text[begin - 2] == '+'))
        return READ_DEFER;
    if (begin > 0 && begin < length && in_set(text[begin], rules->symbols, rules->symbol_count) &&
        is_alpha(text[begin - 1]))
        return READ_DEFER;
    if (rules->parentheses && ((begin >= 2 && text[begin - 1] == ' ' && text[begin - 2] == '(') ||
                               (end + 1 < length && text[end] == ' ' && text[end + 1] == ')')))
        return READ_DEFER;
    if (rules->parentheses && begin > 0 && text[begin - 1] == '(' && end < length && text[end] == ')') {
        begin--;
        end++;
        sign = -1;
    }
    if (!parse_decimal(digits, digit_length, &out->value)) return READ_DEFER;
    if (out->value.coefficient != 0) {
        int32_t adjusted_exponent = adjusted(&out->value);
        if (adjusted_exponent < SMALLEST_ADJUSTED || adjusted_exponent > LARGEST_ADJUSTED) return READ_DEFER;
    }
    out->value.negative = sign < 0 && out->value.coefficient != 0; /* Python's -Decimal(0) is 0 */
    out->percent = percent;
    out->has_scale = scale_index >= 0;
    out->scale = scale_index >= 0 ? rules->scales[scale_index].power : 0;
    out->begin = begin;
    out->end = end;
    return READ_NUMBER;
}

/* Whether a whole ASCII word (a maximal run of letters) is nan, inf or infinity. */
static int refused_word(const unsigned char *text, int32_t length) {
    int32_t at = 0;
    while (at < length) {
        int32_t end;
        if (!is_alpha(text[at])) {
            at++;
            continue;
        }
        end = at;
        while (end < length && is_alpha(text[end])) end++;
        if ((end - at == 3 && (ci_literal(text, length, at, "nan") || ci_literal(text, length, at, "inf"))) ||
            (end - at == 8 && ci_literal(text, length, at, "infinity")))
            return 1;
        at = end;
    }
    return 0;
}

enum { ANSWER_ONE = 0, ANSWER_SEVERAL = 1, ANSWER_DEFER = 2 };

/* The single number of the answer text, as NumberReader.read (its full pass). */
static int read_answer(const fs_answer_rules *rules, const unsigned char *text, int32_t length, fs_reading *first,
                       fs_reading *other) {
    int32_t at = 0, consumed = 0;
    int found = 0;
    if (length > rules->max_answer_chars || refused_word(text, length)) return ANSWER_DEFER;
    while (at < length) {
        int32_t run_end;
        fs_reading reading;
        int kind, same;
        if (!is_digit(text[at])) {
            at++;
            continue;
        }
        run_end = at;
        while (run_end < length && (is_digit(text[run_end]) || text[run_end] == ',' || text[run_end] == '.'))
            run_end++;
        if (at < consumed) {
            at = run_end;
            continue;
        }
        kind = number_at(rules, text, length, at, run_end, &reading);
        at = run_end;
        if (kind == READ_NONE) continue;
        if (kind == READ_DEFER) return ANSWER_DEFER;
        consumed = reading.end;
        if (!found) {
            *first = reading;
            found = 1;
            continue;
        }
        if (!decimals_equal(&reading.value, &first->value, &same)) return ANSWER_DEFER;
        if (!same || reading.percent != first->percent || reading.has_scale != first->has_scale ||
            (reading.has_scale && reading.scale != first->scale)) {
            *other = reading;
            return ANSWER_SEVERAL;
        }
    }
    return found ? ANSWER_ONE : ANSWER_DEFER; /* no number: unparseable, the host's */
}

/* ---- comparing ------------------------------------------------------------------------- */

/* value 0x1F half unit 0x1F flags 0x1F scale */
static int parse_gold(const unsigned char *text, int32_t length, fs_gold *gold) {
    const unsigned char *value, *half_unit, *flags, *scale;
    int32_t value_length, half_unit_length, flags_length, scale_length, at = 0, i;
    if (!next_field(text, length, 0x1F, &at, &value, &value_length) ||
        !next_field(text, length, 0x1F, &at, &half_unit, &half_unit_length) ||
        !next_field(text, length, 0x1F, &at, &flags, &flags_length) ||
        !next_field(text, length, 0x1F, &at, &scale, &scale_length) || at != length + 1)
        return 0;
    if (!parse_decimal(value, value_length, &gold->value)) return 0;
    if (!parse_decimal(half_unit, half_unit_length, &gold->half_unit)) return 0;
    gold->points = gold->percentage = 0;
    for (i = 0; i < flags_length; i++) {
        if (flags[i] == 'p') gold->points = 1;
        else if (flags[i] == 'c') gold->percentage = 1;
        else return 0;
    }
    /* A scale word's power and the gold's scale both stay below 10^6, so that every exponent sum
     * and difference below stays far inside int32_t (a host could send any text here). */
    return parse_signed(scale, scale_length, 6, &gold->scale);
}

static fs_decimal scaled(fs_decimal d, int32_t k) {
    d.exponent += k;
    return d;
}

/* compare_number of finscore.answers.compare on a reading: the reason, k, and the value compared.
 * 0 when some comparison does not fit (the host decides the row). */
static int compare(const fs_answer_rules *rules, const fs_reading *reading, const fs_gold *gold, int32_t *reason,
                   int32_t *has_k, int32_t *k, int32_t *equal, fs_decimal *value) {
    fs_decimal bound, negated;
    int answer;
    *equal = 0;
    *value = reading->value;
    *has_k = 0;
    *k = 0;
    if (reading->percent) {
        if (!gold->points) *value = scaled(*value, -2);
    } else if (reading->has_scale) {
        if (rules->scale_applied) *value = scaled(*value, reading->scale);
    } else if (rules->bare_gold_scale) {
        *value = scaled(*value, gold->scale);
    }
    if (!decimals_equal(value, &gold->value, &answer)) return 0;
    if (answer) {
        *reason = reading->percent ? FS_ANSWER_PERCENT_DECLARED : FS_ANSWER_EXACT;
        *equal = 1;
        return 1;
    }
    if (rules->tolerance_kind == 'r') {
        fs_u128 product = (fs_u128)rules->tolerance.coefficient * gold->value.coefficient;
        int32_t exponent = rules->tolerance.exponent + gold->value.exponent;
        while (product > (fs_u128)UINT64_MAX) { /* exact only when the digits dropped are zeros */
            if (product % 10u != 0) return 0;
            product /= 10u;
            exponent++;
        }
        bound.negative = 0;
        bound.coefficient = (uint64_t)product;
        bound.exponent = exponent;
    } else if (rules->tolerance_kind == 'a') {
        bound = rules->tolerance;
    } else {
        bound = gold->half_unit;
    }
    if (!difference_within(value, &gold->value, &bound, &answer)) return 0;
    if (answer) {
        *reason = reading->percent ? FS_ANSWER_PERCENT_DECLARED : FS_ANSWER_WITHIN_TOLERANCE;
        return 1;
    }
    negated = *value;
    negated.negative = value->coefficient != 0 && !value->negative;
    if (gold->value.coefficient != 0) {
        if (!difference_within(&negated, &gold->value, &bound, &answer)) return 0;
        if (answer) {
            *reason = FS_ANSWER_SIGN_FLIPPED;
            return 1;
        }
    }
    if (value->coefficient != 0 && gold->value.coefficient != 0 && value->negative == gold->value.negative) {
        int32_t guess = adjusted(value) - adjusted(&gold->value), tries[3], i;
        tries[0] = guess;
        tries[1] = guess - 1;
        tries[2] = guess + 1;
        for (i = 0; i < 3; i++) {
            int32_t t = tries[i];
            fs_decimal moved;
            if (t == 0 || t > MAX_SCALE_K || t < -MAX_SCALE_K) continue;
            moved = scaled(*value, -t);
            if (!difference_within(&moved, &gold->value, &bound, &answer)) return 0;
            if (answer) {
                int percent = (t == 2 || t == -2) && (gold->percentage || reading->percent);
                *reason = percent ? FS_ANSWER_PERCENT_VS_RATIO : FS_ANSWER_SCALE_OFF;
                *has_k = 1;
                *k = t;
                return 1;
            }
        }
    }
    {
        fs_decimal half;
        half.negative = 0;
        half.coefficient = 5;
        half.exponent = value->exponent - 1; /* 5 * 10^(-shown - 1), shown = -exponent */
        if (!difference_within(value, &gold->value, &half, &answer)) return 0;
        if (answer) {
            *reason = FS_ANSWER_ROUNDING;
            *has_k = 1;
            *k = -value->exponent;
            return 1;
        }
    }
    *reason = FS_ANSWER_WRONG_VALUE;
    return 1;
}

/* ---- the batch ------------------------------------------------------------------------- */

static void decide_row(const fs_answer_rules *rules, int whole, const unsigned char *text, int32_t length,
                       const fs_gold *gold, int gold_ok, fs_answer_outcome *out, unsigned char *value_text) {
    int32_t start, end, reason, has_k, k, equal, shown;
    fs_reading first, other;
    fs_decimal value;
    int kind;
    out->row = FS_ANSWER_DEFERRED;
    if (!locate(text, length, whole, &start, &end)) {
        out->row = FS_ANSWER_DECIDED;
        out->reason = FS_ANSWER_NO_FINAL_ANSWER;
        return;
    }
    out->span_start = start;
    out->span_end = end;
    if (!gold_ok) return;
    kind = read_answer(rules, text + start, end > start ? end - start : 0, &first, &other);
    if (kind == ANSWER_DEFER) return;
    out->read_start = start + first.begin;
    out->read_end = start + first.end;
    if (kind == ANSWER_SEVERAL) {
        out->row = FS_ANSWER_DECIDED;
        out->reason = FS_ANSWER_SEVERAL_NUMBERS;
        out->other_start = start + other.begin;
        out->other_end = start + other.end;
        return;
    }
    if (!compare(rules, &first, gold, &reason, &has_k, &k, &equal, &value)) return;
    shown = format_fixed(&value, value_text, FS_ANSWER_VALUE_BYTES);
    if (shown < 0) return;
    out->row = FS_ANSWER_DECIDED;
    out->reason = reason;
    out->has_k = has_k;
    out->k = k;
    out->span_start = start + first.begin;
    out->span_end = start + first.end;
    out->value_length = shown;
    out->equal = equal;
}

int32_t fs_decide_answers(const unsigned char *rules, int32_t rules_len, int32_t format,
                          const unsigned char *text, int32_t text_len, const int32_t *rows, int32_t rows_len,
                          int32_t row_count, const unsigned char *golds, int32_t golds_len,
                          const int32_t *gold_spans, int32_t gold_count, fs_answer_outcome *outcomes,
                          int32_t outcomes_len, unsigned char *values, int32_t values_len) {
    fs_answer_rules parsed;
    int32_t r, g;
    if (rules_len < 0 || text_len < 0 || rows_len < 0 || row_count < 0 || golds_len < 0 || gold_count < 0 ||
        outcomes_len < 0 || values_len < 0)
        return FS_ERR_NEGATIVE_LENGTH;
    if ((rules == NULL && rules_len) || (text == NULL && text_len) || (rows == NULL && rows_len) ||
        (golds == NULL && golds_len) || (gold_spans == NULL && gold_count) || (outcomes == NULL && outcomes_len) ||
        (values == NULL && values_len))
        return FS_ERR_NULL_BUFFER;
    if (format != FS_ANSWER_FORMAT_ANSWER_LINE && format != FS_ANSWER_FORMAT_WHOLE) return FS_ERR_BAD_ANSWER_FORMAT;
    if ((int64_t)rows_len < 3 * (int64_t)row_count || outcomes_len < row_count ||
        (int64_t)values_len < FS_ANSWER_VALUE_BYTES * (int64_t)row_count)
        return FS_ERR_BUFFER_TOO_SHORT;
    if (!fs_fits_memory(rules, rules_len, 1) || !fs_fits_memory(text, text_len, 1) ||
        !fs_fits_memory(rows, rows_len, 4) || !fs_fits_memory(golds, golds_len, 1) ||
        !fs_fits_memory(gold_spans, 2 * (int64_t)gold_count, 4) || !fs_fits_memory(outcomes, outcomes_len, sizeof *outcomes) ||
        !fs_fits_memory(values, values_len, 1))
        return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    if (!parse_rules(rules, rules_len, &parsed)) return FS_ERR_BAD_ANSWER_RULES;
    for (r = 0; r < row_count; r++) {
        int32_t offset = rows[3 * r], length = rows[3 * r + 1];
        if (offset < 0 || length < 0 || (int64_t)offset + length > text_len || rows[3 * r + 2] < -1 ||
            rows[3 * r + 2] >= gold_count)
            return FS_ERR_BAD_ANSWER_ROW;
    }
    for (g = 0; g < gold_count; g++) {
        int32_t offset = gold_spans[2 * g], length = gold_spans[2 * g + 1];
        if (offset < 0 || length < 0 || (int64_t)offset + length > golds_len) return FS_ERR_BAD_ANSWER_ROW;
    }
    for (r = 0; r < row_count; r++) {
        int32_t which = rows[3 * r + 2];
        fs_answer_outcome *row_out = outcomes + r;
        fs_gold gold;
        int gold_ok = 0;
        memset(row_out, 0, sizeof *row_out);
        if (which >= 0) gold_ok = parse_gold(golds + gold_spans[2 * which], gold_spans[2 * which + 1], &gold);
        decide_row(&parsed, format == FS_ANSWER_FORMAT_WHOLE, text + rows[3 * r], rows[3 * r + 1], &gold, gold_ok,
                   row_out, values + (int64_t)FS_ANSWER_VALUE_BYTES * r);
    }
    return FS_OK;
}

/* ---- the boxed format: where the answer is ------------------------------------------------- */

/* The boxed rule (the protocols' format_rules.boxed, as finscore.answers.locate.boxed reads it): the
 * boxes are read in order, each from its \boxed{ with a depth counter; a box is complete at the '}'
 * that brings the counter back to 0 (the text up to the next \boxed{ is then skipped), too deep at
 * a '{' that would open level MAX_BOX_DEPTH + 1 (the text after that brace up to the next \boxed{ is
 * skipped), and never closed when the text ends inside it. Every character is read once. */
#define BOX_MARK "\\boxed{"
#define BOX_MARK_LENGTH 7
#define MAX_BOX_DEPTH 8

enum { BOX_NONE, BOX_COMPLETE, BOX_TOO_DEEP, BOX_OPEN };

/* Where the next \boxed{ at or after `from` starts, or -1. */
static int32_t next_box(const unsigned char *text, int32_t length, int32_t from) {
    while (from >= 0 && from <= length - BOX_MARK_LENGTH) {
        const unsigned char *slash = memchr(text + from, '\\', (size_t)(length - BOX_MARK_LENGTH + 1 - from));
        if (slash == NULL) return -1;
        from = (int32_t)(slash - text);
        if (memcmp(text + from, BOX_MARK, BOX_MARK_LENGTH) == 0) return from;
        from++;
    }
    return -1;
}

/* Whether the '{' at i ends a \boxed{ inside the box whose content starts at `start` (a \boxed{
 * cannot reach back over that box's own '{'). Compared byte by byte, last first: most braces are not. */
static int box_brace(const unsigned char *text, int32_t start, int32_t i) {
    return i - start >= BOX_MARK_LENGTH - 1 && text[i - 1] == 'd' && text[i - 2] == 'e' && text[i - 3] == 'x' &&
           text[i - 4] == 'o' && text[i - 5] == 'b' && text[i - 6] == '\\';
}

int32_t fs_locate_boxed(const unsigned char *text, int32_t text_len, int32_t *out, int32_t out_len) {
    /* per box: its kind and content start; the last complete box's content; in the box being
     * read, the content start of each open group that is a \boxed{ (-1: a plain group), and the
     * content of the inner box that closed last */
    int last = BOX_NONE, before = BOX_NONE;
    int32_t last_start = 0, complete_start = 0, complete_end = 0, inner_start = -1, inner_end = -1;
    int32_t opened[MAX_BOX_DEPTH - 1];
    int32_t at;
    if (text_len < 0 || out_len < 0) return FS_ERR_NEGATIVE_LENGTH;
    if ((text == NULL && text_len) || (out == NULL && out_len)) return FS_ERR_NULL_BUFFER;
    if (out_len < 3) return FS_ERR_BUFFER_TOO_SHORT;
    if (!fs_fits_memory(text, text_len, 1) || !fs_fits_memory(out, out_len, 4)) return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    at = text_len ? next_box(text, text_len, 0) : -1;
    while (at >= 0) {
        int32_t start = at + BOX_MARK_LENGTH, i;
        int depth = 1, kind = BOX_OPEN;
        inner_start = inner_end = -1;
        at = -1;
        for (i = start; i < text_len; i++) {
            if (text[i] == '{') {
                if (depth == MAX_BOX_DEPTH) {
                    kind = BOX_TOO_DEEP;
                    at = next_box(text, text_len, i + 1);
                    break;
                }
                opened[depth - 1] = box_brace(text, start, i) ? i + 1 : -1;
                depth++;
            } else if (text[i] == '}') {
                depth--;
                if (depth == 0) {
                    kind = BOX_COMPLETE;
                    complete_start = start;
                    complete_end = i;
                    at = next_box(text, text_len, i + 1);
                    break;
                }
                if (opened[depth - 1] >= 0) {
                    inner_start = opened[depth - 1];
                    inner_end = i;
                }
            }
        }
        before = last;
        last = kind;
        last_start = start;
    }
    out[0] = FS_BOXED_NO_BOX;
    out[1] = out[2] = 0;
    if (last == BOX_TOO_DEEP || (last == BOX_OPEN && before == BOX_TOO_DEEP)) {
        out[0] = FS_BOXED_TOO_DEEP;
    } else if (last == BOX_COMPLETE) {
        out[0] = FS_BOXED_FOUND;
        out[1] = last_start;
        out[2] = complete_end;
    } else if (last == BOX_OPEN && inner_start >= 0) { /* the complete box inside it that closed last */
        out[0] = FS_BOXED_FOUND;
        out[1] = inner_start;
        out[2] = inner_end;
    } else if (last == BOX_OPEN && before == BOX_COMPLETE) { /* none inside it: the complete box before it */
        out[0] = FS_BOXED_FOUND;
        out[1] = complete_start;
        out[2] = complete_end;
    }
    return FS_OK;
}

/* ---- the phrase format: where the marker is ------------------------------------------------ */

/* The phrase rule without conclusions (see the header): PhraseLocator searches the reversed,
 * lower-cased text with one alternative per marker, its words reversed and joined by
 * [ \t*_]{1,8}; the first alternative that matches at a position is that position's match, and a
 * match joined to a letter is passed over (the search goes on one position further). Read forwards,
 * a match ending at `end` is the marker's last word just before `end`, then, going back, a run of
 * separators and the word before, and so on. No word holds a separator, so each run between two
 * words is the whole run of separators there, and it must hold 1 to 8 of them. */
static int phrase_separator(unsigned char c) { return c == ' ' || c == '\t' || c == '*' || c == '_'; }

static int phrase_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static unsigned char phrase_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c; }

typedef struct {
    int32_t begin, length; /* the marker's bytes in the markers text: its words, one ' ' between two */
    /* the earlier marker (-1: none) whose bytes end with the most bytes this one ends with, and how
     * many: where that one fails within them, this one fails in the same way */
    int32_t leader, shared;
} phrase_marker;

/* What a byte is to the phrase rule: its lower case (fold), whether it is a separator (' ', '\t',
 * '*', '_') or a letter (A-Z, a-z; isalpha on ASCII). Tables: the backward pass reads them per byte. */
typedef struct {
    unsigned char fold[256];
    unsigned char separator[256];
    unsigned char letter[256];
} phrase_bytes;

/* Where the occurrence of the marker `pattern` (`length` bytes) that ends at `end` starts (>= 0), or,
 * when none ends there, -1 - how many of its bytes (from its last) were read before the one that failed.
 * The pattern is read from its end: a word's byte matches the text's byte in lower case, a ' ' matches
 * the whole run of separators before the text's position, which must hold 1 to 8. */
static int32_t phrase_start(const phrase_bytes *bytes, const unsigned char *text, int32_t end,
                            const unsigned char *pattern, int32_t length) {
    int32_t at = end, k;
    for (k = length - 1; k >= 0; k--) {
        unsigned char c = pattern[k];
        if (c != ' ') {
            if (at == 0 || bytes->fold[text[at - 1]] != c) break;
            at--;
        } else {
            int32_t stop = at > 9 ? at - 9 : 0, from = at;
            while (at > stop && bytes->separator[text[at - 1]]) at--;
            if (at == from || from - at > 8) break;
        }
    }
    return k < 0 ? at : -1 - (length - 1 - k);
}

/* A call's markers, read: each marker, the byte tables, and which bytes and pairs of bytes a marker can end with. */
typedef struct {
    phrase_marker marker[FS_PHRASE_MOST_MARKERS];
    int32_t count;
    const unsigned char *markers;
    phrase_bytes bytes;
    unsigned char last[256]; /* whether some marker ends with this byte */
    unsigned char pairs[256 * 256 / 8]; /* whether some marker can end with these two bytes (a bit each) */
} phrase_rule;

/* Where the marker that decides the end `end` starts, or -1: the first marker in the order that
 * occurs there decides it, and it is taken when no letter touches it. */
static int32_t phrase_at(const phrase_rule *rule, const unsigned char *text, int32_t text_len, int32_t end) {
    int32_t failed[FS_PHRASE_MOST_MARKERS]; /* how far each marker tried here was read */
    int32_t m;
    for (m = 0; m < rule->count; m++) {
        const phrase_marker *marker = &rule->marker[m];
        int32_t start;
        if (marker->leader >= 0 && failed[marker->leader] < marker->shared) {
            failed[m] = failed[marker->leader]; /* it fails where its leader failed, in the bytes they share */
            continue;
        }
        start = phrase_start(&rule->bytes, text, end, rule->markers + marker->begin, marker->length);
        if (start < 0) {
            failed[m] = -1 - start;
            continue;
        }
        if ((start > 0 && rule->bytes.letter[text[start - 1]]) || (end < text_len && rule->bytes.letter[text[end]]))
            return -1; /* joined to a letter: this end is passed over */
        return start;
    }
    return -1;
}

int32_t fs_locate_phrase(const unsigned char *text, int32_t text_len, const unsigned char *markers,
                         int32_t markers_len, int32_t *out, int32_t out_len) {
    phrase_rule rule;
    phrase_marker *parsed = rule.marker;
    uint64_t final_words[4];
    int finals = 0;
    int32_t plain_to; /* the next eight bytes are looked at together when the pass is at or before this */
    int32_t count = 0, words = 0, i, end, m;
    if (text_len < 0 || markers_len < 0 || out_len < 0) return FS_ERR_NEGATIVE_LENGTH;
    if ((text == NULL && text_len) || markers == NULL || (out == NULL && out_len)) return FS_ERR_NULL_BUFFER;
    if (out_len < 3) return FS_ERR_BUFFER_TOO_SHORT;
    if (!fs_fits_memory(text, text_len, 1) || !fs_fits_memory(markers, markers_len, 1) ||
        !fs_fits_memory(out, out_len, 4))
        return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    if (markers_len < 1 || markers_len > FS_PHRASE_MOST_BYTES) return FS_ERR_BAD_PHRASE_MARKERS;
    /* the markers: words between one ' ' (in a marker) or one '\n' (between two markers), none empty,
     * none holding an upper-case letter or a separator */
    parsed[0].begin = 0;
    for (i = 0; i <= markers_len; i++) {
        unsigned char c = i < markers_len ? markers[i] : '\n';
        if (c == ' ' || c == '\n') {
            if (i == 0 || markers[i - 1] == ' ' || markers[i - 1] == '\n') return FS_ERR_BAD_PHRASE_MARKERS;
            if (++words > FS_PHRASE_MOST_WORDS) return FS_ERR_BAD_PHRASE_MARKERS;
            if (c == '\n') {
                if (count == FS_PHRASE_MOST_MARKERS) return FS_ERR_BAD_PHRASE_MARKERS;
                parsed[count].length = i - parsed[count].begin;
                count++;
                words = 0;
                if (count < FS_PHRASE_MOST_MARKERS) parsed[count].begin = i + 1;
            }
        } else if (phrase_separator(c) || (c >= 'A' && c <= 'Z')) {
            return FS_ERR_BAD_PHRASE_MARKERS;
        }
    }
    rule.count = count;
    rule.markers = markers;
    for (i = 0; i < 256; i++) {
        rule.bytes.fold[i] = phrase_lower((unsigned char)i);
        rule.bytes.separator[i] = (unsigned char)phrase_separator((unsigned char)i);
        rule.bytes.letter[i] = (unsigned char)phrase_letter((unsigned char)i);
    }
    memset(rule.last, 0, sizeof rule.last);
    memset(rule.pairs, 0, sizeof rule.pairs);
    for (m = 0; m < count; m++) {
        phrase_marker *marker = &parsed[m];
        const unsigned char *bytes = markers + marker->begin;
        int32_t j, final = bytes[marker->length - 1];
        rule.last[final] = 1;
        for (j = 0; j < 256; j++) { /* the byte before the final one: the marker's, a separator, or any */
            int before = marker->length == 1              ? 1
                         : bytes[marker->length - 2] == ' ' ? phrase_separator((unsigned char)j)
                                                            : j == bytes[marker->length - 2];
            if (before) rule.pairs[(j * 256 + final) >> 3] |= (unsigned char)(1u << ((j * 256 + final) & 7));
        }
        marker->leader = -1;
        marker->shared = 0;
        for (j = 0; j < m; j++) { /* the longest common ending */
            const phrase_marker *other = &parsed[j];
            int32_t n = 0;
            while (n < marker->length && n < other->length &&
                   bytes[marker->length - 1 - n] == markers[other->begin + other->length - 1 - n])
                n++;
            if (n > marker->shared) {
                marker->leader = j;
                marker->shared = n;
            }
        }
    }
    /* the bytes a marker can end with, in either case: when they are at most 4, eight text bytes that
     * hold none of them are passed over at once (a byte that is one leaves a zero byte in the xor) */
    for (i = 0; i < 256; i++) {
        if (rule.last[rule.bytes.fold[i]]) {
            if (finals < 4) final_words[finals] = (uint64_t)i * UINT64_C(0x0101010101010101);
            finals++;
        }
    }
    out[0] = FS_PHRASE_NONE;
    out[1] = out[2] = 0;
    plain_to = finals <= 4 ? text_len : -1;
    for (end = text_len; end > 0; end--) {
        unsigned char final;
        if (end <= plain_to) {
            while (end >= 8) {
                uint64_t eight, found = 0;
                int f;
                memcpy(&eight, text + end - 8, 8);
                for (f = 0; f < finals; f++) {
                    uint64_t x = eight ^ final_words[f];
                    found |= (x - UINT64_C(0x0101010101010101)) & ~x & UINT64_C(0x8080808080808080);
                }
                if (found) break;
                end -= 8;
            }
            if (end == 0) break;
            plain_to = end - 64; /* these bytes and the next ones one by one (candidates come close together) */
        }
        final = rule.bytes.fold[text[end - 1]];
        if (!rule.last[final]) continue; /* no marker ends here */
        if (end > 1) {
            int32_t pair = rule.bytes.fold[text[end - 2]] * 256 + final;
            if (!(rule.pairs[pair >> 3] & (1u << (pair & 7)))) continue; /* nor with these two bytes */
        }
        {
            int32_t start = phrase_at(&rule, text, text_len, end);
            if (start >= 0) {
                out[0] = FS_PHRASE_FOUND;
                out[1] = start;
                out[2] = end;
                return FS_OK;
            }
        }
    }
    return FS_OK;
}
