"""Reading the agent's final response (section 4 of docs/contracts-format.md).

Only the response's shape is checked here; a wrongly shaped response is a
`final_malformed` parser failure, while wrong *content* (a claim with a bad
value or a missing field) is left for the claim comparison to name precisely.
"""

from __future__ import annotations

from typing import Any

from finscore.contracts.formats.models import RESPONSE_KINDS, Answer, Clarification, FinalResponse, Refusal
from finscore.inputs.fields import FieldReader

MAX_CLAIMS = 200
MAX_FIELDS = 50
_ANSWER_OPTIONAL = {"text", "reported_actions", "policy", "citations"}
_OTHER_OPTIONAL = {"text", "reported_actions"}


def parse_final(raw: Any, source: str) -> FinalResponse:
    """A typed final response; raises InputFormatError (reported as `final_malformed`)."""
    reader = FieldReader(source)
    final = reader.mapping(raw, "final")
    kind = reader.choice(final.get("kind"), "final.kind", RESPONSE_KINDS)
    if "text" in final:
        reader.string(final["text"], "final.text")
    if kind == "clarification":
        reader.keys(final, "final", {"kind", "missing"}, _OTHER_OPTIONAL)
        missing = reader.array(final["missing"], "final.missing", MAX_FIELDS)
        names = [reader.string(item, f"final.missing[{index}]") for index, item in enumerate(missing)]
        return Clarification(frozenset(names))
    if kind == "refusal":
        reader.keys(final, "final", {"kind", "reason"}, _OTHER_OPTIONAL)
        return Refusal(reader.string(final["reason"], "final.reason"))
    reader.keys(final, "final", {"kind", "claims"}, _ANSWER_OPTIONAL)
    claims = reader.mapping(final["claims"], "final.claims")
    if len(claims) > MAX_CLAIMS:
        raise reader.fail("final.claims", f"{len(claims)} claims, over the limit of {MAX_CLAIMS}")
    for name, claim in claims.items():
        fields = reader.mapping(claim, f"final.claims.{name}")
        if len(fields) > MAX_FIELDS:
            raise reader.fail(f"final.claims.{name}", f"{len(fields)} fields, over {MAX_FIELDS}")
    policy = reader.optional_string(final.get("policy"), "final.policy")
    citations = reader.mapping(final.get("citations", {}), "final.citations")
    return Answer(claims=claims, policy=policy, citations=citations)
