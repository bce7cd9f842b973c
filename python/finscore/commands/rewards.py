"""`finscore rewards` (score a Parquet file of rollouts) and `finscore serve-reward`.

Both use the one Arrow batch scorer, so a file scored here, a batch scored on Ray
and a reward served over HTTP get the same decisions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from finscore import registry
from finscore.exit_status import EXIT_OK

EXIT_BAD_INPUT = 2
#: serve-reward could not open its socket (uvicorn's STARTUP_FAILURE, the status `uvicorn.run` exits with).
EXIT_SERVER_DID_NOT_START = 3


#: The data sources each input scores, from the benchmark registry as finscore.rewards.config reads it
#: (PROGRAM_PROFILES, ANSWER_PROTOCOLS), without importing that package: it loads pyarrow (an extra),
#: and --help must work without it; a test checks these names against the config.
PROGRAM_SOURCES = tuple(registry.program_profiles())
ANSWER_SOURCES = tuple(registry.answer_protocols())


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", choices=("program", "answer", "financebench", "peer"), default="program",
                        help="program: the completion is a FinQA program (default); answer: free text, "
                             "decided by the data source's answer protocol (finqa-answer/1, ...); "
                             "financebench: a FinanceBench answer against its gold record, every row of "
                             "source financebench, with the columns support and support_reason added; "
                             "peer: every row decided by a published peer's scorer, --protocol")
    from finscore.protocols.registry import protocol_ids

    parser.add_argument("--protocol", choices=protocol_ids(), default="",
                        help="for --input peer: the peer protocol whose decision is the reward (1.0 or 0.0; "
                             "docs/rewards.md says what each gold holds); a row the peer decides by running "
                             "its text gets 0.0, reason peer_executes_code, and is counted")
    parser.add_argument("--format", choices=("answer-line", "boxed", "json", "whole", "phrase", "tag", "last-number"),
                        default="answer-line",
                        help="for --input answer: where the final answer is (default answer-line)")
    parser.add_argument("--match", choices=("execution", "program"), default="execution",
                        help="execution: the official execution accuracy (default); program: also "
                             "equivalent to the gold program (needs \"program\" in each gold)")
    from finscore.engine.options import PYTHON_VERSIONS

    parser.add_argument("--python", default="3.11", metavar="VERSION",
                        help=f"whose sum() the table ops imitate: {', '.join(PYTHON_VERSIONS)} (default 3.11)")
    parser.add_argument("--data-source", default="finqa",
                        help=f"the data source of rows without one (default finqa): for --input program one of "
                             f"{', '.join(PROGRAM_SOURCES)}, for --input answer one of {', '.join(ANSWER_SOURCES)}; "
                             "rows of another source are kept, not scored")


def register(subparsers: Any) -> None:
    score = subparsers.add_parser(
        "rewards",
        help="add reward columns to a Parquet file of rollouts (locally or on Ray)",
        description=(
            "Read IN (Parquet) with columns completion (a program, as text or tokens, or free text with "
            "--input answer), gold (JSON text: {\"exe_ans\", \"table\", \"program\"} for FinQA and ConvFinQA, "
            "{\"answer\", \"scale\"} for TAT-QA answers) and optionally data_source; write OUT with the "
            "same rows and five columns added: score, passed, reason, protocol, detail (with --input "
            "financebench, whose gold is a FinanceBench gold-file line, also support and support_reason). Exit status: "
            "0 written, 2 bad input (named) or a missing extra (named: finscore[rewards], with --ray "
            "finscore[ray])."
        ),
        epilog="Example: finscore rewards rollouts.parquet scored.parquet --ray --workers 2",
    )
    score.add_argument("source", metavar="IN.parquet", help="the rollouts (Parquet), columns as above")
    score.add_argument("output", metavar="OUT.parquet", help="where the scored rows are written (Parquet)")
    _add_rule_options(score)
    score.add_argument("--batch-rows", type=int, default=8192, help="rows per scored batch (default 8192)")
    score.add_argument("--ray", action="store_true", help="score on Ray Data (needs finscore[ray])")
    score.add_argument("--address", default=None, help="a Ray cluster to join (default: start a local one)")
    score.add_argument("--workers", type=int, default=2, help="Ray workers (default 2)")
    score.add_argument("--quiet", action="store_true", help="no progress on standard error")
    score.set_defaults(handler=run_rewards)

    serve = subparsers.add_parser(
        "serve-reward",
        help="an HTTP reward server for OpenRLHF (POST /get_reward)",
        description=(
            "Serve POST /get_reward ({\"query\", \"prompts\", \"labels\"} -> {\"rewards\", \"scores\", "
            "\"extra_logs\"}) and GET /health. Needs finscore[serve]. Stop it with Ctrl+C or SIGTERM."
        ),
        epilog="Example: finscore serve-reward --host 127.0.0.1 --port 5000",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    serve.add_argument("--max-body-bytes", type=int, default=None,
                       help="the largest request body accepted (default 64 MiB); larger gets 413")
    serve.add_argument("--max-concurrent-bytes", type=int, default=None, metavar="BYTES",
                       help="the request body bytes held at once by all requests together (default four "
                            "times --max-body-bytes, 256 MiB); a request that would pass it gets 503 "
                            "with Retry-After")
    serve.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                       help="seconds a connection has to send a request's headers, from connecting or "
                            "from its request's first byte (default 10); then 408 and the connection closed")
    serve.add_argument("--body-timeout", type=float, default=60.0, metavar="SECONDS",
                       help="seconds a request has to send its whole body, from its headers (default 60); "
                            "then 408 and the connection closed")
    serve.add_argument("--strip-tokens", default=None, metavar="TOKENS",
                       help="comma-separated special tokens removed from a response's end before it is read "
                            "(OpenRLHF keeps the EOS token; default </s>,<|im_end|>,<|eot_id|>,<|endoftext|>; "
                            "'' for none); named in the stamp")
    _add_rule_options(serve)
    serve.set_defaults(handler=run_serve)


def _config(args: argparse.Namespace, strip_tokens: tuple[str, ...] = ()) -> Any:
    from finscore.rewards import RewardConfig

    source = "financebench" if args.input == "financebench" else args.data_source  # the one source it scores
    return RewardConfig(input=args.input, format=args.format, match=args.match, python=args.python,
                        data_source=source, strip_tokens=strip_tokens, protocol=args.protocol)


def _missing_extra(command: str, extra: str, modules: tuple[str, ...]) -> bool:
    """True, having said which extra to install, when one of its modules cannot be imported."""
    import importlib

    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as error:
            print(f"finscore {command}: needs finscore[{extra}] ({error.name or module} is missing): "
                  f"pip install 'finscore[{extra}]'", file=sys.stderr)
            return True
    return False


def run_rewards(args: argparse.Namespace) -> int:
    if _missing_extra("rewards", "rewards", ("pyarrow", "pyarrow.parquet")):
        return EXIT_BAD_INPUT
    if args.ray and _missing_extra("rewards --ray", "ray", ("ray", "ray.data")):
        return EXIT_BAD_INPUT
    import pyarrow as pa
    import pyarrow.parquet as pq

    from finscore.rewards import RewardInputError
    if args.batch_rows < 1 or args.workers < 1:
        print("finscore rewards: --batch-rows and --workers must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        config = _config(args)
        try:
            source = pq.ParquetFile(args.source)
        except pa.ArrowInvalid as error:
            raise RewardInputError(f"{args.source} is not a Parquet file ({error})") from None
        if args.ray:
            from finscore.rewards.adapters.ray_files import score_parquet_on_ray

            rows = score_parquet_on_ray(Path(args.source), Path(args.output), config, workers=args.workers,
                                        address=args.address, batch_rows=args.batch_rows,
                                        warn=lambda message: print(f"finscore rewards: warning: {message}",
                                                                   file=sys.stderr))
        else:
            from finscore.rewards.parquet_files import score_parquet

            rows = score_parquet(source, Path(args.output), config, batch_rows=args.batch_rows,
                                 quiet=args.quiet)
    except (RewardInputError, OSError) as error:
        print(f"finscore rewards: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"finscore rewards: {rows:,} rows scored into {args.output}", file=sys.stderr)
    if args.input == "peer":
        _count_not_reproducible(Path(args.output))
    return EXIT_OK


def _count_not_reproducible(path: Path) -> None:
    """Say how many rows the peer decides by running their text (scored 0.0, flagged in `protocol`)."""
    import pyarrow.parquet as pq

    from finscore.rewards.peers import NOT_REPRODUCIBLE

    reasons = pq.read_table(path, columns=["reason"]).column("reason").to_pylist()
    counts = {reason: reasons.count(reason) for reason in NOT_REPRODUCIBLE}
    print(f"finscore rewards: not reproducible without running model text (reward 0.0, stamp flagged): "
          f"{', '.join(f'{reason} {count:,}' for reason, count in counts.items())}", file=sys.stderr)


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401  (the extra's own module: missing, the message below names the extra)

        from finscore.rewards.adapters.openrlhf import strip_tokens_of
        from finscore.rewards.adapters.server import MAX_BODY_BYTES, create_app, serve
        from finscore.rewards.adapters.server_guard import guarded_protocol
    except ImportError as error:
        print(f"finscore serve-reward: needs finscore[serve] ({error.name} is missing)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not (args.header_timeout > 0 and args.body_timeout > 0):  # also refuses nan
        print("finscore serve-reward: --header-timeout and --body-timeout must be more than 0 seconds",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    max_body = args.max_body_bytes or MAX_BODY_BYTES
    if args.max_concurrent_bytes is not None and not max_body <= args.max_concurrent_bytes:
        print(f"finscore serve-reward: --max-concurrent-bytes ({args.max_concurrent_bytes:,}) must be at least "
              f"the largest body, --max-body-bytes ({max_body:,})", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        app = create_app(_config(args, strip_tokens_of(args.strip_tokens)), max_body_bytes=max_body, max_concurrent_bytes=args.max_concurrent_bytes)
    except ValueError as error:  # RewardInputError is a ValueError too: a bad rule or a bad limit
        print(f"finscore serve-reward: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not serve(app, host=args.host, port=args.port, http=guarded_protocol(args.header_timeout, args.body_timeout)):
        return EXIT_SERVER_DID_NOT_START
    return EXIT_OK
