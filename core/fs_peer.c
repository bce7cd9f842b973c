/*
 * The eval()-based peer protocols' common rows, in the core (finscore.protocols.batch).
 *
 * FinanceMath / DocMath-Eval and FinanceReasoning / FinMMR call eval() on the model's answer,
 * after (FinanceMath) or on failure of (FinanceReasoning) a cleaning by regular expressions
 * (finscore.protocols.cleaning). Most answers take a few shapes, and this file decides those in
 * one call, each only where every bit is certain to be CPython's; every other row is deferred
 * (outcome 0) and the host decides it with the full reading (finscore.protocols.arith).
 *
 * The shapes read (ASCII only; a raw answer of at most 256 bytes):
 * - a plain decimal `[-+]?[0-9]+(\.[0-9]+)?` of at most 30 bytes: arith.plain_number's value (an
 *   int of at most 10 digits, FinanceReasoning 15, so that it and FinanceMath's x100000 of it are
 *   exact doubles; `01` is eval()'s SyntaxError: deferred; a decimal's digits an integer
 *   M <= 2**53 over 10**f, f <= 22: both exact doubles, one correctly rounded division, float()'s
 *   value);
 * - FinanceMath after str.strip() and str.rstrip("."), FinanceReasoning where its raw eval()
 *   certainly fails first (a `$` anywhere, a final `%`, a space in these shapes): a number of
 *   [0-9,.+-] with `$` and `%` anywhere, which the cleaning deletes, leaving the peers' _IS_NUMBER
 *   (its thousands commas then deleted; none of _UNIT_AFTER, _UNIT_BEFORE, _SUFFIX, _PREFIX can
 *   match a text that starts with a sign or digit, ends with a digit and holds no space); such a
 *   number then ` million`, ` billion` or ` thousand` (the unit deleted, _SUFFIX drops the space;
 *   no scaling); `Label: ` then such a number (letters and one colon, holding no unit or bool word
 *   nor `lambda`; _UNIT_BEFORE keeps the number); nothing left but marks (FinanceMath: eval("0");
 *   FinanceReasoning: None);
 * - None, True, False (FinanceMath after the cleaning also true, false, yes, no), and
 *   FinanceReasoning's tuples of plain decimals (`1,234` is (1, 234), scored by its first element);
 * - FinanceMath: a sentence the cleaning leaves a sentence and eval() refuses as a SyntaxError
 *   before looking up any name (sentence_fails says when): the answer reads 0.
 *
 * Golds: a float, an int or float below 1e10 in magnitude, or a bool, as the host says in
 * `gold_kinds`; FinanceMath's finite and below 1e300, so that math.ceil(x * 1000) cannot overflow.
 *
 * FinanceMath's power-of-ten rule asks whether math.log10(q) is an integer. q == 1 is (log10(1) is
 * +0, C99 Annex F); where q lies more than one part in 1e12 from every power of ten, the true
 * log10(q) is more than 4.3e-13 (over 7 ulps of any value up to 308) from an integer, so no libm
 * within a few ulps (glibc documents 2) returns an integer; every other q is written to `ratios`
 * and the outcome byte carries both answers, for the host's own math.log10 to choose between.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "finscore_core.h"
#include "fs_internal.h"

#define MAX_RAW_BYTES 256
#define MAX_PLAIN_BYTES 30
#define MANTISSA_LIMIT ((uint64_t)1 << 53)
#define NEAR_POWER 1e-12
#define LARGEST_POWER 308
/* outcome bit 7: the host's math.log10(ratios[r]) decides (bits 5-6: the rule if it is an integer) */
#define NEEDS_LOG10 0x80

/* What the peer's eval() gives the (cleaned) answer. */
enum { READ_DEFER, READ_NUMBER, READ_RAW_NUMBER, READ_TUPLE, READ_EMPTY, READ_NONE, READ_TRUE, READ_FALSE,
       READ_SYNTAX_ERROR, READ_VALUE, READ_TEXT };

/* The characters of ASCII str.isspace() holds: what str.strip() removes from ASCII text. */
static int is_python_space(unsigned char c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static int same(const unsigned char *at, int32_t length, const char *word) {
    size_t n = strlen(word);
    return (size_t)length == n && memcmp(at, word, n) == 0;
}

/* Whether `word` occurs in at[0, length), ASCII letters compared lower-cased when `fold`. */
static int contains(const unsigned char *at, int32_t length, const char *word, int fold) {
    int32_t n = (int32_t)strlen(word), i, j;
    for (i = 0; i + n <= length; i++) {
        for (j = 0; j < n; j++) {
            unsigned char c = at[i + j];
            if (fold && c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
            if (c != (unsigned char)word[j]) break;
        }
        if (j == n) return 1;
    }
    return 0;
}

/* The value eval() gives a plain decimal `[-+]?[0-9]+(\.[0-9]+)?` (plain_number), or 0: not
 * decided here. An int keeps at most `integer_digits` digits, so that it (FinanceMath: times
 * 100000) is an exact double. *is_int says whether it is an int. */
static int read_plain(const unsigned char *at, int32_t length, int integer_digits_limit, double *value, int *is_int) {
    int32_t i = 0, integer_digits = 0, fraction_digits = 0;
    uint64_t mantissa = 0;
    int negative = 0, nonzero_seen = 0, significant = 0;
    if (length < 1 || length > MAX_PLAIN_BYTES) return 0;
    if (at[0] == '-' || at[0] == '+') {
        negative = at[0] == '-';
        i = 1;
    }
    for (; i < length && is_digit(at[i]); i++) {
        integer_digits++;
        if (at[i] != '0') nonzero_seen = 1;
        if (nonzero_seen) significant++;
        if (significant > 19) return 0;
        mantissa = mantissa * 10u + (uint64_t)(at[i] - '0');
    }
    if (integer_digits == 0) return 0;
    if (i == length) {
        /* an int: `0`, `000` are 0; `01` is a SyntaxError (the host's) */
        if (at[length - integer_digits] == '0' && nonzero_seen) return 0;
        if (integer_digits > integer_digits_limit) return 0;
        *value = (double)mantissa;
        if (negative && mantissa != 0) *value = -*value;
        *is_int = 1;
        return 1;
    }
    if (at[i] != '.') return 0;
    for (i++; i < length && is_digit(at[i]); i++) {
        fraction_digits++;
        if (at[i] != '0') nonzero_seen = 1;
        if (nonzero_seen) significant++;
        if (significant > 19) return 0;
        mantissa = mantissa * 10u + (uint64_t)(at[i] - '0');
    }
    if (i != length || fraction_digits == 0 || fraction_digits > 22 || mantissa > MANTISSA_LIMIT) return 0;
    *value = (double)mantissa / FS_POWERS_OF_TEN[fraction_digits];
    if (negative) *value = -*value;
    *is_int = 0;
    return 1;
}

/* The peers' _IS_NUMBER: ^[-+]?(\d{1,3}(,\d{3})*|(\d+))(\.\d+)?$ (ASCII, no newline). */
static int is_number_text(const unsigned char *at, int32_t length) {
    int32_t i = 0, run;
    if (i < length && (at[i] == '-' || at[i] == '+')) i++;
    for (run = 0; i < length && is_digit(at[i]); i++) run++;
    if (run == 0) return 0;
    if (i < length && at[i] == ',') {
        if (run > 3) return 0;
        while (i < length && at[i] == ',') {
            if (i + 3 >= length || !is_digit(at[i + 1]) || !is_digit(at[i + 2]) || !is_digit(at[i + 3])) return 0;
            i += 4;
            if (i < length && is_digit(at[i])) return 0;
        }
    }
    if (i == length) return 1;
    if (at[i] != '.') return 0;
    for (i++, run = 0; i < length && is_digit(at[i]); i++) run++;
    return run > 0 && i == length;
}

/* A number the cleaning leaves alone but for its marks: chars of [0-9,.+-$%] only; `out` gets
 * it without `$`, `%` and thousands commas when what is left is _IS_NUMBER, and *empty says
 * whether nothing is left. 0 for anything else. */
static int bare_number(const unsigned char *at, int32_t length, unsigned char *out, int32_t *out_length, int *empty) {
    unsigned char kept[MAX_RAW_BYTES];
    int32_t i, n = 0, m = 0;
    for (i = 0; i < length; i++) {
        unsigned char c = at[i];
        if (c == '$' || c == '%') continue;
        if (!is_digit(c) && c != ',' && c != '.' && c != '+' && c != '-') return 0;
        kept[n++] = c;
    }
    *empty = n == 0;
    if (n == 0) return 1;
    if (!is_number_text(kept, n)) return 0;
    for (i = 0; i < n; i++)
        if (kept[i] != ',') out[m++] = kept[i];
    *out_length = m;
    return 1;
}

/* A label `Word:` before the number (_UNIT_BEFORE keeps the number): letters then one colon,
 * holding no unit word, bool word or `approximately` the cleaning would act on, and not
 * `lambda:` (which eval() reads as a function). */
static int plain_label(int32_t rule, const unsigned char *at, int32_t length) {
    static const char *const words[] = {"million", "billion", "thousand", "us", "rmb", "true", "false",
                                        "approximately", "lambda"};
    int32_t i;
    size_t w;
    if (length < 2 || at[length - 1] != ':') return 0;
    for (i = 0; i + 1 < length; i++)
        if (!is_letter(at[i])) return 0;
    /* FinanceMath's units are case-sensitive (US, USD, RMB; True, False): a folded search is stricter */
    for (w = 0; w < sizeof words / sizeof words[0]; w++)
        if (contains(at, length, words[w], 1)) return 0;
    (void)rule;
    return 1;
}

/* FinanceReasoning's first eval() of `A, B` or `A,B,...` (plain decimals): the tuple, scored by A.
 * Every element must be a plain decimal read here, so that the tuple is certainly valid. */
static int read_tuple(const unsigned char *at, int32_t length, double *value, int *is_int) {
    int32_t start = 0, i, parts = 0;
    for (i = 0; i <= length; i++) {
        if (i < length && at[i] != ',') continue;
        {
            double element;
            int element_is_int;
            int32_t from = start;
            if (parts > 0 && from < i && at[from] == ' ') from++; /* `, ` */
            if (!read_plain(at + from, i - from, 15, &element, &element_is_int)) return 0;
            if (parts == 0) {
                *value = element;
                *is_int = element_is_int;
            }
        }
        parts++;
        start = i + 1;
    }
    return parts >= 2;
}

static int is_name_char(unsigned char c) { return is_letter(c) || is_digit(c) || c == '_'; }

/* Python's keywords and soft keywords: a word that can start or join an expression. */
static int is_keyword(const unsigned char *at, int32_t length) {
    static const char *const keywords[] = {
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
        "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
        "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
        "match", "case", "type", "_"};
    size_t k;
    for (k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (same(at, length, keywords[k])) return 1;
    return 0;
}

/* FinanceMath: a sentence the cleaning leaves a sentence, so that eval() raises SyntaxError before
 * any name is looked up (the answer then reads 0). `at` is the text after str.strip() and
 * str.rstrip("."), ASCII without control characters: it holds no unit word (deleted anywhere), no
 * `=`; with the marks deleted (`out`), no True / False / approximately / ` or ` / `10^` / ` x ` /
 * option `(a)`-`(d)`, at least two spaces (so no regular expression of the cleaning matches: each
 * needs a number running to the end, or at the start), and it starts with two names that are not
 * keywords (`The final ...`): two names in a row are no expression. */
static int sentence_fails(const unsigned char *at, int32_t length, unsigned char *out) {
    static const char *const before_marks[] = {"million", "billion", "thousand", "US", "RMB", "="};
    static const char *const after_marks[] = {"True", "False", "approximately", " or ", "^", " x ", "(a)", "(b)",
                                              "(c)", "(d)"};
    int32_t i, n = 0, spaces = 0, first_end, second_start;
    size_t w;
    for (w = 0; w < sizeof before_marks / sizeof before_marks[0]; w++)
        if (contains(at, length, before_marks[w], 0)) return 0;
    for (i = 0; i < length; i++)
        if (at[i] != '`' && at[i] != '%' && at[i] != '$') out[n++] = at[i];
    for (w = 0; w < sizeof after_marks / sizeof after_marks[0]; w++)
        if (contains(out, n, after_marks[w], 0)) return 0;
    for (i = 0; i < n; i++) {
        spaces += out[i] == ' ';
        /* a name glued to a number (`5if`): CPython 3.11 may read a keyword there; the host's */
        if ((is_letter(out[i]) || out[i] == '_') && i > 0 && is_digit(out[i - 1])) return 0;
    }
    if (spaces < 2 || n == 0 || !(is_letter(out[0]) || out[0] == '_')) return 0;
    for (i = 0; i < n && is_name_char(out[i]); i++) {
    }
    first_end = i;
    if (i == n || out[i] != ' ') return 0;
    while (i < n && out[i] == ' ') i++;
    second_start = i;
    if (i == n || !(is_letter(out[i]) || out[i] == '_')) return 0;
    while (i < n && is_name_char(out[i])) i++;
    return !is_keyword(out, first_end) && !is_keyword(out + second_start, i - second_start);
}

/* What the peer's eval() returns for the answer at[0, length), after the peer's cleaning where
 * the raw text is not read first; the number's text (without marks) goes to `out`, or, for a raw
 * plain decimal (READ_RAW_NUMBER), its value to *value. */
static int read_answer(int32_t rule, const unsigned char *at, int32_t length, unsigned char *out,
                       int32_t *out_length, double *value, int *is_int) {
    int32_t space = -1, spaces = 0, i;
    int empty = 0;
    if (length > MAX_RAW_BYTES) return READ_DEFER;
    if (rule == FS_PEER_RULE_FINANCEREASONING) {
        /* the raw text is eval()ed first: a plain decimal, or a constant, is its value */
        if (read_plain(at, length, 15, value, is_int)) return READ_RAW_NUMBER;
        if (memchr(at, ',', (size_t)length) != NULL && read_tuple(at, length, value, is_int)) return READ_TUPLE;
        if (length > 0 && is_letter(at[0])) {
            if (same(at, length, "None")) return READ_NONE;
            if (same(at, length, "True")) return READ_TRUE;
            if (same(at, length, "False")) return READ_FALSE;
        }
        /* the first eval() must fail with a SyntaxError before any name is read: a `$` anywhere, or a
         * `%` at the end; or a label or unit word beside the number (below). No white space around. */
        if (length == 0 || is_python_space(at[0]) || is_python_space(at[length - 1])) return READ_DEFER;
    } else {
        while (length > 0 && is_python_space(at[0])) {
            at++;
            length--;
        }
        while (length > 0 && is_python_space(at[length - 1])) length--;
    }
    /* the cleaning: str.strip() (done), str.rstrip("."), then the marks, bool words, units */
    if (rule == FS_PEER_RULE_FINANCEMATH) {
        while (length > 0 && at[length - 1] == '.') length--;
        if (length > 0 && is_letter(at[0])) {
            if (same(at, length, "None")) return READ_NONE;
            if (same(at, length, "True") || same(at, length, "true") || same(at, length, "yes")) return READ_TRUE;
            if (same(at, length, "False") || same(at, length, "false") || same(at, length, "no")) return READ_FALSE;
        }
    } else {
        int raw_fails = memchr(at, '$', (size_t)length) != NULL || at[length - 1] == '%';
        while (length > 0 && at[length - 1] == '.') length--;
        for (i = 0; i < length; i++)
            if (at[i] == ' ') raw_fails = 1; /* `5 million`, `Answer: 5`: a SyntaxError (shapes below) */
        if (!raw_fails) return READ_DEFER;
    }
    for (i = 0; i < length; i++) {
        if (at[i] == ' ') {
            if (space >= 0) spaces++;
            else space = i;
        } else if (at[i] < 0x21 || at[i] > 0x7E) {
            return READ_DEFER;
        }
    }
    if (spaces > 0) { /* two spaces or more: a sentence, or the host's */
        if (rule == FS_PEER_RULE_FINANCEMATH && sentence_fails(at, length, out)) return READ_SYNTAX_ERROR;
        return READ_DEFER;
    }
    if (space < 0) {
        if (!bare_number(at, length, out, out_length, &empty)) return READ_DEFER;
        return empty ? READ_EMPTY : READ_NUMBER;
    }
    /* `N million` (the unit deleted, _SUFFIX drops the space) or `Label: N` (_UNIT_BEFORE keeps N) */
    if (same(at + space + 1, length - space - 1, "million") || same(at + space + 1, length - space - 1, "billion") ||
        same(at + space + 1, length - space - 1, "thousand")) {
        if (!bare_number(at, space, out, out_length, &empty) || empty) return READ_DEFER;
        return READ_NUMBER;
    }
    if (plain_label(rule, at, space)) {
        if (!bare_number(at + space + 1, length - space - 1, out, out_length, &empty) || empty) return READ_DEFER;
        return READ_NUMBER;
    }
    return READ_DEFER;
}

/* eps = abs(gt) * tolerance; pred >= gt - eps and pred <= gt + eps */
static int within(double pred, double gt, double tolerance) {
    double eps = fabs(gt) * tolerance;
    return pred >= gt - eps && pred <= gt + eps;
}

/* 0: math.log10(q) is certainly not an integer; 1: q lies within one part in 1e12 of a power of
 * ten, where only the host's math.log10 can say. q >= 1, finite. */
static int near_power_of_ten(double q) {
    double power = 1.0, next;
    int k = 0;
    for (;;) {
        if (fabs(q - power) <= power * NEAR_POWER) return 1;
        if (k == LARGEST_POWER) return 0;
        next = k < 22 ? FS_POWERS_OF_TEN[k + 1] : power * 10.0;
        if (q < next && fabs(next - q) > next * NEAR_POWER) return 0;
        power = next;
        k++;
    }
}

static unsigned char outcome(int reason, int accepted) {
    return (unsigned char)((reason << 1) | (accepted ? 1 : 0));
}

/* FinanceMath's compare_two_numbers(p, gt) (p a plain number, gt a number): its outcome, 0, or
 * NEEDS_LOG10 with the outcome of either answer of math.log10(*ratio). */
static unsigned char compare_two_numbers(double p, double gt, double *ratio) {
    double v1 = fmax(fabs(gt), fabs(p)), v2 = fmin(fabs(gt), fabs(p));
    int reason = 0, needs_log10 = 0, if_integral = 0;
    if (v1 != 0 && v2 != 0) {
        double q = v1 / v2;
        if (isinf(q)) return 0; /* int(math.log10(inf)) raises OverflowError: the host's */
        if (q == 1.0) /* log10(1) is +0 (C99 Annex F.9.3.8): an integer in every conforming libm */
            return outcome(p == gt ? FS_PEER_EXACT : p == -gt ? FS_PEER_SIGN_IGNORED : FS_PEER_POWER_OF_TEN_RATIO, 1);
        if (near_power_of_ten(q)) {
            needs_log10 = 1;
            *ratio = q;
            if_integral = p == gt ? 0 : p == -gt ? 1 : 2;
        }
    }
    if (v2 <= v1 / 50 && within(v2 * 100, v1, 0.0015)) reason = FS_PEER_PERCENT_SCALE;
    else if (v2 <= v1 / 500 && within(v2 * 1000, v1, 0.0015)) reason = FS_PEER_THOUSAND_SCALE;
    else if (v2 <= v1 / 50000 && within(v2 * 100000, v1, 0.0015)) reason = FS_PEER_HUNDRED_THOUSAND_SCALE;
    else if (ceil(v1 * 1000) / 1000 == ceil(v2 * 1000) / 1000) reason = FS_PEER_THREE_DECIMAL_CEILING;
    {
        unsigned char decided;
        if (reason) decided = outcome(p == gt ? FS_PEER_EXACT : reason, 1);
        else if (within(p, gt, 0.0015)) decided = outcome(p == gt ? FS_PEER_EXACT : FS_PEER_WITHIN_RELATIVE_TOLERANCE, 1);
        else decided = outcome(FS_PEER_OUTSIDE_TOLERANCE, 0);
        if (needs_log10) return (unsigned char)(NEEDS_LOG10 | (if_integral << 5) | decided);
        return decided;
    }
}

/* ---- FinanceMath's whole cleaning (cleaning.clean_answer), then eval() of what it leaves ----
 *
 * Where the shapes above defer, a FinanceMath answer is cleaned here step by step in the peer's
 * order, over code points: ASCII without control characters (but the outer white space
 * str.strip() removes) and the five signs £ € ¥ ° ₤ (U+00A3, U+20AC, U+00A5, U+00B0, U+20A4) and
 * ≈ (U+2248); any other character defers the row. None of these is a digit, white space or a line
 * end, so every regular expression of the cleaning is decided by hand exactly as `re` decides it
 * (\d is [0-9], `$` is the end, [^...] one code point). The text eval() gets is then read as
 * - a plain decimal (read_plain: FinanceMath's value);
 * - arithmetic of plain decimals with + - * / and brackets (`1,000` is a tuple: deferred),
 *   evaluated as CPython does: ints exact (every int below 2**53, the answer below 1e10, else
 *   deferred), an int with a float as the float of the int, int / int and every float operation
 *   one correctly rounded IEEE double operation; a zero divisor, a value that is not finite, `**`,
 *   `//`, `()`, a call or a literal read_plain does not read (`.5`, `1.`, `01`) defer; any other
 *   failure of the grammar is eval()'s SyntaxError (the answer reads 0);
 * - text that starts with two names, neither a keyword (`The final answer is 30`): a SyntaxError
 *   before any name is looked up; only ASCII letters, digits, spaces and `.,:;?!()+-* /&`, no name
 *   glued to a number and few brackets, so that the host's tokenizer (arith) raises the same;
 * - None, True and False (the cleaning's bool words). */
#define CP_POUND 0xA3u
#define CP_YEN 0xA5u
#define CP_DEGREE 0xB0u
#define CP_LIRA 0x20A4u
#define CP_EURO 0x20ACu
#define CP_ALMOST 0x2248u
#define MAX_EVAL_DEPTH 40
#define MAX_SENTENCE_BRACKETS 40
#define INT_EXACT_LIMIT 9007199254740992.0 /* 2**53 */
#define INT_ANSWER_LIMIT 1e10

typedef struct {
    uint32_t c[MAX_RAW_BYTES];
    int32_t n;
} codes;

/* at[0, length) as code points, or 0 where a character is not one read here. */
static int decode(const unsigned char *at, int32_t length, codes *out) {
    int32_t i = 0;
    out->n = 0;
    while (i < length) {
        unsigned char b = at[i];
        uint32_t c;
        if (b < 0x80) {
            c = b;
            i++;
        } else if (b == 0xC2 && i + 1 < length && (at[i + 1] == 0xA3 || at[i + 1] == 0xA5 || at[i + 1] == 0xB0)) {
            c = at[i + 1];
            i += 2;
        } else if (b == 0xE2 && i + 2 < length && at[i + 1] == 0x82 && (at[i + 2] == 0xAC || at[i + 2] == 0xA4)) {
            c = at[i + 2] == 0xAC ? CP_EURO : CP_LIRA;
            i += 3;
        } else if (b == 0xE2 && i + 2 < length && at[i + 1] == 0x89 && at[i + 2] == 0x88) {
            c = CP_ALMOST;
            i += 3;
        } else {
            return 0;
        }
        out->c[out->n++] = c;
    }
    return 1;
}

static int is_digit_code(uint32_t c) { return c >= '0' && c <= '9'; }

/* Where `word` (ASCII) first occurs in t from `from`, or -1. */
static int32_t find_word(const codes *t, int32_t from, const char *word) {
    int32_t m = (int32_t)strlen(word), i, j;
    for (i = from; i + m <= t->n; i++) {
        for (j = 0; j < m && t->c[i + j] == (uint32_t)(unsigned char)word[j]; j++) {
        }
        if (j == m) return i;
    }
    return -1;
}

static int32_t find_code(const codes *t, uint32_t c) {
    int32_t i;
    for (i = 0; i < t->n; i++)
        if (t->c[i] == c) return i;
    return -1;
}

/* str.replace(word, "") (left to right, without overlap) */
static void delete_word(codes *t, const char *word) {
    int32_t m = (int32_t)strlen(word), i = 0, k = 0, found;
    if (find_word(t, 0, word) < 0) return;
    while (i < t->n) {
        found = i + m <= t->n ? find_word(t, i, word) : -1;
        if (found != i) {
            t->c[k++] = t->c[i++];
        } else {
            i += m;
        }
    }
    t->n = k;
}

static void delete_code(codes *t, uint32_t c) {
    int32_t i, k = 0;
    for (i = 0; i < t->n; i++)
        if (t->c[i] != c) t->c[k++] = t->c[i];
    t->n = k;
}

/* t[from, to) becomes the whole text */
static void keep(codes *t, int32_t from, int32_t to) {
    int32_t i;
    for (i = from; i < to; i++) t->c[i - from] = t->c[i];
    t->n = to - from;
}

/* the white space these texts can hold: ' ', tab, line feed, carriage return */
static int is_line_space(uint32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* str.strip() of a text whose only white space is is_line_space's */
static void strip_spaces(codes *t) {
    int32_t from = 0, to = t->n;
    while (from < to && is_line_space(t->c[from])) from++;
    while (to > from && is_line_space(t->c[to - 1])) to--;
    keep(t, from, to);
}

/* Whether t[from, to) is `(?:[\d,]*\.*\d+)` whole: digits at the end, and before them digits and commas then dots. */
static int number_body(const codes *t, int32_t from, int32_t to) {
    int32_t end = to;
    while (end > from && is_digit_code(t->c[end - 1])) end--;
    if (end == to) return 0;
    while (end > from && t->c[end - 1] == '.') end--;
    while (end > from && (is_digit_code(t->c[end - 1]) || t->c[end - 1] == ',')) end--;
    return end == from;
}

/* `[-+]?(?:[\d,]*\.*\d+)` whole */
static int number_whole(const codes *t, int32_t from, int32_t to) {
    if (from < to && (t->c[from] == '-' || t->c[from] == '+') && number_body(t, from + 1, to)) return 1;
    return number_body(t, from, to);
}

/* _IS_NUMBER on ASCII code points (no line end can occur) */
static int is_number_codes(const codes *t) {
    unsigned char ascii[MAX_RAW_BYTES];
    int32_t i;
    for (i = 0; i < t->n; i++) {
        if (t->c[i] > 0x7E) return 0;
        ascii[i] = (unsigned char)t->c[i];
    }
    return is_number_text(ascii, t->n);
}

/* The cleaning's regular expressions, each `match` then the group of `search` (which finds the
 * match at 0 first, with the same backtracking). */
static void unit_rules(codes *t) {
    int32_t i, last_space = -1, first_space = -1, spaces = 0, last_digit = -1;
    /* _UNIT_AFTER: NUMBER ' ' [^0-9 ]+ $: the space is the last one; the group is the text before it */
    for (i = 0; i < t->n; i++)
        if (t->c[i] == ' ') last_space = i;
    if (last_space >= 0 && last_space + 1 < t->n && number_whole(t, 0, last_space)) {
        for (i = last_space + 1; i < t->n && !is_digit_code(t->c[i]); i++) {
        }
        if (i == t->n) keep(t, 0, last_space);
    }
    /* _UNIT_BEFORE: [^0-9 ]+ ' ' NUMBER $: one space; the group is the text after it */
    for (i = 0; i < t->n; i++) {
        if (t->c[i] == ' ') {
            spaces++;
            if (first_space < 0) first_space = i;
        }
    }
    if (spaces == 1 && first_space > 0 && number_whole(t, first_space + 1, t->n)) {
        for (i = 0; i < first_space && !is_digit_code(t->c[i]); i++) {
        }
        if (i == first_space) keep(t, first_space + 1, t->n);
    }
    /* _SUFFIX: NUMBER [^\d]{1,2} $: the number runs to the last digit */
    for (i = 0; i < t->n; i++)
        if (is_digit_code(t->c[i])) last_digit = i;
    if (last_digit >= 0 && (t->n - 1 - last_digit == 1 || t->n - 1 - last_digit == 2) &&
        number_whole(t, 0, last_digit + 1))
        keep(t, 0, last_digit + 1);
    /* _PREFIX: [^-+\d]{1,2} (?:[\d,]*\.*\d+) $: two such characters where they leave a number, else one */
    if (t->n >= 2 && !is_digit_code(t->c[0]) && t->c[0] != '-' && t->c[0] != '+') {
        int second = !is_digit_code(t->c[1]) && t->c[1] != '-' && t->c[1] != '+';
        if (second && number_body(t, 2, t->n)) keep(t, 2, t->n);
        else if (number_body(t, 1, t->n)) keep(t, 1, t->n);
    }
}

/* clean_answer with FinanceMath's switches; 0: a step not reproduced here (the host's) */
static int clean_financemath(const unsigned char *at, int32_t length, codes *t, int *boolean) {
    static const char *const units[] = {"million", "billion", "thousand", "US", "USD", "RMB"};
    int32_t from = 0, to, i;
    size_t u;
    *boolean = -1;
    while (length > 0 && is_python_space(at[0])) {
        at++;
        length--;
    }
    while (length > 0 && is_python_space(at[length - 1])) length--;
    if (!decode(at, length, t)) return 0;
    for (i = 0; i < t->n; i++)
        if ((t->c[i] < 0x20 && !is_line_space(t->c[i])) || t->c[i] == 0x7F) return 0;
    to = t->n;
    while (to > from && t->c[to - 1] == '.') to--;
    t->n = to;
    delete_code(t, CP_POUND);
    delete_code(t, CP_EURO);
    delete_code(t, CP_YEN);
    for (u = 0; u < sizeof units / sizeof units[0]; u++) delete_word(t, units[u]);
    if (find_code(t, '=') >= 0) {
        for (i = t->n - 1; t->c[i] != '='; i--) {
        }
        keep(t, i + 1, t->n);
        strip_spaces(t);
    }
    if (find_code(t, CP_ALMOST) >= 0) {
        for (i = t->n - 1; t->c[i] != CP_ALMOST; i--) {
        }
        keep(t, i + 1, t->n);
        strip_spaces(t);
    }
    delete_code(t, '`');
    delete_code(t, '%');
    delete_code(t, '$');
    delete_code(t, CP_DEGREE);
    {
        static const char *const bools[] = {"true", "yes", "false", "no"};
        size_t b;
        for (b = 0; b < 4; b++)
            if (t->n == (int32_t)strlen(bools[b]) && find_word(t, 0, bools[b]) == 0) *boolean = b < 2;
        if (*boolean < 0 && (find_word(t, 0, "True") >= 0 || find_word(t, 0, "False") >= 0))
            *boolean = find_word(t, 0, "True") >= 0;
        if (*boolean >= 0) return 1;
    }
    if (find_word(t, 0, "approximately") >= 0) {
        delete_word(t, "approximately");
        strip_spaces(t);
    }
    {
        int32_t or_at = find_word(t, 0, " or ");
        if (or_at >= 0) t->n = or_at;
    }
    /* `$` also matches before a final line feed, which the rules below do not read */
    if (t->n > 0 && t->c[t->n - 1] == '\n') return 0;
    unit_rules(t);
    if (find_word(t, 0, "10^") >= 0) return 0; /* math.pow(10, k): the host's */
    if (find_word(t, 0, " x ") >= 0) {
        int32_t k = 0;
        for (i = 0; i < t->n;) {
            if (i + 3 <= t->n && t->c[i] == ' ' && t->c[i + 1] == 'x' && t->c[i + 2] == ' ') {
                t->c[k++] = '*';
                i += 3;
            } else {
                t->c[k++] = t->c[i++];
            }
        }
        t->n = k;
    }
    if (is_number_codes(t)) delete_code(t, ',');
    if (find_word(t, 0, "(a)") >= 0 || find_word(t, 0, "(b)") >= 0 || find_word(t, 0, "(c)") >= 0 ||
        find_word(t, 0, "(d)") >= 0)
        return 0; /* the option as a string: the host's */
    if (t->n == 0) {
        t->c[0] = '0';
        t->n = 1;
    }
    return 1;
}

/* eval() of arithmetic: the value, and whether it is an int */
typedef struct {
    double v;
    int is_int;
} number;

enum { EVAL_OK, EVAL_SYNTAX_ERROR, EVAL_DEFER };

typedef struct {
    const unsigned char *s;
    int32_t n, at, depth;
} parser;

static void skip_spaces(parser *p) {
    while (p->at < p->n && p->s[p->at] == ' ') p->at++;
}

static int parse_sum(parser *p, number *out);

static int parse_factor(parser *p, number *out) {
    int status;
    skip_spaces(p);
    if (p->at == p->n) return EVAL_SYNTAX_ERROR;
    if (++p->depth > MAX_EVAL_DEPTH) return EVAL_DEFER;
    if (p->s[p->at] == '-' || p->s[p->at] == '+') {
        int negative = p->s[p->at] == '-';
        p->at++;
        status = parse_factor(p, out);
        if (status == EVAL_OK && negative) out->v = -out->v;
    } else if (p->s[p->at] == '(') {
        p->at++;
        status = parse_sum(p, out);
        if (status == EVAL_OK) {
            skip_spaces(p);
            if (p->at == p->n || p->s[p->at] != ')') status = EVAL_SYNTAX_ERROR;
            else p->at++;
        }
    } else if (is_digit(p->s[p->at])) {
        int32_t start = p->at;
        while (p->at < p->n && (is_digit(p->s[p->at]) || p->s[p->at] == '.')) p->at++;
        status = read_plain(p->s + start, p->at - start, 10, &out->v, &out->is_int) ? EVAL_OK : EVAL_DEFER;
    } else if (p->s[p->at] == '*' || p->s[p->at] == '.') {
        status = EVAL_DEFER; /* a starred expression, a literal `.5`: the host's */
    } else {
        status = EVAL_SYNTAX_ERROR;
    }
    p->depth--;
    return status;
}

static int parse_product(parser *p, number *out) {
    int status = parse_factor(p, out);
    while (status == EVAL_OK) {
        number right;
        unsigned char op;
        skip_spaces(p);
        if (p->at == p->n || (p->s[p->at] != '*' && p->s[p->at] != '/')) break;
        op = p->s[p->at++];
        status = parse_factor(p, &right);
        if (status != EVAL_OK) break;
        if (op == '*') {
            out->v = out->v * right.v;
        } else {
            if (right.v == 0) return EVAL_DEFER; /* ZeroDivisionError */
            out->v = out->v / right.v;
        }
        out->is_int = op == '*' && out->is_int && right.is_int;
        if (!isfinite(out->v) || (out->is_int && fabs(out->v) >= INT_EXACT_LIMIT)) return EVAL_DEFER;
    }
    return status;
}

static int parse_sum(parser *p, number *out) {
    int status;
    if (++p->depth > MAX_EVAL_DEPTH) return EVAL_DEFER;
    status = parse_product(p, out);
    while (status == EVAL_OK) {
        number right;
        unsigned char op;
        skip_spaces(p);
        if (p->at == p->n || (p->s[p->at] != '+' && p->s[p->at] != '-')) break;
        op = p->s[p->at++];
        status = parse_product(p, &right);
        if (status != EVAL_OK) break;
        out->v = op == '+' ? out->v + right.v : out->v - right.v;
        out->is_int = out->is_int && right.is_int;
        if (!isfinite(out->v) || (out->is_int && fabs(out->v) >= INT_EXACT_LIMIT)) return EVAL_DEFER;
    }
    p->depth--;
    return status;
}

/* eval() of s[0, n), characters of [0-9.+-* /() ] only */
static int eval_arithmetic(const unsigned char *s, int32_t n, double *value) {
    parser p;
    number result;
    int status;
    int32_t i, j;
    /* what Python reads and this grammar does not: `**`, `//`, `()`, a call `x(`; a number glued to `.` */
    for (i = 0; i < n; i++) {
        if (s[i] != '*' && s[i] != '/' && s[i] != '(' && s[i] != ')' && !is_digit(s[i])) continue;
        for (j = i + 1; j < n && s[j] == ' '; j++) {
        }
        if (j == n) break;
        if ((s[i] == '*' && s[j] == '*') || (s[i] == '/' && s[j] == '/') || (s[i] == '(' && s[j] == ')') ||
            ((s[i] == ')' || is_digit(s[i])) && s[j] == '('))
            return EVAL_DEFER;
    }
    p.s = s;
    p.n = n;
    p.at = 0;
    p.depth = 0;
    status = parse_sum(&p, &result);
    if (status == EVAL_OK) {
        skip_spaces(&p);
        if (p.at != n) status = EVAL_SYNTAX_ERROR;
    }
    if (status != EVAL_OK) return status;
    if (result.is_int ? !(fabs(result.v) < INT_ANSWER_LIMIT) : !(fabs(result.v) < 1e300)) return EVAL_DEFER;
    *value = result.v == 0 ? 0.0 : result.v; /* no -0.0 (the comparison never tells them apart) */
    return EVAL_OK;
}

/* Whether at[0, length) starts a name that is not a keyword: its end, or -1. */
static int32_t plain_name(const unsigned char *s, int32_t n, int32_t at) {
    int32_t i = at;
    if (at >= n || !(is_letter(s[at]) || s[at] == '_')) return -1;
    while (i < n && is_name_char(s[i])) i++;
    if (is_keyword(s + at, i - at)) return -1;
    /* a string prefix glued to a quote (`f"`, `rb'`) is a string: not read here */
    if (i < n && (s[i] == '\'' || s[i] == '"') && i - at <= 2) return -1;
    return i;
}

/* Whether the host's tokenizer (arith.tokenize) can say nothing but a SyntaxError or its tokens of
 * s[0, n): ASCII only (no non-ASCII name), no form feed, no name glued to a number (`5if`, `1.if`:
 * CPython 3.11 may read a keyword), fewer brackets than its nesting bound, and none of the keywords
 * its parser does not read. */
static int host_tokenizer_reads(const unsigned char *s, int32_t n) {
    static const char *const unread[] = {"lambda", "yield", "await", "async"};
    int32_t i, brackets = 0;
    size_t w;
    for (i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c > 0x7E || (c < 0x20 && !is_line_space(c))) return 0;
        if ((is_letter(c) || c == '_') && i > 0 &&
            (is_digit(s[i - 1]) || (s[i - 1] == '.' && i > 1 && is_digit(s[i - 2]))))
            return 0;
        brackets += c == '(' || c == '[' || c == '{';
    }
    if (brackets > MAX_SENTENCE_BRACKETS) return 0;
    for (w = 0; w < sizeof unread / sizeof unread[0]; w++)
        if (contains(s, n, unread[w], 0)) return 0;
    return 1;
}

/* eval()'s SyntaxError from the tokenizer: a string never closed on its line, a closing bracket with
 * none open, or a bracket never closed (host_tokenizer_reads said nothing else can be raised; strings
 * and comments are skipped as the tokenizer skips them; no backslash, no triple quote). */
static int tokenizer_fails(const unsigned char *s, int32_t n) {
    int32_t i, depth = 0;
    if (memchr(s, '\\', (size_t)n) != NULL) return 0;
    for (i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '#') {
            while (i < n && s[i] != '\n' && s[i] != '\r') i++;
        } else if (c == '\'' || c == '"') {
            if (i + 2 < n && s[i + 1] == c && s[i + 2] == c) return 0;
            for (i++; i < n && s[i] != c; i++)
                if (s[i] == '\n' || s[i] == '\r') return 1;
            if (i == n) return 1;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0) return 1;
        }
    }
    return depth != 0;
}

/* A whole string literal `"..."` or `'...'` (no escape, no line end, not triple, no prefix) */
static int whole_string(const unsigned char *s, int32_t n) {
    int32_t i = 0, end = n;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    while (end > i && is_line_space(s[end - 1])) end--;
    if (end - i < 2 || (s[i] != '"' && s[i] != '\'') || s[end - 1] != s[i]) return 0;
    if (end - i >= 3 && s[i + 1] == s[i] && s[i + 2] == s[i]) return 0;
    return memchr(s + i + 1, s[i], (size_t)(end - i - 2)) == NULL && memchr(s + i + 1, '\\', (size_t)(end - i - 2)) == NULL &&
           memchr(s + i + 1, '\n', (size_t)(end - i - 2)) == NULL && memchr(s + i + 1, '\r', (size_t)(end - i - 2)) == NULL;
}

/* eval()'s SyntaxError from its first two tokens: a name (not a keyword) or a plain number, then, after
 * white space, a name, a number, a string or a `:` (not `:=`): `The final answer is 30`, `Step 4: ...`,
 * `Answer: 25,000 units`, `Investor's ...`, `200 000` (the host's tokenizer reads the whole text
 * first: host_tokenizer_reads must hold). */
static int first_tokens_fail(const unsigned char *s, int32_t n) {
    int32_t at = 0, end;
    while (at < n && (s[at] == ' ' || s[at] == '\t')) at++; /* eval() drops leading spaces and tabs */
    if (at < n && is_digit(s[at])) { /* a plain number: digits, maybe a point and digits */
        end = at;
        while (end < n && is_digit(s[end])) end++;
        if (end < n && s[end] == '.') {
            end++;
            while (end < n && is_digit(s[end])) end++;
        }
        if (end < n && s[end] == '.') return 0;
    } else {
        end = plain_name(s, n, at);
        if (end < 0) return 0;
    }
    if (end == n || !is_line_space(s[end])) {
        /* glued: only `Word'...` and `Word:` read here */
        if (end < n && is_letter(s[at]) && (s[end] == '\'' || s[end] == '"')) return 1;
        return end < n && s[end] == ':' && !(end + 1 < n && s[end + 1] == '=');
    }
    while (end < n && is_line_space(s[end])) end++;
    if (end == n) return 0;
    if (s[end] == ':') return !(end + 1 < n && s[end + 1] == '=');
    if (is_digit(s[end]) || s[end] == '\'' || s[end] == '"') return 1;
    return plain_name(s, n, end) >= 0;
}

/* eval() of `A, B, ...` (arithmetic elements, a comma only outside brackets, maybe a final one): a
 * tuple, which the peer makes a list (READ_TEXT: no number); READ_SYNTAX_ERROR, or READ_DEFER where an
 * element is the host's. */
static int eval_tuple(const unsigned char *s, int32_t n) {
    int32_t i, start = 0, depth = 0;
    int failed = 0;
    double element;
    for (i = 0; i <= n; i++) {
        if (i < n) {
            depth += s[i] == '(';
            depth -= s[i] == ')';
            if (s[i] != ',') continue;
            if (depth != 0) return READ_DEFER;
        } else {
            int32_t j = start;
            while (j < n && s[j] == ' ') j++;
            if (j == n) break; /* `A, B,`: a final comma */
        }
        switch (eval_arithmetic(s + start, i - start, &element)) {
        case EVAL_OK:
            break;
        case EVAL_SYNTAX_ERROR:
            failed = 1;
            break;
        default:
            return READ_DEFER;
        }
        start = i + 1;
    }
    return failed ? READ_SYNTAX_ERROR : READ_TEXT;
}

/* FinanceMath's reading where the shapes above defer: READ_VALUE (*value), READ_TRUE / READ_FALSE,
 * READ_NONE, READ_SYNTAX_ERROR or READ_DEFER. */
static int read_cleaned(const unsigned char *at, int32_t length, double *value) {
    codes t;
    unsigned char s[MAX_RAW_BYTES];
    int32_t i;
    int boolean, arithmetic = 1, status, is_int, commas = 0;
    if (length > MAX_RAW_BYTES || !clean_financemath(at, length, &t, &boolean)) return READ_DEFER;
    if (boolean >= 0) return boolean ? READ_TRUE : READ_FALSE;
    for (i = 0; i < t.n; i++) {
        uint32_t c = t.c[i];
        if (c > 0x7E) return READ_DEFER;
        s[i] = (unsigned char)c;
        if (!is_digit((unsigned char)c) && strchr(".+-*/() ,", (int)c) == NULL) arithmetic = 0;
        commas += c == ',';
    }
    if (read_plain(s, t.n, 10, value, &is_int)) return READ_VALUE;
    if (arithmetic && commas) return eval_tuple(s, t.n);
    if (arithmetic) {
        status = eval_arithmetic(s, t.n, value);
        return status == EVAL_OK ? READ_VALUE : status == EVAL_SYNTAX_ERROR ? READ_SYNTAX_ERROR : READ_DEFER;
    }
    if (same(s, t.n, "None")) return READ_NONE;
    if (!host_tokenizer_reads(s, t.n)) return READ_DEFER;
    if (tokenizer_fails(s, t.n) || first_tokens_fail(s, t.n)) return READ_SYNTAX_ERROR;
    if (whole_string(s, t.n)) return READ_TEXT;
    return READ_DEFER;
}

static unsigned char decide_row(int32_t rule, const unsigned char *at, int32_t length, double gt,
                                unsigned char gold_kind, double *ratio) {
    unsigned char cleaned[MAX_RAW_BYTES];
    int32_t cleaned_length = 0;
    double p = 0;
    int is_int = 0, read;
    if (gold_kind > FS_PEER_GOLD_BOOL) return 0;
    if (gold_kind == FS_PEER_GOLD_NUMBER && !(fabs(gt) < 1e10)) return 0; /* maybe an int of 10**10 or more */
    read = read_answer(rule, at, length, cleaned, &cleaned_length, &p, &is_int);
    if (read == READ_DEFER && rule == FS_PEER_RULE_FINANCEMATH) {
        read = read_cleaned(at, length, &p); /* the whole cleaning, then numbers and arithmetic */
        if (read == READ_VALUE) read = READ_RAW_NUMBER;
    }
    if (read == READ_DEFER) return 0;
    if (read == READ_TUPLE) { /* FinanceReasoning: the first element of a tuple of plain decimals */
        if (gold_kind == FS_PEER_GOLD_BOOL) return outcome(FS_PEER_TUPLE_FIRST_ELEMENT, p == gt);
        return outcome(FS_PEER_TUPLE_FIRST_ELEMENT, within(p, gt, 0.002));
    }
    if (read == READ_RAW_NUMBER) { /* FinanceReasoning's first eval() of a raw plain decimal */
        read = READ_NUMBER;
    } else if (read == READ_NUMBER &&
               !read_plain(cleaned, cleaned_length, rule == FS_PEER_RULE_FINANCEMATH ? 10 : 15, &p, &is_int)) {
        return 0;
    }
    if (rule == FS_PEER_RULE_FINANCEREASONING) {
        if (read == READ_NONE || read == READ_EMPTY) return outcome(FS_PEER_EMPTY_OR_NONE, 0);
        if (read == READ_TRUE || read == READ_FALSE || gold_kind == FS_PEER_GOLD_BOOL)
            return outcome(FS_PEER_BOOL_EQUALITY, (read == READ_NUMBER ? p : read == READ_TRUE ? 1.0 : 0.0) == gt);
        if (within(p, gt, 0.002)) return outcome(p == gt ? FS_PEER_EXACT : FS_PEER_WITHIN_RELATIVE_TOLERANCE, 1);
        return outcome(FS_PEER_OUTSIDE_TOLERANCE, 0);
    }
    /* FinanceMath: None is no number; an emptied answer is eval("0"); True / False compare as 1 / 0 */
    if (read == READ_NONE) return outcome(FS_PEER_NON_NUMERIC_VALUE, 0);
    if (read == READ_TEXT) /* a str or a list: == a bool is False; no number for compare_two_numbers */
        return outcome(gold_kind == FS_PEER_GOLD_BOOL ? FS_PEER_BOOL_EQUALITY : FS_PEER_NON_NUMERIC_VALUE, 0);
    if (read != READ_NUMBER) p = read == READ_TRUE ? 1.0 : 0.0; /* a SyntaxError reads 0 too */
    if (gold_kind == FS_PEER_GOLD_BOOL) {
        if (read == READ_SYNTAX_ERROR) return outcome(FS_PEER_EVAL_FAILED_ZERO, p == gt);
        return outcome(FS_PEER_BOOL_EQUALITY, p == gt);
    }
    if (!isfinite(gt) || fabs(gt) >= 1e300) return 0;
    if (read == READ_SYNTAX_ERROR) /* compare_two_numbers(0, gt) needs no log10: its reason is eval's */
        return outcome(FS_PEER_EVAL_FAILED_ZERO, compare_two_numbers(p, gt, ratio) & 1);
    return compare_two_numbers(p, gt, ratio);
}

int32_t fs_decide_peer_acc(int32_t rule, const unsigned char *text, int32_t text_len, int32_t row_count,
                           const double *golds, int32_t golds_len, const unsigned char *gold_kinds,
                           int32_t gold_kinds_len, unsigned char *outcomes, int32_t outcomes_len,
                           double *ratios, int32_t ratios_len) {
    int32_t r, start = 0, end;
    if (text_len < 0 || row_count < 0 || golds_len < 0 || gold_kinds_len < 0 || outcomes_len < 0 || ratios_len < 0)
        return FS_ERR_NEGATIVE_LENGTH;
    if ((text == NULL && text_len) || (golds == NULL && golds_len) || (gold_kinds == NULL && gold_kinds_len) ||
        (outcomes == NULL && outcomes_len) || (ratios == NULL && ratios_len))
        return FS_ERR_NULL_BUFFER;
    if (rule != FS_PEER_RULE_FINANCEMATH && rule != FS_PEER_RULE_FINANCEREASONING) return FS_ERR_BAD_PEER_BATCH;
    if (golds_len < row_count || gold_kinds_len < row_count || outcomes_len < row_count || ratios_len < row_count)
        return FS_ERR_BUFFER_TOO_SHORT;
    if (!fs_fits_memory(text, text_len, 1) || !fs_fits_memory(golds, golds_len, 8) ||
        !fs_fits_memory(gold_kinds, gold_kinds_len, 1) || !fs_fits_memory(outcomes, outcomes_len, 1) ||
        !fs_fits_memory(ratios, ratios_len, 8))
        return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    /* the rows are separated by one NUL each: row_count - 1 of them, no other */
    if (row_count == 0) {
        if (text_len != 0) return FS_ERR_BAD_PEER_BATCH;
        return FS_OK;
    }
    {
        int32_t separators = 0, at = 0;
        const unsigned char *found;
        while (at < text_len && (found = memchr(text + at, 0, (size_t)(text_len - at))) != NULL) {
            separators++;
            at = (int32_t)(found - text) + 1;
        }
        if (separators != row_count - 1) return FS_ERR_BAD_PEER_BATCH;
    }
    for (r = 0; r < row_count; r++) {
        const unsigned char *found = memchr(text + start, 0, (size_t)(text_len - start));
        end = found == NULL ? text_len : (int32_t)(found - text);
        ratios[r] = 0.0;
        outcomes[r] = decide_row(rule, text + start, end - start, golds[r], gold_kinds[r], &ratios[r]);
        start = end + 1;
    }
    return FS_OK;
}
