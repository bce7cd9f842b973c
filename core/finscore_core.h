/*
 * finscore core: exact execution of resolved FinQA-style programs.
 *
 * One portable C99 library, compiled once to a standalone WebAssembly module
 * (build/build_wasm.sh) and natively for sanitizer tests. Every host (Python
 * via wasmtime, the browser, Node, anything that runs WebAssembly) calls the
 * same functions on the same bytes, so every host gets the same bits.
 *
 * The ABI is flat: fixed-layout records in linear memory, 32-bit integers,
 * IEEE doubles, little-endian. Every buffer is passed with its length in
 * elements, and every length is checked before anything is read.
 */
#ifndef FINSCORE_CORE_H
#define FINSCORE_CORE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a record layout or a function signature changes. */
#define FS_ABI_VERSION 2

/* Operations, in the official FinQA order. */
enum fs_op {
    FS_OP_ADD = 0,
    FS_OP_SUBTRACT = 1,
    FS_OP_MULTIPLY = 2,
    FS_OP_DIVIDE = 3,
    FS_OP_EXP = 4,
    FS_OP_GREATER = 5,
    FS_OP_TABLE_MAX = 6,
    FS_OP_TABLE_MIN = 7,
    FS_OP_TABLE_SUM = 8,
    FS_OP_TABLE_AVERAGE = 9,
    FS_OP_COUNT = 10
};

/* Argument kinds. A table row is only valid as the first argument of a table
 * op; the second argument of a table op is ignored, whatever it holds. */
enum fs_arg_kind {
    FS_ARG_LITERAL = 0,   /* fs_arg.number is the value */
    FS_ARG_REFERENCE = 1, /* fs_arg.index is an earlier step of the same program */
    FS_ARG_TABLE_ROW = 2  /* table_values[index, index + length) */
};

/* Summation rule of the interpreter being imitated. */
enum fs_sum_rule {
    FS_SUM_PY311 = 0, /* CPython <= 3.11 sum(): left to right from integer 0 */
    FS_SUM_PY312 = 1  /* CPython >= 3.12 sum(): Neumaier compensated summation */
};

/* Type of a step's value. */
enum fs_value_type {
    FS_TYPE_NONE = 0,  /* not executed (or refused) */
    FS_TYPE_FLOAT = 1,
    FS_TYPE_BOOL = 2   /* result of greater; value is 1.0 (yes) or 0.0 (no) */
};

/* Status codes: 1400 is success, 1401-1419 are typed refusals. A refusal never
 * carries a value. fs_status_name() names each one. */
enum fs_status {
    FS_OK = 1400,
    FS_ERR_NO_STEPS = 1401,
    FS_ERR_BUFFER_TOO_SHORT = 1402,      /* a declared count exceeds a buffer's length */
    FS_ERR_NULL_BUFFER = 1403,           /* a needed buffer is null or a length negative */
    FS_ERR_UNKNOWN_OP = 1404,
    FS_ERR_BAD_ARGUMENT_KIND = 1405,     /* unknown kind, or a kind the op does not take */
    FS_ERR_FORWARD_REFERENCE = 1406,     /* #j with j after the current step */
    FS_ERR_SELF_REFERENCE = 1407,        /* #j with j the current step */
    FS_ERR_REFERENCE_OUT_OF_RANGE = 1408,/* #j with j negative or past the program */
    FS_ERR_REFERENCE_TO_BOOLEAN = 1409,  /* #j where step j was a greater */
    FS_ERR_TABLE_SLICE_OUT_OF_BOUNDS = 1410,
    FS_ERR_EMPTY_ROW = 1411,
    FS_ERR_DIVIDE_BY_ZERO = 1412,
    FS_ERR_ZERO_TO_NEGATIVE_POWER = 1413,
    FS_ERR_NEGATIVE_BASE_FRACTIONAL_EXPONENT = 1414,
    FS_ERR_EXP_OVERFLOW = 1415,
    FS_ERR_UNKNOWN_SUM_RULE = 1416,
    FS_ERR_BAD_SCALE = 1417,             /* round scale not an exact power of ten 1..1e22 */
    FS_ERR_EXP_COMPLEX_OVERFLOW = 1418,  /* negative base, non-integer exponent, and even the
                                            complex result overflows (Python: OverflowError) */
    FS_DEFERRED = 1419                   /* fs_read_execute_batch: not plain text; the host's
                                            own reader decides this program */
};
#define FS_STATUS_FIRST 1400
#define FS_STATUS_LAST 1419

/* Two refusals of the reader's range (1420-1439, shared with the hosts' full readers),
 * which fs_read_execute_batch reports itself where the reading is certain. */
enum fs_read_status {
    FS_READ_BAD_NUMBER = 1422,  /* a literal the official float() reading rejects */
    FS_READ_UNKNOWN_ROW = 1425  /* a table step naming a row the table does not have */
};

/* One argument: 24 bytes.
 *   offset 0  int32 kind
 *   offset 4  int32 index   (reference: step index; table row: offset into table_values)
 *   offset 8  int32 length  (table row: number of cells)
 *   offset 12 int32 reserved (write 0)
 *   offset 16 double number (literal value) */
typedef struct fs_arg {
    int32_t kind;
    int32_t index;
    int32_t length;
    int32_t reserved;
    double number;
} fs_arg;

/* One step: 56 bytes.
 *   offset 0  int32 op
 *   offset 4  int32 reserved (write 0)
 *   offset 8  fs_arg args[0]
 *   offset 32 fs_arg args[1] */
typedef struct fs_step {
    int32_t op;
    int32_t reserved;
    fs_arg args[2];
} fs_step;

/* One program of a batch: 8 bytes. Its steps are steps[first_step, first_step + step_count);
 * its references count from its own first step; its table rows are offsets into the
 * batch's single table_values buffer. */
typedef struct fs_program {
    int32_t first_step;
    int32_t step_count;
} fs_program;

/* The outcome of one program: 40 bytes.
 *   offset 0  int32 status       FS_OK or a refusal
 *   offset 4  int32 has_value    1 when status is FS_OK, else 0
 *   offset 8  int32 value_type   FS_TYPE_FLOAT or FS_TYPE_BOOL (FS_TYPE_NONE without a value)
 *   offset 12 int32 failed_step  step index (within the program) that was refused, or -1
 *   offset 16 double value       the last step rounded half-even to 5 places; 1.0/0.0 for a bool
 *   offset 24 double unrounded   the last step's own value (0.0 without a value)
 *   offset 32 int32 steps_executed
 *   offset 36 int32 reserved */
typedef struct fs_result {
    int32_t status;
    int32_t has_value;
    int32_t value_type;
    int32_t failed_step;
    double value;
    double unrounded;
    int32_t steps_executed;
    int32_t reserved;
} fs_result;

/* Execute one program. steps has steps_len records, of which the first step_count are
 * the program; step_values and step_types receive each step's own (unrounded) value and
 * type (at least step_count elements each). Returns result->status. A NULL result is the
 * only case with nothing written: it returns FS_ERR_NULL_BUFFER. */
int32_t fs_execute(const fs_step *steps, int32_t steps_len, int32_t step_count,
                   const double *table_values, int32_t table_len, int32_t sum_rule,
                   double *step_values, int32_t step_values_len,
                   int32_t *step_types, int32_t step_types_len, fs_result *result);

/* Execute program_count programs in one call. step_values and step_types are indexed like
 * steps; results has one record per program. Returns FS_OK when the batch itself is well
 * formed (each program's own outcome is in its result), else a refusal with nothing run. */
int32_t fs_execute_batch(const fs_program *programs, int32_t program_count,
                         const fs_step *steps, int32_t steps_len,
                         const double *table_values, int32_t table_len, int32_t sum_rule,
                         double *step_values, int32_t step_values_len,
                         int32_t *step_types, int32_t step_types_len,
                         fs_result *results, int32_t results_len);

/* Round x half to even at 1/scale, exactly as CPython's round(x, n) with scale = 10**n:
 * the tie is decided on the exact value of x * scale, never on a rounded product.
 * scale must be exactly one of 1e0 .. 1e22. inf and nan pass through; zero keeps its sign.
 * Writes *out and returns FS_OK, or returns FS_ERR_BAD_SCALE / FS_ERR_NULL_BUFFER. */
int32_t fs_round_half_even_scaled(double x, double scale, double *out);

/* CPython's float ** float on two doubles: FS_OK with *out, or the refusal Python raises. */
int32_t fs_python_pow(double base, double exponent, double *out);

/* CPython's sum() of a list of floats under a summation rule (average = sum / length is the
 * caller's business). An empty list is FS_ERR_EMPTY_ROW (Python would return the integer 0). */
int32_t fs_python_sum(const double *values, int32_t length, int32_t sum_rule, double *out);

/* Read plain FinQA token programs and execute them, all in one call.
 *
 * text holds program_count programs separated by 0x1E, each a token list separated by
 * 0x1F (tokens as the prediction format has them, the last one EOF). tables holds the
 * tables, each spanning tables[table_spans[2t], +table_spans[2t+1]), rows separated by
 * 0x1E and cells by 0x1F; program_tables[p] is the table of program p, or -1.
 * A program in the plain form (op( arg arg ) groups, ASCII decimals, const_N, #j
 * references to earlier numeric steps, rows found once by name with plain cells) is
 * read exactly as the official evaluator reads it, into steps, and executed; any other
 * gets the status FS_DEFERRED, for the host's full reader. Two failures of the reading
 * itself are decided here when certain: in a program that is plain everywhere else, an
 * ASCII literal without "const" that float() rejects in every way the official evaluator
 * tries (it holds a byte no float() text has, such as 'c' or '$'; or it has no digit, no
 * ',' or '%' and no "inf" or "nan" in any case) is FS_READ_BAD_NUMBER,
 * and a table step naming no row of its (plain) table is FS_READ_UNKNOWN_ROW; the steps
 * before it run first, as officially, and a refusal among them comes first.
 * failed_step is then the step that could not be read, and steps_executed the steps
 * before it. program_spans receives each program's first step and step count (the
 * steps read) in steps/step_values/step_types (count 0 when deferred). Returns FS_OK,
 * or a refusal of the batch as a whole. */
int32_t fs_read_execute_batch(const unsigned char *text, int32_t text_len, int32_t program_count,
                              const unsigned char *tables, int32_t tables_len,
                              const int32_t *table_spans, int32_t table_count,
                              const int32_t *program_tables, int32_t program_tables_len,
                              int32_t sum_rule, fs_step *steps, int32_t steps_len,
                              double *table_values, int32_t table_values_len,
                              double *step_values, int32_t step_values_len,
                              int32_t *step_types, int32_t step_types_len,
                              int32_t *program_spans, int32_t program_spans_len,
                              fs_result *results, int32_t results_len);

/* fs_read_execute_batch and fs_execute_batch with their arguments in memory: `arguments`
 * holds them as int64, in the order of the plain signature (pointers and lengths alike),
 * `count` says how many (22 and 13). For hosts that pay per argument on every call.
 * A wrong count is FS_ERR_BUFFER_TOO_SHORT; a value that does not fit its place (a
 * negative pointer, a length beyond int32) is FS_ERR_NULL_BUFFER. */
int32_t fs_read_execute_batch_packed(const int64_t *arguments, int32_t count);
int32_t fs_execute_batch_packed(const int64_t *arguments, int32_t count);

/* The name of a status code ("ok", "divide_by_zero", ...), or "unknown_status". */
const char *fs_status_name(int32_t status);

/* Layout self-description, so that a host can check it was written for this module. */
int32_t fs_abi_version(void);
int32_t fs_sizeof_step(void);
int32_t fs_sizeof_program(void);
int32_t fs_sizeof_result(void);

#ifdef __cplusplus
}
#endif

#endif /* FINSCORE_CORE_H */
