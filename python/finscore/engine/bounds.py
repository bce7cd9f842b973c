"""finscore's declared resource bounds: the one place where they are set.

The official evaluator has no bounds: a program may ask Python for text of any
length or an integer of any size, and model output is not to be trusted with a
machine's memory. finscore computes everything the official evaluator computes
within these bounds, exactly; a program that would cross one ends with its own
status, `exceeds_bounds` (not an official outcome: reports count such programs
apart, "N programs exceeded finscore's declared bounds", and no accuracy counts
them as wrong or right without saying so).

Values that leave the float world only arise in the walker (see
`finscore.engine.walker`): text from `greater` ("yes"/"no", which `add`
concatenates), integers from the sum of an empty row (Python's `sum([])` is the
integer 0). The bounds are checked before a value is made, so a refused value is
never built.
"""

from __future__ import annotations

import struct

from finscore.engine.core._abi_generated import FS_PROGRAM_FORMAT, FS_RESULT_FORMAT, FS_STEP_FORMAT

#: Longest text value, in characters (16 MiB): "yes" doubled 22 times fits, 23 times does not.
MAX_TEXT_CHARACTERS = 16 * 1024 * 1024

#: Largest integer value, in bits (2 ** 999_999 fits, 2 ** 1_000_000 does not).
MAX_INTEGER_BITS = 1_000_000

#: All the text and integer values one program holds at once (characters, and bytes
#: of integers), so that many steps of large values cannot add up past the others.
MAX_PROGRAM_VALUE_BYTES = 64 * 1024 * 1024

#: Largest block of the core's linear memory one call may use (inputs, scratch and
#: outputs together). The module's memory is capped at 1 GiB; a batch is cut into
#: calls below this, and a single program whose table alone needs more than this is
#: refused with `exceeds_bounds` instead of being sent (about 60 million table cells).
MAX_CORE_CALL_BYTES = 512 * 1024 * 1024


def integer_bytes(value: int) -> int:
    """The size an integer value counts for against MAX_PROGRAM_VALUE_BYTES."""
    return (value.bit_length() + 7) // 8


def power_bits(base: int, exponent: int) -> tuple[int, int]:
    """Least and greatest bit length of base ** exponent (exponent >= 1, |base| >= 2):
    |base| has b bits, so it lies in [2**(b-1), 2**b) and its power in
    [2**((b-1)*e), 2**(b*e))."""
    bits = abs(base).bit_length()
    return (bits - 1) * exponent + 1, bits * exponent


#: What the core's records take: a step with its value and type (a double and an int),
#: a table cell (a double), and a program with its result. The record layouts come from
#: core/abi.toml through the generated module, so a layout change moves these with it.
_STEP_BYTES = struct.calcsize(FS_STEP_FORMAT) + struct.calcsize("<di")
_CELL_BYTES = struct.calcsize("<d")
_PROGRAM_BYTES = struct.calcsize(FS_PROGRAM_FORMAT) + struct.calcsize(FS_RESULT_FORMAT)


def core_program_bytes(steps: int, table_cells: int) -> int:
    """Linear memory one resolved program takes in a core call (fs_execute_batch)."""
    return _PROGRAM_BYTES + _STEP_BYTES * steps + _CELL_BYTES * table_cells


def plain_call_bytes(text_bytes: int, table_bytes: int, programs: int, steps: int, table_values: int) -> int:
    """Linear memory a call of the core's plain reader (fs_read_execute_batch) takes: the
    text and tables, room for every step and for the table values it copies (docs/abi.md)."""
    return (text_bytes + table_bytes + 64 * programs + 512 + _STEP_BYTES * steps
            + _CELL_BYTES * table_values)
