"""Does an evidence passage support a claim? Five checks, each with its own typed reason.

A passage is a filing page as FinanceBench extracted it from the PDF (`evidence_text_full_page`):
a table's cells come one to a line, a row's label on the line before its numbers, the dollar sign
on its own line (`$\\n5,363`), negatives in parentheses, the scale once in a header such as
`(Millions)` or `(Dollars in millions, except per share amount)`.

1. document: the cited document is the evidence's `doc_name` (`not_cited` when no citation is given);
2. page: the cited page is the evidence's under a declared convention: `pdf_index` (the dataset's
   zero-based `evidence_page_num`) or `printed` (the page number printed as the page's last line,
   "60" or "F-4"; `page_unknown` when the page prints none);
3. number: some number of the passage equals the claim after declared transforms only: the
   passage's scale header (applied to its amounts, never to a percent, a per-share figure on a
   page that excludes them, or a year), parentheses as negative, the digits of a cell split across
   lines, and rounding to the precision the claim shows (in the claim's scale). An amount in
   parentheses matching a positive claim is `number_magnitude` (the filing shows an outflow
   negative; the claim states its size);
4. row: the row label of that number (the nearest line above it holding letters) shares the words
   of the claim's line item (more than half of the label's words, "Accounts payable" is not
   "Accounts receivable"; `no_line_item` when the claim
   names none);
5. period: the number's column (its place among its row's numbers) is headed by the claim's year
   (the table's first run of years; `period_unknown` when the page has no such header or the claim
   no period).

A claim is `supported` when its number is found and neither the row nor the period check fails
(one that cannot be made is reported, not failed), and a cited document and page both match.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from finscore.financebench.claims import Claim, Period
from finscore.financebench.gold import Evidence
from finscore.financebench.numbers import MAX_SCANNED_CHARS, Number, scan

PAGE_CONVENTIONS = ("pdf_index", "printed")

DOCUMENT_MATCHES = "document_matches"
DOCUMENT_MISMATCH = "document_mismatch"
NOT_CITED = "not_cited"
PAGE_MATCHES = "page_matches"
PAGE_MISMATCH = "page_mismatch"
PAGE_UNKNOWN = "page_unknown"
NUMBER_FOUND = "number_found"
NUMBER_MAGNITUDE = "number_magnitude"
NUMBER_NOT_IN_PASSAGE = "number_not_in_passage"
ROW_MATCHES = "row_matches"
ROW_MISMATCH = "row_mismatch"
NO_LINE_ITEM = "no_line_item"
ROW_UNCHECKED = "row_unchecked"
PERIOD_MATCHES = "period_matches"
PERIOD_MISMATCH = "period_mismatch"
PERIOD_UNKNOWN = "period_unknown"

#: Every support reason and what it says.
SUPPORT_REASONS: dict[str, str] = {
    DOCUMENT_MATCHES: "the cited document is the evidence's",
    DOCUMENT_MISMATCH: "the cited document is not the evidence's",
    NOT_CITED: "the answer cites no document or page: not checked",
    PAGE_MATCHES: "the cited page is the evidence's under the declared page convention",
    PAGE_MISMATCH: "the cited page is not the evidence's under the declared page convention",
    PAGE_UNKNOWN: "the evidence page prints no page number (convention 'printed')",
    NUMBER_FOUND: "a number of the passage equals the claim after the declared transforms",
    NUMBER_MAGNITUDE: "an amount in parentheses of the passage has the claim's magnitude",
    NUMBER_NOT_IN_PASSAGE: "no number of the passage equals the claim after the declared transforms",
    ROW_MATCHES: "the number's row label shares the words of the claim's line item",
    ROW_MISMATCH: "the number's row label does not share the words of the claim's line item",
    NO_LINE_ITEM: "the claim names no line item: the row is not checked",
    ROW_UNCHECKED: "no number of the passage equals the claim: no row or column to check",
    PERIOD_MATCHES: "the number's column is headed by the claim's year",
    PERIOD_MISMATCH: "the number's column is headed by another year",
    PERIOD_UNKNOWN: "the passage has no year header or the claim no period: the column is not checked",
}

#: Words of a row label or line item that say nothing of the row.
STOP_WORDS = frozenset(("the", "of", "and", "in", "for", "a", "an", "to", "on", "by", "from", "at", "as", "net",
                        "total", "fy", "year", "end", "its", "is", "was", "amount", "usd", "million", "millions",
                        "billion", "billions", "thousands", "dollars", "s"))


class Citation(NamedTuple):
    """Where an answer says its claim comes from: the document and the page under `convention`."""

    doc_name: str
    page: int | str
    convention: str = "pdf_index"


class Located(NamedTuple):
    """A number of the passage matched to the claim: the number, its value in units, the row label and year."""

    number: Number
    units: Decimal
    row: str | None
    year: int | None


class Support(NamedTuple):
    """The five checks' reasons, the number found (or None) and the overall verdict."""

    supported: bool
    document: str
    page: str
    number: str
    row: str
    period: str
    located: Located | None


def scale_header(page: str) -> tuple[int, bool]:
    """The power of ten of the passage's scale header ((Millions), (In thousands, except ...), $ in millions)
    and whether it excludes per-share figures; (0, False) without one."""
    lowered = page[:MAX_SCANNED_CHARS].lower()
    best = -1
    power = 0
    for word, exponent in (("thousand", 3), ("million", 6), ("billion", 9)):
        at = lowered.find(word)
        while at >= 0:
            opening = lowered.rfind("(", max(0, at - 40), at)
            closing = lowered.find(")", at, at + 60)
            header = opening >= 0 and closing >= 0 and "$" not in lowered[opening:at].replace("($", "(") \
                and not any(c.isdigit() for c in lowered[opening:at])
            if header or lowered[max(0, at - 16):at].endswith(("$ in ", "dollars in ", "shares in ")):
                if best < 0 or at < best:
                    best = at
                    power = exponent
                break
            at = lowered.find(word, at + 1)
    if best < 0:
        return 0, False
    return power, "except per share" in lowered[best:best + 80] or "except share" in lowered[best:best + 80]


def printed_page(page: str) -> str | None:
    """The page number printed as the page's last non-blank line ("60", "F-4"), or None."""
    for line in reversed(page.rstrip().split("\n")[-3:]):
        token = line.strip()
        if not token:
            continue
        core = token.split("-")[-1]
        if len(token) <= 6 and core.isdigit() and (token == core or token[:-len(core) - 1].isalpha()):
            return token
        return None
    return None


def _row_label(page: str, number: Number) -> str | None:
    """The nearest line above the number (or its own line before it) that holds letters."""
    line_start = page.rfind("\n", 0, number.start) + 1
    own = page[line_start:number.start]
    if any(c.isalpha() for c in own):
        return own.strip(" $")
    end = line_start - 1
    for _ in range(40):
        if end <= 0:
            return None
        start = page.rfind("\n", 0, end) + 1
        line = page[start:end]
        if any(c.isalpha() for c in line):
            return line.strip()
        end = start - 1
    return None


def _years_header(page: str) -> list[int]:
    """The first run of at least two years on the page (a table's column headers), in order: years with
    only white space, or a date's month and day ("February 3, 2018"), between them."""
    run: list[Number] = []
    for number in scan(page):
        if number.year and number.value >= 1900 and not number.glued:
            if run and not _same_header(page, run[-1], number):
                if len(run) >= 2:
                    break
                run = []
            run.append(number)
        elif run and not (number.decimals == 0 and 1 <= number.value <= 31 and not number.dollar):
            if len(run) >= 2:
                break
            run = []
    return [int(n.value) for n in run] if len(run) >= 2 else []


def _same_header(page: str, previous: Number, number: Number) -> bool:
    gap = page[previous.end:number.start]
    return len(gap) <= 24 and not any(c in gap for c in "()$%")


def _column_year(page: str, number: Number, amounts: list[Number], years: list[int]) -> int | None:
    """The year heading the number's column: its place among the numbers of its row."""
    if not years:
        return None
    label_at = page.rfind("\n", 0, number.start)
    row_start = label_at
    for _ in range(40):  # back over the row's cells to its label's line
        previous = page.rfind("\n", 0, row_start)
        line = page[previous + 1:row_start]
        if any(c.isalpha() for c in line) or previous < 0:
            break
        row_start = previous
    row = [n for n in amounts if row_start <= n.start <= number.start and not n.year]
    index = len(row) - 1
    return years[index] if 0 <= index < len(years) else None


def _words(text: str) -> set[str]:
    words: set[str] = set()
    current: list[str] = []
    for char in text.lower() + " ":
        if char.isalnum():
            current.append(char)
            continue
        if current:
            word = "".join(current)
            if word not in STOP_WORDS and not word.isdigit():
                words.add(word[:-1] if word.endswith("s") and len(word) > 3 else word)
            current = []
    return words


def _compact(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def row_matches(label: str, line_item: str) -> bool:
    """More than half of the row label's words are words of the line item (plural s dropped), or one is the
    other with spaces and punctuation removed (text extraction glues words: "Merchandiseinventories")."""
    if _compact(line_item) and _compact(label) and (_compact(line_item) in _compact(label)
                                                    or _compact(label) in _compact(line_item)):
        return True
    label_words = _words(label)
    item_words = _words(line_item)
    if not label_words or not item_words:
        return False
    return 2 * len(label_words & item_words) > len(label_words)


def _equal_at(claimed: Decimal, places: int, value: Decimal) -> bool:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) == claimed if places >= -12 else False


def locate(claim: Claim, page: str, claim_scale: int | None, line_item: str | None = None,
           period: Period | None = None) -> tuple[str, Located | None]:
    """The passage number equal to the claim (in units: the claim's value at `claim_scale`), and its reason.

    Of several equal numbers, the first on a row matching `line_item` in the column of `period` is
    taken, then the first on a matching row, then the first; on a row, an exact number before a magnitude."""
    header, except_per_share = scale_header(page)
    if claim_scale is None:  # a bare amount no question scales: read in the page's own scale
        claim_scale = header if claim.unit == "USD" else 0
    claimed_units = claim.value.scaleb(claim_scale)
    places = claim.number.decimals - claim_scale
    amounts = scan(page)
    years = _years_header(page)
    found: list[tuple[int, str, Located]] = []
    for number in amounts:
        if number.year or number.glued or number.percent != claim.number.percent:
            continue
        per_share = except_per_share and number.decimals == 2 and abs(number.value) < 1000
        scale = number.scale if number.scale else (0 if number.percent or per_share else header)
        units = number.value.scaleb(scale)
        exact = _equal_at(claimed_units, places, units)
        if not exact and not (number.parenthesized and _equal_at(claimed_units, places, -units)):
            continue
        located = Located(number, units, _row_label(page, number), _column_year(page, number, amounts, years))
        row_ok = bool(line_item and located.row and row_matches(located.row, line_item))
        year_ok = period is not None and located.year == period.year
        rank = (0 if row_ok else 4) + (0 if exact else 2) + (0 if year_ok else 1)
        found.append((rank, NUMBER_FOUND if exact else NUMBER_MAGNITUDE, located))
        if rank == 0:
            break
    if not found:
        return NUMBER_NOT_IN_PASSAGE, None
    _, reason, best = min(found, key=lambda item: item[0])
    return reason, best


def check(claim: Claim, evidence: Evidence, claim_scale: int | None, line_item: str | None = None,
          period: Period | None = None, citation: Citation | None = None) -> Support:
    """The five checks of `claim` against one evidence passage (module docstring).

    `claim_scale` is the power of ten the claim's value is in (its scale word, or the question's), or
    None for an amount nothing scales: it is then read in the page's scale header (a bare "$1,577"
    against a "(Millions)" page);
    `line_item` and `period` default to the claim's own."""
    if citation is None:
        document = page = NOT_CITED
    else:
        document = DOCUMENT_MATCHES if citation.doc_name == evidence.doc_name else DOCUMENT_MISMATCH
        if citation.convention == "printed":
            printed = printed_page(evidence.full_page)
            page = PAGE_UNKNOWN if printed is None else PAGE_MATCHES if str(citation.page) == printed \
                else PAGE_MISMATCH
        else:
            page = PAGE_MATCHES if citation.page == evidence.page else PAGE_MISMATCH
    item = line_item if line_item is not None else claim.line_item
    wanted = period if period is not None else claim.period
    number, located = locate(claim, evidence.full_page, claim_scale, item, wanted)
    if located is None:
        row = ROW_UNCHECKED
        column = PERIOD_UNKNOWN
    else:
        row = NO_LINE_ITEM if not item else ROW_MATCHES if located.row and row_matches(located.row, item) \
            else ROW_MISMATCH
        column = PERIOD_UNKNOWN if wanted is None or located.year is None else \
            PERIOD_MATCHES if located.year == wanted.year else PERIOD_MISMATCH
    supported = located is not None and row != ROW_MISMATCH and column != PERIOD_MISMATCH \
        and document in (NOT_CITED, DOCUMENT_MATCHES) and page in (NOT_CITED, PAGE_MATCHES, PAGE_UNKNOWN)
    return Support(supported, document, page, number, row, column, located)
