"""One join of prediction entries to gold keys: every gold counted once, every bad entry named.

Each entry has a key (an id, a TAT-QA uid), a problem (None when usable) and a value
that decides whether repeated copies are the same prediction. A gold key's copies
that are all usable and identical keep the first; copies that differ are all
excluded; an entry whose key the gold lacks is excluded; a malformed entry is
excluded as such. Callers (FinQA, ConvFinQA, TAT-QA, answers) keep their own
messages word for word: the words are a `JoinWords` they pass, and the error a
rejected file raises is their own class on the `Rejection` base.
"""

from typing import Callable, ClassVar, Container, Iterable, Sequence

from finscore.inputs.naming import LISTED_IN_MESSAGES as LISTED_IN_MESSAGES
from finscore.inputs.naming import listing as listing
from finscore.scoring.exclusions import DUPLICATE_ID, EXCLUSION_KINDS, MALFORMED_ENTRY, UNKNOWN_ID, Exclusion



class JoinWords:
    """What a benchmark calls things in exclusions and in the message of a rejected file.

    A plain class with slots, not a NamedTuple: every scoring command makes this class at start-up,
    and a NamedTuple class costs about eight times as much to make (benchmarks/README.md, #29)."""

    __slots__ = ("word", "unknown", "repeats", "conflicts", "unknown_phrase", "unknown_once", "repeated_phrase")

    def __init__(self, word: str, unknown: str, repeats: Callable[[int], str],
                 conflicts: Callable[[int, list[int]], str], unknown_phrase: str, unknown_once: bool,
                 repeated_phrase: str) -> None:
        self.word = word  # the key's name: "id" or "uid"
        self.unknown = unknown  # detail of an entry whose key is not in the gold
        self.repeats = repeats  # detail of an identical later copy, given the first copy's position
        self.conflicts = conflicts  # detail of a differing copy, given it and every copy
        self.unknown_phrase = unknown_phrase  # the message's line of unknown keys, after the count
        self.unknown_once = unknown_once  # list an unknown key once, not once per entry
        self.repeated_phrase = repeated_phrase  # the message's line of repeated keys, after the count

    def copies_named(self, repeats: Callable[[int], str], conflicts: Callable[[int, list[int]], str]) -> "JoinWords":
        """The same words, with repeated and conflicting copies told apart another way."""
        return JoinWords(self.word, self.unknown, repeats, conflicts, self.unknown_phrase, self.unknown_once,
                         self.repeated_phrase)


def numbered_entry_words(word: str, identical: str, different: str, unknown_phrase: str, repeated_phrase: str,
                        *, unknown_once: bool) -> JoinWords:
    """Words for a file whose entries are named by their index: "repeats entry 3 (`identical`, first
    kept)", "conflicts with entries 1, 4 (`different`: none kept)"."""
    def conflicts(position: int, copies: list[int]) -> str:
        return f"conflicts with entries {', '.join(str(p) for p in copies if p != position)} ({different}: none kept)"

    return JoinWords(word, f"the {word} is not in the gold file",
                     lambda first: f"repeats entry {first} ({identical}, first kept)", conflicts,
                     unknown_phrase, unknown_once, repeated_phrase)


#: The words of FinQA, ConvFinQA and answer files (key "id").
ID_WORDS = numbered_entry_words("id", "identical prediction", "different predictions",
                                "prediction(s) with an id that is not in the gold file",
                                "id(s) predicted more than once", unknown_once=False)


class Candidate:
    """One prediction entry as the join sees it (a plain class: a NamedTuple's class costs far more
    to make, and every scoring command makes this one at start-up)."""

    __slots__ = ("position", "key", "problem", "value")

    def __init__(self, position: int, key: str | None, problem: str | None, value: object) -> None:
        self.position = position
        self.key = key  # None: the entry names no key (it is malformed)
        self.problem = problem  # why it cannot be scored, or None
        self.value = value  # equal values: identical copies

    def __repr__(self) -> str:
        return f"Candidate({self.position!r}, {self.key!r}, {self.problem!r}, {self.value!r})"


class Joined:
    """The position kept per gold key (in the order keys first occur), every exclusion in file
    order, and the positions of every copy of each key (malformed copies included)."""

    __slots__ = ("kept", "exclusions", "copies")

    def __init__(self, kept: dict[str, int], exclusions: tuple[Exclusion, ...], copies: dict[str, list[int]]) -> None:
        self.kept = kept
        self.exclusions = exclusions
        self.copies = copies


def rejection_message(exclusions: Iterable[Exclusion], copies: dict[str, list[int]], words: JoinWords) -> str:
    """The user's message: unknown keys, repeated keys with all their entries, malformed entries."""
    grouped: dict[str, list[Exclusion]] = {kind: [] for kind in EXCLUSION_KINDS}
    for exclusion in exclusions:
        grouped[exclusion.kind].append(exclusion)
    lines = ["the prediction file cannot be scored as it is:"]
    if grouped[UNKNOWN_ID]:
        keys = [repr(e.id) for e in grouped[UNKNOWN_ID]]
        if words.unknown_once:
            keys = list(dict.fromkeys(keys))
        lines.append(f"  {len(keys)} {words.unknown_phrase}: {listing(keys)}")
    repeated = list(dict.fromkeys(str(e.id) for e in grouped[DUPLICATE_ID]))
    if repeated:
        named = [f"{key!r} (entries {', '.join(map(str, copies[key]))})" for key in repeated]
        lines.append(f"  {len(named)} {words.repeated_phrase}: {listing(named)}")
    if grouped[MALFORMED_ENTRY]:
        described = [e.describe() for e in grouped[MALFORMED_ENTRY]]
        lines.append(f"  {len(described)} malformed entr{'y' if len(described) == 1 else 'ies'}: "
                     f"{listing(described, 10)}")
    lines.append("  (--exclude-bad-ids scores the rest and reports these as exclusions)")
    return "\n".join(lines)


class Rejection(Exception):
    """Base of a benchmark's PredictionsRejected: the file has entries that cannot be scored.

    A benchmark subclasses it together with its own input error and sets `words`;
    `exclusions` lists every bad entry and the message names them all.
    """

    words: ClassVar[JoinWords] = ID_WORDS

    def __init__(self, exclusions: tuple[Exclusion, ...], copies: dict[str, list[int]]) -> None:
        self.exclusions = exclusions
        super().__init__(rejection_message(exclusions, copies, self.words))

def _duplicates(key: str, copies: list[int], by_position: dict[int, Candidate],
                words: JoinWords) -> tuple[list[Exclusion], int | None]:
    """Exclusions for the copies of one key, and the position kept (if any)."""
    first = by_position[copies[0]]
    if all(by_position[p].problem is None and by_position[p].value == first.value for p in copies):
        return [Exclusion(p, key, DUPLICATE_ID, words.repeats(copies[0]), words.word) for p in copies[1:]], copies[0]
    return [Exclusion(p, key, DUPLICATE_ID, words.conflicts(p, copies), words.word)
            for p in copies if by_position[p].problem is None], None  # malformed copies are reported as such


def join_keys(candidates: Iterable[Candidate], gold_keys: Container[str], words: JoinWords,
              excluded: Iterable[Exclusion] = ()) -> Joined:
    """Join entries to the gold keys; `excluded` are entries already refused before the join."""
    ordered = sorted(candidates, key=lambda c: c.position)
    by_position = {c.position: c for c in ordered}
    exclusions = [*excluded, *(Exclusion(c.position, c.key, MALFORMED_ENTRY, c.problem, words.word)
                               for c in ordered if c.problem is not None)]
    copies: dict[str, list[int]] = {}
    for candidate in ordered:
        if candidate.key is not None:
            copies.setdefault(candidate.key, []).append(candidate.position)
    kept: dict[str, int] = {}
    for key, positions in copies.items():
        if key not in gold_keys:
            exclusions += [Exclusion(p, key, UNKNOWN_ID, words.unknown, words.word)
                           for p in positions if by_position[p].problem is None]
        elif len(positions) > 1:
            duplicate, keep = _duplicates(key, positions, by_position, words)
            exclusions += duplicate
            if keep is not None:
                kept[key] = keep
        elif by_position[positions[0]].problem is None:
            kept[key] = positions[0]
    exclusions.sort(key=lambda e: e.position)
    return Joined(kept, tuple(exclusions), copies)
