"""`finscore run`: run a candidate agent on a case set, record trusted traces, score the run.

The candidate is a scripted agent shipped with finscore (`--agent NAME`) or any
OpenAI-compatible chat-completions endpoint (`--endpoint URL --model M`). The
runtime executes every tool call itself against the case's fixtures, so the
traces it writes are what the scorer trusts.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from finscore.commands._support import (
    EXIT_OK,
    EXIT_USAGE,
    add_key_option,
    add_statistics_options,
    check_replicates,
    key_path,
)
from finscore.contracts import KIT_ALIAS, KIT_DIRECTORY, Verification
from finscore.contracts.formats.provenance import Producer
from finscore.contracts.formats.provenance import model as model_producer
from finscore.contracts.formats.provenance import scripted_agent as scripted_producer
from finscore.inputs import FinscoreError
from finscore.integrity import claim_run_id, load_or_create_key, new_run_id
from finscore.progress import ProgressBar
from finscore.runner.http_json import CONNECTION_FAILED
from finscore.runner import os_sandbox
from finscore.runner.isolation import Isolation
from finscore.runner.output import begin_output, finish_output
from finscore.runner import (
    SCRIPTED_AGENTS,
    Agent,
    AttemptResult,
    CaseSet,
    ChatCompletionsAgent,
    ChatEndpoint,
    Limits,
    RetryPolicy,
    RunnerError,
    TraceSealer,
    load_case_set,
    manifest,
    run_cases,
    score_predictions,
    scripted_agent,
    write_manifest,
    write_predictions,
    write_report,
)

ENDPOINT_VARIABLES = ("FINSCORE_ENDPOINT", "OPENAI_BASE_URL")
MODEL_VARIABLES = ("FINSCORE_MODEL", "OPENAI_MODEL")
DEFAULT_KEY_VARIABLE = "OPENAI_API_KEY"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run an agent on a case set with sandboxed tools, record trusted traces, score the run",
        description=(
            "Run a candidate on every case of a case set (default: the shipped kit), executing its tool "
            "calls against each case's fixtures and recording the trusted trace; write "
            "OUT/predictions.jsonl, OUT/run.json, then score with the typed scorer into OUT/report.json "
            "and OUT/report.html. The candidate is a scripted agent (--agent) or an OpenAI-compatible "
            "chat-completions endpoint (--endpoint, or $FINSCORE_ENDPOINT / $OPENAI_BASE_URL; --model, or "
            "$FINSCORE_MODEL / $OPENAI_MODEL; the key is read from the environment variable named by "
            f"--api-key-env, default ${DEFAULT_KEY_VARIABLE}). Exit status: 0 run written, 2 bad input, or an "
            "endpoint that no trial could connect to (the run is written, not scored)."
        ),
        epilog="Example: finscore run --agent oracle --out runs/oracle",
    )
    candidate = parser.add_mutually_exclusive_group()
    candidate.add_argument("--agent", choices=sorted(SCRIPTED_AGENTS), help="a scripted agent shipped with finscore")
    candidate.add_argument(
        "--endpoint", metavar="URL", help="base URL of a chat-completions API, e.g. http://127.0.0.1:8000/v1"
    )
    parser.add_argument("--model", metavar="M", help="model name sent to the endpoint")
    parser.add_argument(
        "--api-key-env",
        metavar="VAR",
        default=DEFAULT_KEY_VARIABLE,
        help=f"environment variable holding the API key (default {DEFAULT_KEY_VARIABLE}; unset: no key)",
    )
    parser.add_argument(
        "--cases",
        default=KIT_ALIAS,
        metavar="KIT",
        help=f"case set: {KIT_ALIAS} (default), a directory of case files or a case-set JSON file",
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="CASE_ID", help="run (and score) only this case; repeatable"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for predictions, traces and report")
    parser.add_argument("--parallel", type=int, default=1, metavar="N", help="cases run at once (default 1)")
    parser.add_argument("--attempts", type=int, default=1, metavar="K", help="attempts per case (default 1)")
    parser.add_argument(
        "--deadline",
        type=float,
        default=Limits.deadline_seconds,
        metavar="SECONDS",
        help=f"wall-clock deadline per attempt (default {Limits.deadline_seconds:g})",
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=Limits.max_turns,
        metavar="N",
        help=f"agent turns per attempt (default {Limits.max_turns})",
    )
    parser.add_argument(
        "--max-tool-calls",
        type=int,
        default=Limits.max_tool_calls,
        metavar="N",
        help=f"tool calls per attempt (default {Limits.max_tool_calls})",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="endpoint: timeout of one HTTP request (default 120)",
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=3,
        metavar="N",
        help="endpoint: retries of a request on transient errors only (default 3)",
    )
    parser.add_argument("--temperature", type=float, default=0.0, help="endpoint: sampling temperature (default 0)")
    parser.add_argument("--no-score", action="store_true", help="write predictions only; do not score")
    add_key_option(parser, "which seals every attempt's trace (created on first use)")
    parser.add_argument(
        "--run-id",
        metavar="ID",
        help="the run id the seals carry (default: random, chosen by the runtime); an id given here can be "
        "used once per key (recorded beside it, in KEY.runs), so no two runs share one",
    )
    parser.add_argument(
        "--unsandboxed",
        action="store_true",
        help="run the agent without the OS sandbox (bubblewrap); needed to run a candidate where the "
        "machine has no sandbox, and every report of the run then says so in its first line",
    )
    add_statistics_options(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=run_command)


def _first_variable(names: tuple[str, ...]) -> str | None:
    return next((os.environ[name] for name in names if os.environ.get(name)), None)


def sandbox_choice(args: argparse.Namespace) -> tuple[str, str | None]:
    """The isolation's os_sandbox, and why the run is unsandboxed (None: it is sandboxed).

    A candidate (an endpoint) is scored as an evaluation only inside the sandbox: where the
    machine has none, the run is refused unless --unsandboxed says to go on. The scripted
    agents are the runtime's own code (the oracle carries the contracts themselves), not
    candidates: they run in the sandbox where there is one, and without it elsewhere, said.
    """
    if args.unsandboxed:
        return "off", "--unsandboxed was given"
    reason = os_sandbox.unavailable_reason()
    if reason is None:
        return "required", None
    if args.agent:
        return "off", f"no OS sandbox on this machine: {reason}"
    raise RunnerError(
        f"the OS sandbox is unavailable here ({reason}): a candidate is not scored as an evaluation without "
        "it; install bubblewrap (Debian: apt-get install bubblewrap), or give --unsandboxed to run it anyway "
        "(every report then says so in its first line)"
    )


def agent_isolation(args: argparse.Namespace, limits: Limits, key_file: Path, sandbox: str = "required") -> Isolation:
    """The agent process's limits; the kit, the case set, the key and the output folder out of its reach."""
    protected = [KIT_DIRECTORY, key_file, Path(args.out)]
    if args.cases != KIT_ALIAS:
        protected.append(Path(args.cases))
    keep = () if args.agent else ENDPOINT_VARIABLES + MODEL_VARIABLES + (args.api_key_env,)
    return Isolation.for_deadline(
        limits.deadline_seconds,
        keep_environment=keep,
        protected_paths=tuple(str(path.resolve()) for path in protected),
        os_sandbox=sandbox,
    )


def build_agent(args: argparse.Namespace, case_set: CaseSet) -> tuple[Agent, str]:
    """The candidate and the name the manifest gives it."""
    if args.agent:
        return scripted_agent(args.agent, case_set.raw), args.agent
    base_url = args.endpoint or _first_variable(ENDPOINT_VARIABLES)
    if not base_url:
        raise RunnerError("give --agent NAME or --endpoint URL (or set $FINSCORE_ENDPOINT / $OPENAI_BASE_URL)")
    model = args.model or _first_variable(MODEL_VARIABLES)
    if not model:
        raise RunnerError("an endpoint needs --model (or $FINSCORE_MODEL / $OPENAI_MODEL)")
    if not 0 <= args.retries <= 9:
        raise RunnerError(f"--retries must be between 0 and 9, not {args.retries}")
    if not 0 < args.request_timeout <= 3600:
        raise RunnerError(f"--request-timeout must be between 0 and 3600 seconds, not {args.request_timeout}")
    endpoint = ChatEndpoint(
        base_url=base_url,
        model=model,
        api_key=os.environ.get(args.api_key_env) or None,
        timeout_seconds=args.request_timeout,
        retry=RetryPolicy(attempts=args.retries + 1),
        temperature=args.temperature,
    )
    agent = ChatCompletionsAgent(endpoint)
    return agent, agent.name


def _producer(args: argparse.Namespace, agent: Agent) -> Producer:
    """What made these predictions, written into every line (re-scoring keeps it)."""
    if isinstance(agent, ChatCompletionsAgent):
        return model_producer(agent.endpoint.base_url, agent.endpoint.model)
    return scripted_producer(args.agent)


SCRIPTED_NOTE = "scripted agent: this run checks the runner and the scorer; it is not a model accuracy"


def _summary(statuses: dict[str, int], report: dict[str, Any] | None, out: Path, scripted: bool,
             unsandboxed: str | None = None) -> str:
    lines = [f"unsandboxed: {unsandboxed}"] if unsandboxed is not None else []
    lines += [SCRIPTED_NOTE] if scripted else []
    lines.append("statuses: " + ", ".join(f"{name} {count}" for name, count in statuses.items()))
    if report is not None:
        counts = report["counts"]
        lines.append(f"passed {counts['passed']} of {counts['trials']} (critical {counts['critical']})")
        lines.append(report["pass_rate"]["statement"])
    lines.append(f"written to {out}")
    return "\n".join(lines) + "\n"


def unreachable_endpoint(results: list[AttemptResult], base_url: str) -> str | None:
    """Why no trial reached the endpoint, when every trial failed to connect (a dead or mistyped URL);
    None when any trial got further, so a model that crashes some trials is scored as usual."""
    details = [result.prediction.get("status_detail") or "" for result in results]
    if not details or not all(CONNECTION_FAILED in detail for detail in details):
        return None
    first = details[0]
    cause = first[first.index(CONNECTION_FAILED):]
    return (f"every trial ({len(details)}) failed to connect to the endpoint {base_url}: {cause}; "
            "check --endpoint (the run is written to predictions.jsonl and run.json, not scored)")


def _run_seal(sealer: TraceSealer, case_set: CaseSet, attempts: int, results: Any) -> tuple[Any, Any]:
    """The run's sealed header and footer: its case set (SHA-256, size), the kit's version, its attempts."""
    from finscore import __version__
    from finscore.contracts.formats.models import case_set_digest

    kit = f"finscore {__version__}" if case_set.label == KIT_ALIAS else None
    ids = [case.case_id for case in case_set.cases]
    header = sealer.header(case_set_digest(case_set.cases), ids, kit, attempts)
    return header, sealer.footer(results)


def run_command(args: argparse.Namespace) -> int:
    try:
        check_replicates(args.bootstrap)
        limits = Limits(deadline_seconds=args.deadline, max_turns=args.max_turns, max_tool_calls=args.max_tool_calls)
        case_set = load_case_set(args.cases)
        if args.only:
            case_set = case_set.only(args.only)
        agent, agent_name = build_agent(args, case_set)
        sandbox, unsandboxed = sandbox_choice(args)
        key_file = key_path(args)
        out = Path(args.out)
        if out.resolve() in key_file.resolve().parents:
            raise RunnerError(f"the trace key {key_file} must not be inside the output folder {out}")
        key = load_or_create_key(key_file)
        if args.run_id is not None:
            claim_run_id(key_file, args.run_id)  # once per key: no two runs share an id
        sealer = TraceSealer(key, args.run_id if args.run_id is not None else new_run_id())
        begin_output(out, sealer.run_id)  # from here until finish_output, the folder says the run is unfinished
        total = len(case_set.cases) * args.attempts
        progress = ProgressBar(sys.stderr, total=total, enabled=False if args.quiet else None)
        results = run_cases(
            case_set.raw,
            agent,
            limits,
            attempts=args.attempts,
            parallel=args.parallel,
            on_result=lambda result: progress.advance(result.prediction["case_id"]),
            sealer=sealer,
            isolation=agent_isolation(args, limits, key_file, sandbox),
            producer=_producer(args, agent),  # on every line before its seal: the seal covers it
        )
        progress.close()
        predictions = write_predictions(out, results, run_seal=_run_seal(sealer, case_set, args.attempts, results))
        run_manifest = manifest(agent_name, args.cases, args.attempts, limits, results)
        run_manifest["run_id"] = sealer.run_id
        run_manifest["sandbox"] = os_sandbox.version() if unsandboxed is None else f"none ({unsandboxed})"
        if args.agent:
            run_manifest["note"] = SCRIPTED_NOTE
        write_manifest(out, run_manifest)
        if isinstance(agent, ChatCompletionsAgent):
            unreachable = unreachable_endpoint(results, agent.endpoint.base_url)
            if unreachable is not None:
                finish_output(out)  # the run's files are whole; only the report is not written
                raise RunnerError(unreachable)
        report = None
        if not args.no_score:
            report = score_predictions(
                case_set,
                predictions,
                args.attempts,
                seed=args.seed,
                replicates=args.bootstrap,
                scripted=bool(args.agent),
                verification=Verification(sealer.key, replay=True, key_source=str(key_file)),
                unsandboxed=unsandboxed,
            )
            write_report(out, report)
        finish_output(out)
    except FinscoreError as error:
        print(f"finscore run: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(_summary(run_manifest["statuses"], report, out, scripted=bool(args.agent),
                              unsandboxed=unsandboxed))
    return EXIT_OK
