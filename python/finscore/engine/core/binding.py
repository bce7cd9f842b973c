"""The loaded core: typed calls over the raw ABI, one instance per process.

Loading is lazy (the first call pays for compiling the module, about 10 ms) and
happens once per process. A batch of programs costs one call into the module,
so the runtime's per-call cost is paid per batch, not per program.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (PlainCallRegions is made at start-up).

import struct
import sys
import threading
from array import array
from typing import NamedTuple, Sequence

from finscore.engine.bounds import MAX_CORE_CALL_BYTES
from finscore.engine.core.abi import (
    ABI_VERSION,
    ANSWER_OUTCOME_STRUCT,
    PROGRAM_STRUCT,
    RESULT_STRUCT,
    STEP_STRUCT,
    BatchOutput,
    CoreProgram,
    SumRule,
    pack_batch,
    regions,
)
from finscore.engine.core._abi_generated import EXPORT_PARAMETERS, AnswerSize, Status
from finscore.engine.core.hosts.backend import CoreLoadError, WasmBackend
from finscore.engine.core.hosts.loading import load_backend
from finscore.engine.core.plain_text import PlainBatch

_DOUBLE = struct.Struct("<d")
_EXECUTE_BATCH_ARGUMENTS = len(EXPORT_PARAMETERS["fs_execute_batch"])
_READ_EXECUTE_ARGUMENTS = len(EXPORT_PARAMETERS["fs_read_execute_batch"])
_DECIDE_ANSWERS_ARGUMENTS = len(EXPORT_PARAMETERS["fs_decide_answers"])
_DECIDE_PEER_ARGUMENTS = len(EXPORT_PARAMETERS["fs_decide_peer_acc"])
_NAME_LIMIT = 64  # every status name is NUL-terminated ASCII under 64 bytes (docs/abi.md)


def _packed(entry: str, arguments: dict[str, int]) -> bytes:
    """Arguments of `entry`'s *_packed twin, as the int64s it reads from memory, put in the
    order of the ABI's one source (core/abi.toml) by name, so that no place holds the order."""
    names = [name for name, _ in EXPORT_PARAMETERS[entry]]
    if sorted(arguments) != sorted(names):
        raise TypeError(f"{entry} takes {names}, not {sorted(arguments)}")
    packed = array("q", [arguments[name] for name in names])
    if sys.byteorder != "little":  # the module's memory is little-endian
        packed.byteswap()
    return packed.tobytes()


class PlainCallRegions(NamedTuple):
    """Where a plain-reader call put the steps and table values it read (addresses in linear memory)."""

    steps_at: int
    steps: int
    table_values_at: int
    table_values: int


class CoreError(RuntimeError):
    """The core refused a call as a whole (misuse of the ABI, not a program's outcome)."""

    def __init__(self, status: int, name: str, what: str) -> None:
        super().__init__(f"{what}: core status {status} ({name})")
        self.status = status
        self.status_name = name


class Core:
    """Typed access to one instance of the WebAssembly core."""

    OK = int(Status.OK)  # core/abi.toml owns the status codes

    def __init__(self, backend: WasmBackend) -> None:
        self._backend = backend
        self._lock = threading.Lock()  # one instance, one linear memory: one caller at a time
        self._scratch = 0
        self._scratch_size = 0
        self._names: dict[int, str] = {}
        self._check_layout()

    def _check_layout(self) -> None:
        found = (
            self._backend.call("fs_abi_version"),
            self._backend.call("fs_sizeof_step"),
            self._backend.call("fs_sizeof_program"),
            self._backend.call("fs_sizeof_result"),
        )
        expected = (ABI_VERSION, STEP_STRUCT.size, PROGRAM_STRUCT.size, RESULT_STRUCT.size)
        if found != expected:
            raise CoreLoadError(
                f"the core module's ABI {found} does not match this package's {expected}; "
                "rebuild it with build/build_wasm.sh"
            )

    def _reserve(self, size: int) -> int:
        """A scratch block of at least `size` bytes, reused across calls."""
        if size <= self._scratch_size:
            return self._scratch
        if self._scratch:
            self._backend.call("fs_free", self._scratch)
            self._scratch, self._scratch_size = 0, 0
        grown = max(size, min(2 * self._scratch_size, MAX_CORE_CALL_BYTES), 4096)  # never doubles past the bound
        address = self._backend.call("fs_alloc", grown)
        if address == 0:
            raise MemoryError(f"the core could not reserve {grown} bytes of linear memory")
        self._scratch, self._scratch_size = address, grown
        return address

    def status_name(self, status: int) -> str:
        """The core's own name for a status code."""
        with self._lock:
            if status not in self._names:
                address = self._backend.call("fs_status_name", status)
                raw = self._backend.read(address, _NAME_LIMIT)
                self._names[status] = raw.split(b"\0", 1)[0].decode("ascii")
            return self._names[status]

    def execute_batch(
        self, programs: Sequence[CoreProgram], sum_rule: SumRule = SumRule.PY311
    ) -> BatchOutput:
        """Run many resolved programs in one call; one CoreResult per program, in order."""
        if not programs:
            return BatchOutput(b"", b"", b"", [])
        layout, inputs = pack_batch(programs)
        with self._lock:
            base = self._reserve(layout.total + 8 * _EXECUTE_BATCH_ARGUMENTS)
            self._backend.write(base, bytes(inputs))
            status = self._call_packed("fs_execute_batch", base + layout.total, dict(
                programs=base + layout.programs, program_count=layout.program_count,
                steps=base + layout.steps, steps_len=layout.step_count,
                table_values=base + layout.table, table_len=layout.table_count,
                sum_rule=int(sum_rule),
                step_values=base + layout.step_values, step_values_len=layout.step_count,
                step_types=base + layout.step_types, step_types_len=layout.step_count,
                results=base + layout.results, results_len=layout.program_count,
            ))
            if status != self.OK:
                raise CoreError(status, self._name_unlocked(status), "fs_execute_batch refused the batch")
            # the outputs lie together: step values, step types, results; one read
            outputs = self._backend.read(base + layout.step_values, layout.total - layout.step_values)
        at = layout.step_values
        values = outputs[: layout.step_count * 8]
        types = outputs[layout.step_types - at : layout.step_types - at + layout.step_count * 4]
        results = outputs[layout.results - at : layout.results - at + layout.program_count * RESULT_STRUCT.size]
        return BatchOutput(results, values, types, BatchOutput.spans_of(programs))

    def read_execute_batch(self, plain: PlainBatch, sum_rule: SumRule = SumRule.PY311) -> BatchOutput:
        """Let the core read and run plain token programs in one call (fs_read_execute_batch).

        A program it does not take gets the status DEFERRED (1419), for the full reader.
        """
        return self._read_plain(plain, sum_rule)[0]

    def _read_plain(self, plain: PlainBatch, sum_rule: SumRule) -> tuple[BatchOutput, PlainCallRegions | None]:
        """`read_execute_batch`, and where the call's regions lay (see `_read_execute`)."""
        return self._read_execute(
            plain.text() if plain.indices else b"", len(plain.indices), plain.table_bytes, plain.table_spans,
            plain.program_tables, steps=plain.token_count // 4 + 1, table_values=plain.table_value_cells,
            sum_rule=sum_rule,
        )

    def read_execute_text(self, text: bytes, count: int, tables: bytes, table_spans: Sequence[int],
                          program_tables: Sequence[int], *, steps: int, table_values: int,
                          sum_rule: SumRule = SumRule.PY311) -> BatchOutput:
        """fs_read_execute_batch on text already laid out (see finscore.engine.core.plain_text), with room
        for `steps` steps and `table_values` table cells. `tables` holds every table, and
        `table_spans` each one's offset and length in it."""
        return self._read_execute(text, count, tables, table_spans, program_tables, steps=steps,
                                  table_values=table_values, sum_rule=sum_rule)[0]

    def _read_execute(self, text: bytes, count: int, tables: bytes, table_spans: Sequence[int],
                      program_tables: Sequence[int], *, steps: int, table_values: int,
                      sum_rule: SumRule) -> tuple[BatchOutput, PlainCallRegions | None]:
        """`read_execute_text`, and where in linear memory the call's regions lay (None for an
        empty batch): the core's scratch keeps them until the next call."""
        if not count:
            return BatchOutput(b"", b"", b"", []), None
        spans = array("i", table_spans)
        table_count = len(table_spans) // 2
        program_table_array = array("i", program_tables)
        if sys.byteorder != "little":  # the module's memory is little-endian
            spans.byteswap()
            program_table_array.byteswap()
        # inputs first (written at once), then the core's scratch, then the outputs (read at once)
        (at_text, at_tables, at_spans, at_program_tables, at_arguments, at_steps, at_table_values, at_values,
         at_types, at_program_spans, at_results), total = regions(
            len(text), len(tables), 4 * len(spans), 4 * count, 8 * _READ_EXECUTE_ARGUMENTS,
            STEP_STRUCT.size * steps, 8 * table_values, 8 * steps, 4 * steps, 8 * count, RESULT_STRUCT.size * count,
        )
        with self._lock:
            base = self._reserve(total)
            arguments = _packed("fs_read_execute_batch", dict(
                text=base + at_text, text_len=len(text), program_count=count,
                tables=base + at_tables, tables_len=len(tables), table_spans=base + at_spans, table_count=table_count,
                program_tables=base + at_program_tables, program_tables_len=count, sum_rule=int(sum_rule),
                steps=base + at_steps, steps_len=steps, table_values=base + at_table_values,
                table_values_len=table_values, step_values=base + at_values, step_values_len=steps,
                step_types=base + at_types, step_types_len=steps,
                program_spans=base + at_program_spans, program_spans_len=2 * count,
                results=base + at_results, results_len=count,
            ))
            # straight into linear memory, region by region: no staging copy of the inputs
            self._backend.write_all(((base + at_text, text), (base + at_tables, tables),
                                     (base + at_spans, spans.tobytes()),
                                     (base + at_program_tables, program_table_array.tobytes()),
                                     (base + at_arguments, arguments)))
            status = self._backend.call("fs_read_execute_batch_packed", base + at_arguments,
                                        _READ_EXECUTE_ARGUMENTS)
            if status != self.OK:
                raise CoreError(status, self._name_unlocked(status), "fs_read_execute_batch refused the batch")
            # each output region read once, at its exact size
            values, types, span_bytes, results = self._backend.read_all((
                (base + at_values, 8 * steps), (base + at_types, 4 * steps),
                (base + at_program_spans, 8 * count), (base + at_results, RESULT_STRUCT.size * count)))
            program_spans = array("i")
            program_spans.frombytes(span_bytes)
        if sys.byteorder != "little":
            program_spans.byteswap()
        return (BatchOutput(results, values, types, program_spans),
                PlainCallRegions(base + at_steps, steps, base + at_table_values, table_values))

    def decide_answers(self, rules: bytes, format: int, text: bytes, rows: Sequence[int], golds: bytes,
                       gold_spans: Sequence[int]) -> tuple[bytes, bytes]:
        """fs_decide_answers: one outcome record per row (see core/finscore_core.h) and each row's
        value text in 64-byte slots. `rows` holds (offset, length, gold) per row, `gold_spans`
        (offset, length) per gold."""
        count = len(rows) // 3
        if not count:
            return b"", b""
        row_array, span_array = array("i", rows), array("i", gold_spans)
        if sys.byteorder != "little":  # the module's memory is little-endian
            row_array.byteswap()
            span_array.byteswap()
        value_bytes = int(AnswerSize.VALUE_BYTES)
        (at_rules, at_text, at_rows, at_golds, at_spans, at_arguments, at_outcomes, at_values), total = regions(
            len(rules), len(text), 4 * len(row_array), len(golds), 4 * len(span_array),
            8 * _DECIDE_ANSWERS_ARGUMENTS, ANSWER_OUTCOME_STRUCT.size * count, value_bytes * count)
        with self._lock:
            base = self._reserve(total)
            arguments = _packed("fs_decide_answers", dict(
                rules=base + at_rules, rules_len=len(rules), format=format, text=base + at_text,
                text_len=len(text), rows=base + at_rows, rows_len=len(row_array), row_count=count,
                golds=base + at_golds, golds_len=len(golds), gold_spans=base + at_spans,
                gold_count=len(span_array) // 2, outcomes=base + at_outcomes, outcomes_len=count,
                values=base + at_values, values_len=value_bytes * count,
            ))
            self._backend.write_all(((base + at_rules, rules), (base + at_text, text),
                                     (base + at_rows, row_array.tobytes()), (base + at_golds, golds),
                                     (base + at_spans, span_array.tobytes()), (base + at_arguments, arguments)))
            status = self._backend.call("fs_decide_answers_packed", base + at_arguments, _DECIDE_ANSWERS_ARGUMENTS)
            if status != self.OK:
                raise CoreError(status, self._name_unlocked(status), "fs_decide_answers refused the batch")
            outcomes, values = self._backend.read_all(((base + at_outcomes, ANSWER_OUTCOME_STRUCT.size * count),
                                                       (base + at_values, value_bytes * count)))
        return outcomes, values

    def locate_boxed(self, text: bytes) -> tuple[int, int, int]:
        """fs_locate_boxed: (an `fs_boxed_outcome`, the content's start, its end), in bytes of `text`."""
        (at_text, at_out), total = regions(len(text), 12)
        with self._lock:
            base = self._reserve(total)
            self._backend.write(base + at_text, text)
            status = self._backend.call("fs_locate_boxed", base + at_text, len(text), base + at_out, 3)
            if status != self.OK:
                raise CoreError(status, self._name_unlocked(status), "fs_locate_boxed refused the text")
            found = array("i")
            found.frombytes(self._backend.read(base + at_out, 12))
        if sys.byteorder != "little":
            found.byteswap()
        return found[0], found[1], found[2]

    def locate_phrase(self, text: bytes, markers: bytes) -> tuple[int, int, int]:
        """fs_locate_phrase: (an `fs_phrase_outcome`, the marker's start, its end), in bytes of `text`;
        `markers` as docs/abi.md lays them out (the words of each marker, in the order tried)."""
        (at_text, at_markers, at_out), total = regions(len(text), len(markers), 12)
        with self._lock:
            base = self._reserve(total)
            self._backend.write(base + at_text, text)
            self._backend.write(base + at_markers, markers)
            status = self._backend.call("fs_locate_phrase", base + at_text, len(text), base + at_markers,
                                        len(markers), base + at_out, 3)
            if status != self.OK:
                raise CoreError(status, self._name_unlocked(status), "fs_locate_phrase refused the call")
            found = array("i")
            found.frombytes(self._backend.read(base + at_out, 12))
        if sys.byteorder != "little":
            found.byteswap()
        return found[0], found[1], found[2]

    def decide_peer_acc(self, rule: int, text: bytes, count: int, golds: bytes,
                        gold_kinds: bytes) -> tuple[bytes, bytes]:
        """fs_decide_peer_acc: one outcome byte per row (see core/finscore_core.h) and each row's
        ratio (little-endian doubles). `text` holds the rows separated by one NUL each, `golds`
        their golds as little-endian doubles, `gold_kinds` one `fs_peer_gold` byte each."""
        if not count:
            return b"", b""
        (at_text, at_golds, at_kinds, at_arguments, at_outcomes, at_ratios), total = regions(
            len(text), len(golds), len(gold_kinds), 8 * _DECIDE_PEER_ARGUMENTS, count, 8 * count)
        with self._lock:
            base = self._reserve(total)
            arguments = _packed("fs_decide_peer_acc", dict(
                rule=rule, text=base + at_text, text_len=len(text), row_count=count, golds=base + at_golds,
                golds_len=len(golds) // 8, gold_kinds=base + at_kinds, gold_kinds_len=len(gold_kinds),
                outcomes=base + at_outcomes, outcomes_len=count, ratios=base + at_ratios, ratios_len=count,
            ))
            self._backend.write_all(((base + at_text, text), (base + at_golds, golds), (base + at_kinds, gold_kinds),
                                     (base + at_arguments, arguments)))
            status = self._backend.call("fs_decide_peer_acc_packed", base + at_arguments, _DECIDE_PEER_ARGUMENTS)
            if status != self.OK:
                raise CoreError(status, self._name_unlocked(status), "fs_decide_peer_acc refused the batch")
            outcomes, ratios = self._backend.read_all(((base + at_outcomes, count), (base + at_ratios, 8 * count)))
        return outcomes, ratios

    def _call_packed(self, entry: str, at: int, arguments: dict[str, int]) -> int:
        """Call `entry`'s *_packed twin: its arguments go into memory at `at`, so that only two
        cross the call (a host may pay for each argument it passes)."""
        self._backend.write(at, _packed(entry, arguments))
        return self._backend.call(f"{entry}_packed", at, len(arguments))

    def _name_unlocked(self, status: int) -> str:
        address = self._backend.call("fs_status_name", status)
        return self._backend.read(address, _NAME_LIMIT).split(b"\0", 1)[0].decode("ascii")

    def _double_call(self, name: str, *args: int | float) -> tuple[int, float]:
        """Call a function that writes one double through its last (pointer) argument."""
        with self._lock:
            base = self._reserve(8)
            status = self._backend.call(name, *args, base)
            value = _DOUBLE.unpack(self._backend.read(base, 8))[0]
        return status, value

    def round_half_even_scaled(self, x: float, scale: float) -> float:
        """CPython's round(x, n) for scale == 10.0 ** n, n in 0..22."""
        status, value = self._double_call("fs_round_half_even_scaled", float(x), float(scale))
        if status != self.OK:
            raise CoreError(status, self.status_name(status), f"cannot round at scale {scale!r}")
        return value


_core: Core | None = None
_core_lock = threading.Lock()


def get_core() -> Core:
    """The process's core instance, loaded on first use."""
    global _core
    if _core is None:
        with _core_lock:
            if _core is None:
                _core = Core(load_backend())
    return _core
