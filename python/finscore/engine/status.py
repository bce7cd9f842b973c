"""Every status a program's execution can end with, core and reader alike.

1400-1419 are the core's own (see core/finscore_core.h); the core names them
itself and `tests/` check these names against the module. 1420-1439 are the
reader's refusals: text that the official evaluator also rejects, except 1433
(exceeds_bounds), finscore's own refusal of a program past its declared bounds
(see engine/bounds.py), which reports count apart. 1440-1459 are
the strict profile's refusals of quirks that the official evaluator tolerates.
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    # core (1400-1419)
    OK = 1400
    NO_STEPS = 1401
    BUFFER_TOO_SHORT = 1402
    NULL_BUFFER = 1403
    UNKNOWN_OP = 1404
    BAD_ARGUMENT_KIND = 1405
    FORWARD_REFERENCE = 1406
    SELF_REFERENCE = 1407
    REFERENCE_OUT_OF_RANGE = 1408
    REFERENCE_TO_BOOLEAN = 1409
    TABLE_SLICE_OUT_OF_BOUNDS = 1410
    EMPTY_ROW = 1411
    DIVIDE_BY_ZERO = 1412
    ZERO_TO_NEGATIVE_POWER = 1413
    NEGATIVE_BASE_FRACTIONAL_EXPONENT = 1414
    EXP_OVERFLOW = 1415
    UNKNOWN_SUM_RULE = 1416
    BAD_SCALE = 1417
    EXP_COMPLEX_OVERFLOW = 1418
    DEFERRED = 1419
    # reader: what the official evaluator rejects too (1420-1439)
    MALFORMED_STRUCTURE = 1420
    MALFORMED_STEP = 1421
    BAD_NUMBER = 1422
    BAD_REFERENCE = 1423
    REFERENCE_TO_MISSING_STEP = 1424
    UNKNOWN_ROW = 1425
    BAD_CELL = 1426
    MALFORMED_TABLE = 1427
    NO_EARLIER_TABLE_STEP = 1428
    TYPE_ERROR = 1429
    RESULT_NOT_A_NUMBER = 1430
    VALUE_TOO_LARGE = 1431
    NOT_A_TOKEN_LIST = 1432
    EXCEEDS_BOUNDS = 1433  # not an official outcome: finscore's declared bounds (engine/bounds.py)
    # strict: quirks the official evaluator tolerates (1440-1459)
    LAST_TOKEN_NOT_EOF = 1440
    DELIMITER_IN_ARGUMENT = 1441
    TABLE_ROW_REUSE = 1442
    LOOSE_NUMBER_SYNTAX = 1443
    LOOSE_REFERENCE_SYNTAX = 1444
    UNRECOGNIZED_STEP = 1445
    AMBIGUOUS_ROW_NAME = 1446
    TRAILING_TOKENS = 1447

    @property
    def label(self) -> str:
        """The stable lower-case name used in reports and JSON."""
        return self.name.lower()

    @property
    def is_core(self) -> bool:
        return 1400 <= self.value <= 1419

    @property
    def is_strict_quirk(self) -> bool:
        return 1440 <= self.value <= 1459


DESCRIPTIONS: dict[Status, str] = {
    Status.OK: "executed",
    Status.NO_STEPS: "the program has no steps",
    Status.BUFFER_TOO_SHORT: "a declared count exceeds a buffer (ABI misuse)",
    Status.NULL_BUFFER: "a needed buffer is missing (ABI misuse)",
    Status.UNKNOWN_OP: "unknown operation",
    Status.BAD_ARGUMENT_KIND: "an argument of a kind the operation does not take",
    Status.FORWARD_REFERENCE: "a reference to a later step",
    Status.SELF_REFERENCE: "a step that references itself",
    Status.REFERENCE_OUT_OF_RANGE: "a reference to a step that does not exist",
    Status.REFERENCE_TO_BOOLEAN: "arithmetic on the yes/no result of greater",
    Status.TABLE_SLICE_OUT_OF_BOUNDS: "a table row outside the table buffer (ABI misuse)",
    Status.EMPTY_ROW: "a table operation on a row with no cells",
    Status.DIVIDE_BY_ZERO: "division by zero",
    Status.ZERO_TO_NEGATIVE_POWER: "zero raised to a negative power",
    Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT: "a negative number raised to a non-integer power (complex)",
    Status.EXP_OVERFLOW: "exp overflows a float",
    Status.UNKNOWN_SUM_RULE: "unknown summation rule (ABI misuse)",
    Status.BAD_SCALE: "rounding scale is not a power of ten from 1 to 1e22",
    Status.EXP_COMPLEX_OVERFLOW: "a negative number raised to a non-integer power overflows",
    Status.DEFERRED: "not in the plain form the core reads; the full reader decides (never a final status)",
    Status.MALFORMED_STRUCTURE: "tokens are not op(, arg, arg, ) groups",
    Status.MALFORMED_STEP: "a step does not read as op(arg, arg)",
    Status.BAD_NUMBER: "an argument is not a number",
    Status.BAD_REFERENCE: "a #reference whose index is not an integer",
    Status.REFERENCE_TO_MISSING_STEP: "a #reference to a step that produced no value",
    Status.UNKNOWN_ROW: "a table row name that is not in the table",
    Status.BAD_CELL: "a table cell that is not a number",
    Status.MALFORMED_TABLE: "the table is not a list of rows of text",
    Status.NO_EARLIER_TABLE_STEP: "a table operation on #i with no earlier table step to reuse",
    Status.TYPE_ERROR: "an operation on values of the wrong type (Python TypeError)",
    Status.RESULT_NOT_A_NUMBER: "the final value cannot be rounded (text or complex)",
    Status.VALUE_TOO_LARGE: "an integer too large for a float (Python OverflowError)",
    Status.NOT_A_TOKEN_LIST: "the program is not a list of text tokens",
    Status.EXCEEDS_BOUNDS: "a value or table past finscore's declared bounds (not an official outcome)",
    Status.LAST_TOKEN_NOT_EOF: "the last token is not EOF (officially dropped anyway)",
    Status.DELIMITER_IN_ARGUMENT: "an argument holds '|', '(' or ')' (officially re-split)",
    Status.TABLE_ROW_REUSE: "a table operation on #i (officially reuses the previous row)",
    Status.LOOSE_NUMBER_SYNTAX: "a number only Python's float() accepts (officially parsed)",
    Status.LOOSE_REFERENCE_SYNTAX: "a reference only Python's int() accepts (officially parsed)",
    Status.UNRECOGNIZED_STEP: "a step whose op is not one of the ten (officially skipped or copied)",
    Status.AMBIGUOUS_ROW_NAME: "a row name that several rows share (officially the last one)",
    Status.TRAILING_TOKENS: "tokens after the last whole step (officially ignored)",
}


class StatusError(ValueError):
    """An outcome that stops a program, carrying its typed status."""

    def __init__(self, status: Status, message: str) -> None:
        super().__init__(message)
        self.status = status


def status_label(code: int) -> str:
    """Name of any status code, including ones this version does not know."""
    try:
        return Status(code).label
    except ValueError:
        return f"unknown_status_{code}"
