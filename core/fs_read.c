/*
 * The plain reading of FinQA token programs, in the core.
 *
 * Most programs are plain: `op(` arg arg `)` groups ending in EOF, arguments that
 * are ASCII decimals or `#j` references to earlier numeric steps, and table rows
 * found once by name with plain numeric cells. For those, the official reading
 * and the strict one agree, and the decimal-to-double conversion is provably
 * Python's float(): a mantissa M <= 2**53 and a power of ten 10**f with f <= 22
 * are both exact doubles, so M / 10**f is one correctly rounded division, which is
 * what a correctly rounding float() returns. Reading them here saves the host a
 * per-program reader. Anything else (a quirk, an odd table, a literal outside that
 * form, a reference to a boolean) is not guessed at: the program gets the status
 * FS_DEFERRED and the host's full reader decides it.
 *
 * Text layout: programs are separated by 0x1E and a program's tokens by 0x1F; a
 * table's rows are separated by 0x1E and a row's cells by 0x1F (the host makes
 * sure no token or cell holds either byte). Nothing is allocated; every write is
 * checked against its buffer's length.
 */
#include <stddef.h>
#include <string.h>

#include "finscore_core.h"
#include "fs_internal.h"

#define RECORD_SEPARATOR 0x1E
#define UNIT_SEPARATOR 0x1F
#define MAX_CELL_BYTES 64
#define MAX_REFERENCE_DIGITS 9
/* integers up to 2**53 are exact doubles */
#define EXACT_INTEGER_LIMIT ((uint64_t)1 << 53)

typedef struct span {
    const unsigned char *at;
    int32_t length;
} span;

typedef struct op_token {
    const char *text;
    int32_t length;
} op_token;

/* lengths written out: the reader never measures a string */
static const op_token OP_TOKENS[FS_OP_COUNT] = {
    {"add(", 4},        {"subtract(", 9},  {"multiply(", 9},  {"divide(", 7},
    {"exp(", 4},        {"greater(", 8},   {"table_max(", 10}, {"table_min(", 10},
    {"table_sum(", 10}, {"table_average(", 14}};

static int span_is(span s, const char *text, int32_t length) {
    return s.length == length && memcmp(s.at, text, (size_t)length) == 0;
}

/* The op whose token this is, or FS_OP_COUNT. */
static int32_t op_of(span s) {
    int32_t i;
    if (s.length < 4 || s.at[s.length - 1] != '(') return FS_OP_COUNT;
    for (i = 0; i < FS_OP_COUNT; i++) {
        if (s.length == OP_TOKENS[i].length && s.at[0] == (unsigned char)OP_TOKENS[i].text[0] &&
            memcmp(s.at, OP_TOKENS[i].text, (size_t)s.length) == 0)
            return i;
    }
    return FS_OP_COUNT;
}

static int spans_equal(span a, span b) {
    return a.length == b.length && memcmp(a.at, b.at, (size_t)a.length) == 0;
}

/* Python's str.isspace() on an ASCII byte (0x1C-0x1F count as whitespace there). */
static int is_python_space(unsigned char c) {
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* What a byte tells the tokenizer: the token ends there, or the token holds a '#' (a
 * reference, or a reused row) or a byte the official splitting cuts at ('|', '(', ')'). */
enum { BYTE_ENDS_TOKEN = 1, BYTE_HASH = 2, BYTE_SPLITS = 4 };
static const unsigned char BYTE_CLASS[256] = {
    [UNIT_SEPARATOR] = BYTE_ENDS_TOKEN, ['#'] = BYTE_HASH,
    ['|'] = BYTE_SPLITS, ['('] = BYTE_SPLITS, [')'] = BYTE_SPLITS};

/* An argument the official splitting leaves as it is: not empty, no '|', '(' or ')'
 * (`classes`: its bytes' classes, or-ed), nothing a strip could remove (ASCII
 * whitespace, or any non-ASCII byte at an edge, which might be Unicode whitespace). */
static int is_plain_argument(span s, unsigned classes) {
    if (s.length == 0 || (classes & BYTE_SPLITS)) return 0;
    if (is_python_space(s.at[0]) || is_python_space(s.at[s.length - 1])) return 0;
    return s.at[0] < 0x80 && s.at[s.length - 1] < 0x80;
}

/* The plain decimal grammar of gold programs, [+-]?(d{1,3}(,ddd)+(.d*)?|d+(.d*)?|.d+)%?,
 * read exactly as Python's float() reads it (commas removed, a trailing % dividing by
 * 100.0). Returns 1 with *out, or 0 where the host must decide. */
static int read_decimal(span s, double *out) {
    int32_t i = 0, end = s.length;
    int negative = 0, percent = 0, integer_digits = 0, fraction_digits = 0, grouped = 0;
    int32_t group_length = 0;
    uint64_t mantissa = 0;
    double value;

    if (end > 0 && s.at[end - 1] == '%') {
        percent = 1;
        end--;
    }
    if (i < end && (s.at[i] == '+' || s.at[i] == '-')) negative = s.at[i++] == '-';
    for (; i < end && (is_digit(s.at[i]) || s.at[i] == ','); i++) {
        if (s.at[i] == ',') {
            /* thousands grouping: 1-3 leading digits, then groups of exactly 3 */
            if (integer_digits == 0 || (grouped ? group_length != 3 : group_length > 3)) return 0;
            grouped = 1;
            group_length = 0;
            continue;
        }
        integer_digits++;
        group_length++;
        mantissa = mantissa * 10u + (uint64_t)(s.at[i] - '0');
        if (mantissa > EXACT_INTEGER_LIMIT) return 0;
    }
    if (grouped && group_length != 3) return 0;
    if (i < end && s.at[i] == '.') {
        for (i++; i < end && is_digit(s.at[i]); i++) {
            fraction_digits++;
            mantissa = mantissa * 10u + (uint64_t)(s.at[i] - '0');
            if (mantissa > EXACT_INTEGER_LIMIT || fraction_digits > 22) return 0;
        }
        if (integer_digits == 0 && fraction_digits == 0) return 0;
    } else if (integer_digits == 0) {
        return 0;
    }
    if (i != end) return 0;
    /* both exact: one correctly rounded division, as a correctly rounding float() */
    value = (double)mantissa / FS_POWERS_OF_TEN[fraction_digits];
    if (negative) value = -value;
    if (percent) value = value / 100.0;
    *out = value;
    return 1;
}

/* A literal argument: a plain decimal, or const_N / const_m1. */
static int read_literal(span s, double *out) {
    static const char prefix[] = "const_";
    const int32_t prefix_length = (int32_t)sizeof prefix - 1;
    int32_t i;
    uint64_t n = 0;
    if (s.length > prefix_length && memcmp(s.at, prefix, (size_t)prefix_length) == 0) {
        span rest;
        rest.at = s.at + prefix_length;
        rest.length = s.length - prefix_length;
        if (span_is(rest, "m1", 2)) {
            *out = -1.0;
            return 1;
        }
        for (i = 0; i < rest.length; i++) {
            if (!is_digit(rest.at[i])) return 0;
            n = n * 10u + (uint64_t)(rest.at[i] - '0');
            if (n > EXACT_INTEGER_LIMIT) return 0;
        }
        *out = (double)n;
        return 1;
    }
    return read_decimal(s, out);
}

/* Whether a byte may stand in a text that float() accepts, once ',' (always) or '%' (on the
 * second try) is removed: digits, sign, point, underscore, exponent, the letters of "inf",
 * "infinity" and "nan" in any case, and whitespace (every byte up to the space, to be safe). */
static int may_be_in_a_float(unsigned char c) {
    if (c <= ' ' || is_digit(c)) return 1;
    switch (c | 0x20) { /* letters in either case; the others below are not letters */
    case 'e': case 'i': case 'n': case 'f': case 't': case 'y': case 'a': return 1;
    default: break;
    }
    return c == '+' || c == '-' || c == '.' || c == '_' || c == ',' || c == '%';
}

/* Whether the text holds "const" once every ',' is removed: the official reader removes the
 * commas first and only then looks for "const" (FinQA) or "const_" (ConvFinQA), so
 * "co,nst_5" reads as const_5. "const" has no proper prefix that is also its suffix, so a
 * mismatch restarts the match at the byte itself. */
static int holds_const_without_commas(span s) {
    static const char word[] = "const";
    int32_t i, matched = 0;
    for (i = 0; i < s.length; i++) {
        unsigned char c = s.at[i];
        if (c == ',') continue;
        if (c == (unsigned char)word[matched])
            matched++;
        else
            matched = c == (unsigned char)word[0];
        if (matched == 5) return 1;
    }
    return 0;
}

/* A literal the official reading certainly rejects. Every ',' is removed first; without
 * "const" in what is left the official evaluator tries float() on it and then, if it holds
 * '%', float() without '%' as well: a byte that can stand in no float() text fails both
 * tries; so does ASCII text with no digit, no ',' or '%' and no "inf" or "nan" in any case
 * (float() alone is tried, and needs a digit, "inf" or "nan"). Text holding "const" (commas
 * aside) and non-ASCII text are left to the host (const_ forms, Unicode digits, spaces). */
static int is_certainly_not_a_number(span s) {
    int32_t i;
    int foreign = 0, digits_or_marks = 0;
    if (holds_const_without_commas(s)) return 0;
    for (i = 0; i < s.length; i++) {
        unsigned char c = s.at[i];
        if (c >= 0x80) return 0;
        foreign |= !may_be_in_a_float(c);
        digits_or_marks |= is_digit(c) || c == ',' || c == '%';
    }
    if (foreign) return 1;
    if (digits_or_marks) return 0;
    for (i = 0; i + 3 <= s.length; i++) {
        unsigned char a = (unsigned char)(s.at[i] | 0x20), b = (unsigned char)(s.at[i + 1] | 0x20),
                      c = (unsigned char)(s.at[i + 2] | 0x20);
        if ((a == 'i' && b == 'n' && c == 'f') || (a == 'n' && b == 'a' && c == 'n')) return 0;
    }
    return 1;
}

/* "#j" with 1 to 9 ASCII digits. */
static int read_reference(span s, int32_t *out) {
    int32_t i, j = 0;
    if (s.length < 2 || s.length > 1 + MAX_REFERENCE_DIGITS || s.at[0] != '#') return 0;
    for (i = 1; i < s.length; i++) {
        if (!is_digit(s.at[i])) return 0;
        j = j * 10 + (s.at[i] - '0');
    }
    *out = j;
    return 1;
}

/* A cell as the official evaluator reads it: every '$' removed, cut at the first '(',
 * stripped; then a plain decimal. Cells with non-ASCII bytes go to the host. */
static int read_cell(span cell, double *out) {
    unsigned char text[MAX_CELL_BYTES];
    int32_t i, n = 0, start = 0;
    span stripped;
    for (i = 0; i < cell.length && cell.at[i] != '('; i++) {
        unsigned char c = cell.at[i];
        if (c >= 0x80) return 0;
        if (c == '$') continue;
        if (n == MAX_CELL_BYTES) return 0;
        text[n++] = c;
    }
    while (start < n && is_python_space(text[start])) start++;
    while (n > start && is_python_space(text[n - 1])) n--;
    stripped.at = text + start;
    stripped.length = n - start;
    return read_decimal(stripped, out);
}

typedef struct table_text {
    const unsigned char *at; /* NULL: no plain table for this program */
    int32_t length;
} table_text;

#define NO_SUCH_ROW (-2)

/* The cells of the one row named `name`, written to the program's slot of table values at
 * the row's own place: slot[offset, offset + count), where offset counts the value cells of
 * the rows before it (the slot holds one double per value cell of the table; slot_cells is
 * the room left, at least that). *table_cells receives the table's value cells.
 * The count with *offset, NO_SUCH_ROW when no row has that name, or -1 for the host to decide
 * (several rows of that name, no cells, a cell that is not plain). */
static int32_t read_row(table_text table, span name, double *slot, int32_t slot_cells, int32_t *offset,
                        int32_t *table_cells) {
    const unsigned char *row, *end;
    span found = {NULL, 0};
    int matches = 0;
    int32_t count = 0, cells_before = 0, found_at = 0;
    if (table.at == NULL) return -1; /* checked before the row's end is computed */
    row = table.at;
    end = table.at + table.length;
    while (row <= end) {
        const unsigned char *row_end = row;
        int32_t row_cells = 0;
        span first;
        first.at = row;
        first.length = 0;
        while (row + first.length < end && row[first.length] != RECORD_SEPARATOR &&
               row[first.length] != UNIT_SEPARATOR)
            first.length++;
        for (row_end = row + first.length; row_end < end && *row_end != RECORD_SEPARATOR; row_end++)
            row_cells += *row_end == UNIT_SEPARATOR;
        if (spans_equal(first, name)) {
            matches++;
            found.at = row;
            found.length = (int32_t)(row_end - row);
            found_at = cells_before;
        }
        cells_before += row_cells;
        if (row_end == end) break; /* the last row: no pointer past the end of the table is formed */
        row = row_end + 1;
    }
    *table_cells = cells_before; /* the whole table was scanned: its value cells */
    if (matches == 0) return NO_SUCH_ROW;
    if (matches != 1) return -1; /* several rows of that name: the host's quirk */
    {
        const unsigned char *cell = found.at, *row_end = found.at + found.length;
        while (cell < row_end && *cell != UNIT_SEPARATOR) cell++; /* skip the name */
        if (cell == row_end) return -1;                          /* no cells */
        while (cell < row_end) {
            span text;
            cell++;
            text.at = cell;
            text.length = 0;
            while (cell < row_end && *cell != UNIT_SEPARATOR) {
                cell++;
                text.length++;
            }
            if (found_at + count >= slot_cells || !read_cell(text, &slot[found_at + count])) return -1;
            count++;
        }
    }
    *offset = found_at;
    return count;
}

typedef struct tokenizer {
    const unsigned char *at, *end;
    int done;
} tokenizer;

/* The next token of a program and its bytes' classes, or-ed; 0 when there is none left. */
static int next_token(tokenizer *t, span *out, unsigned *classes) {
    const unsigned char *stop = t->at;
    unsigned seen = 0;
    if (t->done) return 0;
    for (; stop < t->end; stop++) {
        unsigned class_of_byte = BYTE_CLASS[*stop];
        if (class_of_byte & BYTE_ENDS_TOKEN) break;
        seen |= class_of_byte;
    }
    *classes = seen;
    out->at = t->at;
    out->length = (int32_t)(stop - t->at);
    if (stop == t->end)
        t->done = 1;
    else
        t->at = stop + 1;
    return 1;
}

/* The next step of a program in the plain form: `op(`, two arguments the official
 * splitting leaves as they are, `)`. Returns 1 with its tokens, their bytes' classes and
 * *op; 0 when the only token left is EOF (the program ends there); -1 for anything else
 * (the host decides). */
static int next_plain_step(tokenizer *tokens, span token[4], unsigned classes[4], int32_t *op) {
    int32_t i;
    if (!next_token(tokens, &token[0], &classes[0])) return -1;
    if (tokens->done) return span_is(token[0], "EOF", 3) ? 0 : -1;
    for (i = 1; i < 4; i++) {
        if (!next_token(tokens, &token[i], &classes[i])) return -1; /* a partial step */
    }
    if (tokens->done) return -1; /* no EOF after it */
    *op = op_of(token[0]);
    if (*op == FS_OP_COUNT || token[3].length != 1 || token[3].at[0] != ')') return -1;
    if (!is_plain_argument(token[1], classes[1]) || !is_plain_argument(token[2], classes[2])) return -1;
    return 1;
}

/* After a step that cannot be read: the number of remaining steps when they are plain and
 * end in EOF, else -1. When they are, no check the official evaluator makes of the whole
 * program before running it (structure, delimiters inside arguments) fails, and the failure
 * stands. Bounded by the program's text: each step consumes four tokens. */
static int32_t plain_steps_left(tokenizer tokens) {
    span token[4];
    unsigned classes[4];
    int32_t op, found, count = 0;
    while ((found = next_plain_step(&tokens, token, classes, &op)) == 1) count++;
    return found == 0 ? count : -1;
}

/* A step that cannot be read, in a program plain everywhere else: the steps before it
 * (their count is returned) run, and *failure says why; otherwise the host decides. */
static int32_t stop_reading(tokenizer rest, int32_t step, int32_t status, int32_t *failure) {
    if (plain_steps_left(rest) < 0) return -1;
    *failure = status;
    return step;
}

/* Step `step` refers to #j with j >= step, in a program plain everywhere else: the official
 * evaluator has no result for it yet. Named as the full reader names it: the step itself,
 * a later step of the program, or none at all (j at or past the program's step count). */
static int32_t stop_at_reference(tokenizer rest, int32_t step, int32_t j, int32_t *failure) {
    int32_t later = plain_steps_left(rest);
    if (later < 0) return -1;
    if (j == step)
        *failure = FS_ERR_SELF_REFERENCE;
    else if (j - step <= later) /* j < step + 1 + later, the program's step count */
        *failure = FS_ERR_FORWARD_REFERENCE;
    else
        *failure = FS_ERR_REFERENCE_OUT_OF_RANGE;
    return step;
}

/* Python's token.strip("(") is an op name: '(' removed from both ends, then byte for byte. */
static int is_op_name(span s) {
    int32_t i;
    while (s.length > 0 && s.at[0] == '(') {
        s.at++;
        s.length--;
    }
    while (s.length > 0 && s.at[s.length - 1] == '(') s.length--;
    for (i = 0; i < FS_OP_COUNT; i++) {
        if (s.length == OP_TOKENS[i].length - 1 && memcmp(s.at, OP_TOKENS[i].text, (size_t)s.length) == 0)
            return 1;
    }
    return 0;
}

/* The official position check fails, in a program whose last token is EOF: among the tokens
 * before it, one at a position 4k is no op name once '(' is stripped from its ends, or one at
 * 4k + 3 is not ")". The official reading stops there, in every profile, before any step is
 * read (with another last token the strict profile stops first at that). One pass over the
 * tokens. */
static int is_malformed_structure(tokenizer tokens) {
    span token, next;
    unsigned classes;
    int32_t position = 0;
    int malformed = 0;
    if (!next_token(&tokens, &token, &classes)) return 0;
    while (next_token(&tokens, &next, &classes)) { /* `token` is followed: it is in the body */
        if (position % 4 == 0 && !is_op_name(token)) malformed = 1;
        if (position % 4 == 3 && !span_is(token, ")", 1)) malformed = 1;
        token = next;
        position = (position + 1) % 4;
    }
    return malformed && span_is(token, "EOF", 3);
}

/* Read one program's tokens into steps; its step count, or -1 when the host must decide.
 * Table rows go to the program's slot, at table_values + base (see read_row); *table_cells
 * receives the table's value cells when a table step scanned it, and is left alone otherwise.
 * *failure is 0, or the status of the step the reading stopped at (see stop_reading). */
static int32_t read_program(tokenizer tokens, table_text table, fs_step *steps,
                            int32_t steps_capacity, double *table_values, int32_t base,
                            int32_t slot_cells, int32_t *failure, int32_t *table_cells) {
    span token[4];
    unsigned classes[4];
    int32_t step = 0, i;
    uint64_t greater = 0; /* steps 0..63 that are a greater; longer programs go to the host */
    *failure = 0;
    for (;;) {
        int found = next_plain_step(&tokens, token, classes, &i);
        if (found == 0) return step > 0 ? step : -1; /* EOF, after at least one whole step */
        if (found < 0 || step == steps_capacity || step == 64) return -1;
        memset(&steps[step], 0, sizeof steps[step]);
        steps[step].op = i;
        if (i >= FS_OP_TABLE_MAX) {
            int32_t count, offset = 0;
            if (classes[1] & BYTE_HASH) return -1; /* a reused row: the host's quirk */
            count = read_row(table, token[1], table_values + base, slot_cells, &offset, table_cells);
            if (count == NO_SUCH_ROW) return stop_reading(tokens, step, FS_READ_UNKNOWN_ROW, failure);
            if (count <= 0) return -1;
            steps[step].args[0].kind = FS_ARG_TABLE_ROW;
            steps[step].args[0].index = base + offset;
            steps[step].args[0].length = count;
        } else {
            int k;
            for (k = 0; k < 2; k++) {
                fs_arg *arg = &steps[step].args[k];
                if (classes[1 + k] & BYTE_HASH) {
                    int32_t j;
                    if (!read_reference(token[1 + k], &j)) return -1;
                    if (j >= step) return stop_at_reference(tokens, step, j, failure);
                    if (greater & ((uint64_t)1 << j)) return -1; /* text flowing on: the host's */
                    arg->kind = FS_ARG_REFERENCE;
                    arg->index = j;
                } else {
                    arg->kind = FS_ARG_LITERAL;
                    if (read_literal(token[1 + k], &arg->number)) continue;
                    if (is_certainly_not_a_number(token[1 + k]))
                        return stop_reading(tokens, step, FS_READ_BAD_NUMBER, failure);
                    return -1;
                }
            }
            if (i == FS_OP_GREATER) greater |= (uint64_t)1 << step;
        }
        step++;
    }
}

/* The steps before `step` ran without a refusal; the reading stopped at `step`. */
static void stopped_at(fs_result *result, int32_t status, int32_t step) {
    memset(result, 0, sizeof *result);
    result->status = status;
    result->value_type = FS_TYPE_NONE;
    result->failed_step = step;
    result->steps_executed = step;
}

static void defer(fs_result *result) {
    memset(result, 0, sizeof *result);
    result->status = FS_DEFERRED;
    result->failed_step = -1;
}

/* The whole program fails the official position check: nothing runs, no step failed. */
static void malformed_structure(fs_result *result) {
    memset(result, 0, sizeof *result);
    result->status = FS_READ_MALFORMED_STRUCTURE;
    result->value_type = FS_TYPE_NONE;
    result->failed_step = -1;
}

/* The length of the UTF-8 sequence at at[0, left), or 0 when it is not one. Code points
 * U+D800-U+DFFF in three bytes are accepted: Python hosts write lone surrogates that way
 * (surrogatepass), and the core never reads a non-ASCII byte as anything but itself. */
static int32_t utf8_sequence(const unsigned char *at, int64_t left) {
    unsigned char c = at[0];
    int32_t length, i;
    unsigned char low = 0x80, high = 0xBF; /* the second byte's range */
    if (c < 0x80) return 1;
    if (c < 0xC2) return 0;
    if (c < 0xE0) {
        length = 2;
    } else if (c < 0xF0) {
        length = 3;
        if (c == 0xE0) low = 0xA0;
    } else if (c < 0xF5) {
        length = 4;
        if (c == 0xF0) low = 0x90;
        if (c == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (left < length || at[1] < low || at[1] > high) return 0;
    for (i = 2; i < length; i++) {
        if (at[i] < 0x80 || at[i] > 0xBF) return 0;
    }
    return length;
}

/* What the framing check of one text found: its records (programs, or rows) and its unit
 * separators (0x1F bytes: token separators, or a table's value cells). */
typedef struct framing {
    int64_t records, separators;
} framing;

#define BYTES_OF(b) (UINT64_C(0x0101010101010101) * (b))
/* The masks below read a word's bytes in memory order as little-endian (WebAssembly always is);
 * a big-endian native build takes every byte one by one instead. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BYTE_AT_A_TIME_ONLY 1
#else
#define BYTE_AT_A_TIME_ONLY 0
#endif
#define NO_BYTE 0x100 /* "before the first byte": a record may not start there empty either */

/* 0x80 in each byte of x that is zero, and 0 in every other byte (exactly, no carries). */
static uint64_t zero_bytes(uint64_t x) {
    const uint64_t low7 = BYTES_OF(0x7F);
    return ~(((x & low7) + low7) | x | low7);
}

/* The fault of a record separator after the byte `previous`, or FS_OK. */
static int32_t separator_fault(unsigned previous, int programs) {
    if (previous == NO_BYTE || previous == RECORD_SEPARATOR)
        return programs ? FS_ERR_EMPTY_PROGRAM : FS_ERR_EMPTY_TABLE_ROW;
    if (programs && previous == UNIT_SEPARATOR) return FS_ERR_TRAILING_TOKEN_SEPARATOR;
    return FS_OK;
}

/* Check a text of records separated by 0x1E, their units by 0x1F: UTF-8, no empty record,
 * and (for programs) no record ending in 0x1F. FS_OK with *found, or what is wrong. ASCII
 * is taken eight bytes at a time, separators found and counted by masks; the bytes of a word
 * holding a non-ASCII byte are taken one by one. */
static int32_t check_framing(const unsigned char *at, int32_t length, int programs, framing *found) {
    int64_t i = 0, separators = 0, units = 0;
    unsigned previous = NO_BYTE;
    int32_t status;
    while (i < length) {
        uint64_t w, records_here, units_here, after_record, after_unit;
        if (BYTE_AT_A_TIME_ONLY || i + 8 > length || (memcpy(&w, at + i, sizeof w), (w & BYTES_OF(0x80)) != 0)) {
            int64_t stop = i + 8 < length ? i + 8 : length;
            while (i < stop) { /* one by one, a multi-byte sequence whole */
                unsigned char c = at[i];
                if (c == RECORD_SEPARATOR) {
                    if ((status = separator_fault(previous, programs)) != FS_OK) return status;
                    separators++;
                } else if (c == UNIT_SEPARATOR) {
                    units++;
                } else if (c >= 0x80) {
                    int32_t n = utf8_sequence(at + i, length - i);
                    if (n == 0) return FS_ERR_BAD_UTF8;
                    i += n - 1;
                }
                previous = at[i++];
            }
            continue;
        }
        records_here = zero_bytes(w ^ BYTES_OF(RECORD_SEPARATOR));
        units_here = zero_bytes(w ^ BYTES_OF(UNIT_SEPARATOR));
        if (records_here != 0) {
            /* a 0x1E right after a 0x1E (or at the very start), or after a 0x1F */
            after_record = (records_here << 8) | (previous == RECORD_SEPARATOR || previous == NO_BYTE ? 0x80u : 0u);
            after_unit = (units_here << 8) | (previous == UNIT_SEPARATOR ? 0x80u : 0u);
            uint64_t empty = records_here & after_record, trailing = programs ? records_here & after_unit : 0u;
            if ((empty | trailing) != 0) { /* the fault the byte-by-byte path would meet first (lowest byte) */
                uint64_t first = (empty | trailing) & (~(empty | trailing) + 1u);
                if ((first & empty) != 0) return programs ? FS_ERR_EMPTY_PROGRAM : FS_ERR_EMPTY_TABLE_ROW;
                return FS_ERR_TRAILING_TOKEN_SEPARATOR;
            }
            separators += __builtin_popcountll(records_here);
        }
        units += __builtin_popcountll(units_here);
        previous = at[i + 7];
        i += 8;
    }
    /* the end closes the last record as a separator would */
    if ((status = separator_fault(previous, programs)) != FS_OK) return status;
    found->records = separators + 1;
    found->separators = units;
    return FS_OK;
}

/* The value cells of table `which` (its 0x1F bytes), or 0 for a program without a table. */
static int32_t table_cells(const unsigned char *tables, const int32_t *table_spans, int32_t which) {
    const unsigned char *at, *end;
    int32_t cells = 0;
    if (which < 0) return 0;
    at = tables + table_spans[2 * which];
    end = at + table_spans[2 * which + 1];
    for (; at < end; at++) cells += *at == UNIT_SEPARATOR;
    return cells;
}

/* Everything about a call that can be checked before anything runs: lengths, pointers,
 * memory, the framing of the text and of every table a program uses, and the outputs'
 * sizes (steps_needed, cells_needed). FS_OK, or the call's refusal. */
static int32_t check_call(const unsigned char *text, int32_t text_len, int32_t program_count,
                          const unsigned char *tables, int32_t tables_len,
                          const int32_t *table_spans, int32_t table_count,
                          const int32_t *program_tables, int32_t program_tables_len, int32_t sum_rule,
                          const fs_step *steps, int32_t steps_len, const double *table_values,
                          int32_t table_values_len, const double *step_values, int32_t step_values_len,
                          const int32_t *step_types, int32_t step_types_len,
                          const int32_t *program_spans, int32_t program_spans_len,
                          const fs_result *results, int32_t results_len) {
    framing programs, rows = {0, 0};
    int64_t cells_needed = 0, steps_needed;
    int32_t p, t, status, checked = -1;
    if (text_len < 0 || program_count < 0 || tables_len < 0 || table_count < 0 ||
        program_tables_len < 0 || steps_len < 0 || table_values_len < 0 || step_values_len < 0 ||
        step_types_len < 0 || program_spans_len < 0 || results_len < 0)
        return FS_ERR_NEGATIVE_LENGTH;
    if (program_count == 0 && text_len == 0) return FS_OK; /* nothing to read: nothing is written */
    if (text == NULL || results == NULL || program_tables == NULL || program_spans == NULL ||
        (tables == NULL && tables_len > 0) || (table_spans == NULL && table_count > 0) ||
        (steps == NULL && steps_len > 0) || (step_values == NULL && step_values_len > 0) ||
        (step_types == NULL && step_types_len > 0) || (table_values == NULL && table_values_len > 0))
        return FS_ERR_NULL_BUFFER;
    if (program_count > results_len || program_count > program_tables_len ||
        2 * (int64_t)program_count > program_spans_len)
        return FS_ERR_BUFFER_TOO_SHORT;
    if (!fs_fits_memory(text, text_len, 1) || !fs_fits_memory(tables, tables_len, 1) ||
        !fs_fits_memory(table_spans, 2 * (int64_t)table_count, sizeof *table_spans) ||
        !fs_fits_memory(program_tables, program_tables_len, sizeof *program_tables) ||
        !fs_fits_memory(steps, steps_len, sizeof *steps) ||
        !fs_fits_memory(table_values, table_values_len, sizeof *table_values) ||
        !fs_fits_memory(step_values, step_values_len, sizeof *step_values) ||
        !fs_fits_memory(step_types, step_types_len, sizeof *step_types) ||
        !fs_fits_memory(program_spans, program_spans_len, sizeof *program_spans) ||
        !fs_fits_memory(results, results_len, sizeof *results))
        return FS_ERR_BUFFER_OUTSIDE_MEMORY;
    if (sum_rule != FS_SUM_PY311 && sum_rule != FS_SUM_PY312) return FS_ERR_UNKNOWN_SUM_RULE;
    for (t = 0; t < table_count; t++) {
        int32_t offset = table_spans[2 * t], length = table_spans[2 * t + 1];
        if (offset < 0 || length < 0 || offset > tables_len || length > tables_len - offset)
            return FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS;
    }
    status = check_framing(text, text_len, 1, &programs);
    if (status != FS_OK) return status;
    if (programs.records != program_count) return FS_ERR_PROGRAM_COUNT_MISMATCH;
    for (p = 0; p < program_count; p++) {
        int32_t which = program_tables[p];
        if (which < -1 || which >= table_count) return FS_ERR_BAD_TABLE_INDEX;
        if (which < 0) continue;
        if (which != checked) { /* programs in a row often share a table: check it once */
            status = check_framing(tables + table_spans[2 * which], table_spans[2 * which + 1], 0, &rows);
            if (status != FS_OK) return status;
            checked = which;
        }
        cells_needed += rows.separators;
    }
    /* at most one step per four tokens: (0x1F bytes + programs) / 4 */
    steps_needed = (programs.separators + program_count) / 4;
    if (steps_len < steps_needed || step_values_len < steps_needed || step_types_len < steps_needed ||
        table_values_len < cells_needed)
        return FS_ERR_BUFFER_TOO_SHORT;
    return FS_OK;
}

int32_t fs_read_execute_batch(const unsigned char *text, int32_t text_len, int32_t program_count,
                              const unsigned char *tables, int32_t tables_len,
                              const int32_t *table_spans, int32_t table_count,
                              const int32_t *program_tables, int32_t program_tables_len,
                              int32_t sum_rule, fs_step *steps, int32_t steps_len,
                              double *table_values, int32_t table_values_len,
                              double *step_values, int32_t step_values_len,
                              int32_t *step_types, int32_t step_types_len,
                              int32_t *program_spans, int32_t program_spans_len,
                              fs_result *results, int32_t results_len) {
    const unsigned char *at = text, *end;
    int32_t p, first_step = 0, slot = 0;
    int32_t status;

    status = check_call(text, text_len, program_count, tables, tables_len, table_spans, table_count,
                        program_tables, program_tables_len, sum_rule, steps, steps_len, table_values,
                        table_values_len, step_values, step_values_len, step_types, step_types_len,
                        program_spans, program_spans_len, results, results_len);
    if (status != FS_OK) return status;

    end = text + text_len; /* only now: text and text_len have been checked */
    for (p = 0; p < program_count; p++) {
        const unsigned char *stop = memchr(at, RECORD_SEPARATOR, (size_t)(end - at));
        table_text table = {NULL, 0};
        tokenizer tokens;
        int32_t count, failure = 0, which = program_tables[p], cells = -1;
        if (stop == NULL) stop = end; /* the last program (the framing check counted them) */
        if (which >= 0) {
            table.at = tables + table_spans[2 * which];
            table.length = table_spans[2 * which + 1];
        }
        tokens.at = at;
        tokens.end = stop;
        tokens.done = 0;
        count = read_program(tokens, table, steps + first_step, steps_len - first_step, table_values,
                             slot, table_values_len - slot, &failure, &cells);
        if (cells < 0) cells = table_cells(tables, table_spans, which); /* no table step scanned it */
        program_spans[2 * p] = first_step;
        program_spans[2 * p + 1] = count > 0 ? count : 0;
        if (count < 0 && is_malformed_structure(tokens)) {
            malformed_structure(&results[p]);
        } else if (count < 0 || (count == 0 && failure == 0)) {
            defer(&results[p]);
        } else {
            if (count > 0)
                fs_execute(steps + first_step, count, count, table_values, slot + cells, sum_rule,
                           step_values + first_step, count, step_types + first_step, count, &results[p]);
            if (failure != 0 && (count == 0 || results[p].status == FS_OK))
                stopped_at(&results[p], failure, count);
            first_step += count;
        }
        slot += cells;
        if (stop < end) at = stop + 1;
    }
    return FS_OK;
}
