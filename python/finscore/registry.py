"""The benchmark registry: one descriptor per benchmark, and every part of finscore reads it.

A benchmark's facts (its name, data source, readers, protocols, reason words, command,
shipped examples and the unit that groups its correlated examples) are written once, in
its folder's `benchmark.py`, and the CLI, the rewards config, the lm-eval and inspect
integrations and the playground (through the generated `web/src/benchmarks.json`) read
them from here. A descriptor names code by `Ref` ("package.module:attribute"), imported on
first use, so that reading the registry costs no benchmark's import; a shipped descriptor
itself is imported only when its benchmark is asked for (or every benchmark is listed).

Another benchmark registers the way inspect_ai registers a scorer: build a `Benchmark`
and pass it to `register_benchmark` (docs/architecture.md, "Where a change goes").
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made, and every command makes these classes at start-up.
import importlib
from typing import Any, Iterator, TypeVar

#: The modules whose `BENCHMARK` descriptor finscore ships, in the order the CLI lists them.
BUILTIN_DESCRIPTORS: tuple[str, ...] = (
    "finscore.finqa.benchmark",
    "finscore.convfinqa.benchmark",
    "finscore.tatqa.benchmark",
    "finscore.financebench.benchmark",
)


class RegistryError(ValueError):
    """A descriptor that cannot be registered, or a name no descriptor has."""


class Ref:
    """Code named by "package.module:attribute", imported only when `load` is called.

    A plain value class, not a NamedTuple: every command builds its descriptor's Refs at start-up,
    and making a NamedTuple class costs about eight times a plain one (benchmarks/README.md, #29)."""

    __slots__ = ("target",)

    def __init__(self, target: str) -> None:
        self.target = target

    def __eq__(self, other: object) -> bool:
        return type(other) is Ref and other.target == self.target

    def __hash__(self) -> int:
        return hash((Ref, self.target))

    def __repr__(self) -> str:
        return f"Ref({self.target!r})"

    def load(self) -> Any:
        """The attribute, importing its module on first use."""
        module, _, attribute = self.target.partition(":")
        if not module or not attribute:
            raise RegistryError(f"a reference must read 'package.module:attribute', not {self.target!r}")
        return getattr(importlib.import_module(module), attribute)


class _Record:
    """An immutable record with named fields, compared, hashed and replaced by them, as a NamedTuple is.

    A NamedTuple is not used: making its class compiles its constructor and checks each field's type,
    about 0.65 M instructions for IndependenceUnit and 2 M for Benchmark's 18 fields at every start-up
    (benchmarks/README.md, #29). A subclass names its fields in `__slots__`, in order, and stores them
    with `_set` from a typed `__init__`."""

    __slots__: tuple[str, ...] = ()

    def _set(self, **values: Any) -> None:
        for field, value in values.items():
            object.__setattr__(self, field, value)

    def _asdict(self) -> dict[str, Any]:
        return {field: getattr(self, field) for field in self.__slots__}

    def _replace(self: "_R", **changes: Any) -> "_R":
        """A copy with the given fields changed (a NamedTuple's `_replace`)."""
        return type(self)(**{**self._asdict(), **changes})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a {type(self).__name__} cannot be changed; make another with _replace")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Record) and other._asdict() == self._asdict()

    def __hash__(self) -> int:
        return hash((type(self), *self._asdict().values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{field}={value!r}" for field, value in self._asdict().items())
        return f"{type(self).__name__}({fields})"


#: A record's own type, for `_replace`. Made after the class, not with bound="_Record": a bound given as
#: text is compiled, and a process's first compile() costs about 10 M instructions.
_R = TypeVar("_R", bound=_Record)


class IndependenceUnit(_Record):
    """The key that groups correlated examples (for intervals that do not pretend rows are independent).

    `key` names a function from the decoded gold file (as the gold reader gives it) to a mapping of
    each example's id to its unit's key."""

    __slots__ = ("name", "description", "key")
    name: str
    description: str
    key: Ref

    def __init__(self, name: str, description: str, key: Ref) -> None:
        self._set(name=name, description=description, key=key)


class Example:
    """A shipped example: a prediction file and the gold file it is scored against (repository paths).

    A plain value class for the reason Ref is one."""

    __slots__ = ("predictions", "gold")

    def __init__(self, predictions: str, gold: str) -> None:
        self.predictions = predictions
        self.gold = gold

    def __eq__(self, other: object) -> bool:
        return type(other) is Example and (other.predictions, other.gold) == (self.predictions, self.gold)

    def __hash__(self) -> int:
        return hash((Example, self.predictions, self.gold))

    def __repr__(self) -> str:
        return f"Example({self.predictions!r}, {self.gold!r})"


class Benchmark(_Record):
    """What finscore knows about one benchmark, written once.

    - `name`: the CLI command and the data-source id of reward rows ("finqa").
    - `title`, `official_scorer`, `data_source`: how people name it and its official scorer, and where
      its data comes from (the dataset's id).
    - `gold_reader`, `prediction_reader`: path -> the decoded file, with typed errors naming the entry.
    - `official_protocol`, `honest_protocol`: the official scorer's rules, in words, and finscore's
      honest figure beside it (every gold example counted, a missing prediction a failure).
    - `answer_protocols`: the free-text answer protocols of its questions (`finscore answers`).
    - `program_profile`: the engine's reader profile of its programs, or None if it has none.
    - `reasons`: the mapping from each miss reason word to its description.
    - `command`: the module whose `register(subparsers)` adds its command, or None for the generic
      command (`finscore.commands.benchmark`), which needs `decide`.
    - `decide`: (prediction, gold) -> (passed, reason word), for the generic command and reward.
    - `prediction_reward`: the reward source scoring a completion that is a prediction of this
      benchmark (`RewardConfig(input=name)`), or None; a benchmark with `decide` gets a generic one.
    - `examples`: the shipped prediction and gold files.
    - `unit`: its independence unit.
    - `question_problem`: a gold question as its gold file holds it -> why one decision cannot read it,
      or None; for readers of its gold outside its own folder (`finscore answers`), or None.
    - `program_comparer`: the class of its official program equivalence (`equal_program(gold tokens,
      tokens)` of an instance), for program rewards with `match="program"`, or None.
    """

    __slots__ = ("name", "title", "official_scorer", "data_source", "gold_reader", "prediction_reader",
                 "official_protocol", "honest_protocol", "reasons", "unit", "answer_protocols", "program_profile",
                 "command", "decide", "prediction_reward", "examples", "question_problem", "program_comparer")
    name: str
    title: str
    official_scorer: str
    data_source: str
    gold_reader: Ref
    prediction_reader: Ref
    official_protocol: str
    honest_protocol: str
    reasons: Ref
    unit: IndependenceUnit
    answer_protocols: tuple[str, ...]
    program_profile: str | None
    command: str | None
    decide: Ref | None
    prediction_reward: Ref | None
    examples: tuple[Example, ...]
    question_problem: Ref | None
    program_comparer: Ref | None

    def __init__(self, name: str,
                 title: str,
                 official_scorer: str,
                 data_source: str,
                 gold_reader: Ref,
                 prediction_reader: Ref,
                 official_protocol: str,
                 honest_protocol: str,
                 reasons: Ref,
                 unit: IndependenceUnit,
                 answer_protocols: tuple[str, ...] = (),
                 program_profile: str | None = None,
                 command: str | None = None,
                 decide: Ref | None = None,
                 prediction_reward: Ref | None = None,
                 examples: tuple[Example, ...] = (),
                 question_problem: Ref | None = None,
                 program_comparer: Ref | None = None) -> None:
        self._set(name=name, title=title, official_scorer=official_scorer, data_source=data_source,
                  gold_reader=gold_reader, prediction_reader=prediction_reader,
                  official_protocol=official_protocol, honest_protocol=honest_protocol, reasons=reasons,
                  unit=unit, answer_protocols=answer_protocols, program_profile=program_profile,
                  command=command, decide=decide, prediction_reward=prediction_reward, examples=examples,
                  question_problem=question_problem, program_comparer=program_comparer)


#: The shipped descriptors loaded so far, by name, and the others in the order they were registered.
_SHIPPED: dict[str, Benchmark] = {}
_REGISTERED: dict[str, Benchmark] = {}


def _shipped_names() -> tuple[str, ...]:
    """The shipped benchmarks' names, without importing a descriptor: each is its folder's name
    (finscore.<name>.benchmark), which the descriptor's own name must be (checked when it loads)."""
    return tuple(module.split(".")[-2] for module in BUILTIN_DESCRIPTORS)


def _shipped(name: str) -> Benchmark:
    """A shipped descriptor, imported on first use (a command needs only its own benchmark's)."""
    descriptor = _SHIPPED.get(name)
    if descriptor is None:
        module = BUILTIN_DESCRIPTORS[_shipped_names().index(name)]
        descriptor = importlib.import_module(module).BENCHMARK
        _check(descriptor)
        if descriptor.name != name:
            raise RegistryError(f"{module} describes {descriptor.name!r}, not the benchmark of its folder, {name!r}")
        _SHIPPED[name] = descriptor
    return descriptor


def _all() -> dict[str, Benchmark]:
    """Every descriptor by name, the shipped ones first (all loaded), then the registered ones."""
    every = {name: _shipped(name) for name in _shipped_names()}
    every.update(_REGISTERED)
    return every


def _check(descriptor: Benchmark) -> None:
    if not isinstance(descriptor, Benchmark):
        raise RegistryError(f"a benchmark descriptor must be a finscore.registry.Benchmark, not "
                            f"{type(descriptor).__name__}")
    if not descriptor.name or not descriptor.name.replace("-", "").replace("_", "").isalnum() \
            or not descriptor.name.isascii() or descriptor.name != descriptor.name.lower():
        raise RegistryError(f"a benchmark name is lower-case ASCII letters, digits, '-' or '_', "
                            f"not {descriptor.name!r}")
    if descriptor.command is None and descriptor.decide is None:
        raise RegistryError(f"benchmark {descriptor.name!r} has neither its own command nor a decide function "
                            f"for the generic one")


def register_benchmark(descriptor: Benchmark) -> Benchmark:
    """Add a benchmark; its command, reward source and report then come from the descriptor alone."""
    _check(descriptor)
    if descriptor.name in _shipped_names() or descriptor.name in _REGISTERED:
        raise RegistryError(f"a benchmark named {descriptor.name!r} is already registered")
    _REGISTERED[descriptor.name] = descriptor
    return descriptor


def unregister_benchmark(name: str) -> None:
    """Remove a benchmark registered by `register_benchmark` (the shipped ones stay)."""
    if name in _shipped_names():
        raise RegistryError(f"{name!r} is a shipped benchmark and stays registered")
    if _REGISTERED.pop(name, None) is None:
        raise RegistryError(f"no benchmark named {name!r} is registered")


def get_benchmark(name: str) -> Benchmark:
    """The descriptor of `name`, or a RegistryError listing the registered names."""
    if name in _shipped_names():
        return _shipped(name)
    try:
        return _REGISTERED[name]
    except KeyError:
        raise RegistryError(f"no benchmark named {name!r}; registered: {', '.join(benchmark_names())}") from None


def benchmarks() -> Iterator[Benchmark]:
    """Every registered descriptor, the shipped ones first, in the order the CLI lists them."""
    return iter(tuple(_all().values()))


def benchmark_names() -> tuple[str, ...]:
    """Every registered benchmark's name, in the order the CLI lists them (no descriptor is imported)."""
    return _shipped_names() + tuple(_REGISTERED)


def program_profiles() -> dict[str, str]:
    """The engine's reader profile of each benchmark whose programs finscore scores."""
    return {b.name: b.program_profile for b in benchmarks() if b.program_profile is not None}


#: Data sources with an answer protocol but no benchmark descriptor (finscore reads no file of
#: theirs: their golds come as `finscore answers decide-jsonl` lines or reward rows), by the
#: data-source name a reward row gives, after the benchmarks' own.
ANSWER_ONLY_SOURCES: dict[str, str] = {"financemath": "financemath-answer/1"}
#: Later versions of an answer-only source's protocol, offered by name (`--protocol`) beside the
#: source's own, which a reward row of that source keeps (financemath-answer/2: issue #32).
ANSWER_ONLY_VERSIONS: tuple[str, ...] = ("financemath-answer/2",)


def answer_protocols() -> dict[str, str]:
    """The first (main) answer protocol of each benchmark that has free-text answers, then the
    answer-only data sources (ANSWER_ONLY_SOURCES)."""
    found = {b.name: b.answer_protocols[0] for b in benchmarks() if b.answer_protocols}
    return {**found, **{name: protocol for name, protocol in ANSWER_ONLY_SOURCES.items() if name not in found}}


def all_answer_protocols() -> tuple[str, ...]:
    """Every benchmark's answer protocols, in registry order, each once, then the answer-only ones
    (each source's, then their later versions)."""
    return tuple(dict.fromkeys([*(protocol for b in benchmarks() for protocol in b.answer_protocols),
                                *ANSWER_ONLY_SOURCES.values(), *ANSWER_ONLY_VERSIONS]))


def prediction_reward_names() -> tuple[str, ...]:
    """The benchmarks whose predictions a reward can score directly (`RewardConfig(input=name)`)."""
    return tuple(b.name for b in benchmarks() if b.prediction_reward is not None or b.decide is not None)
