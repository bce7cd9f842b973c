"""A registered benchmark's questions as an inspect dataset, clustered by the benchmark's independence unit.

The documents are lm-eval's (`finscore.integrations.lm_eval.documents`: the same golds,
ids and denominator as `finscore answers`, the same prompts and their PROMPT_VERSION),
so a figure from inspect, from lm-eval and from `finscore answers` on the same
completions is one figure. Each sample's `cluster` is the key the benchmark's registry
descriptor gives its example (FinQA: the filing; ConvFinQA: the conversation; TAT-QA:
the table), so inspect's clustered standard error never treats correlated questions as
independent.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from inspect_ai.dataset import MemoryDataset, Sample

from finscore.answers.gold_files import TATQA
from finscore.finqa.files import read_json_file
from finscore.integrations.inspect_ai.answers_scorer import GOLD_KEY
from finscore.integrations.inspect_ai.metrics import CLUSTER_KEY
from finscore.integrations.lm_eval.documents import BUILDERS, TaskDataError, documents_of
from finscore.integrations.lm_eval.prompts import PROMPT_VERSION, doc_to_text, tatqa_doc_to_text
from finscore.registry import Benchmark, get_benchmark

#: The prompt each benchmark's questions are asked with (lm-eval's, versioned by PROMPT_VERSION).
PROMPTS: dict[str, Callable[[dict[str, Any]], str]] = {name: doc_to_text for name in BUILDERS} | {
    TATQA: tatqa_doc_to_text}


def answer_benchmark(name: str) -> Benchmark:
    """The registered benchmark `name`, if inspect can ask its questions; TaskDataError naming the choices."""
    benchmark = get_benchmark(name)  # RegistryError naming the registered benchmarks
    if name not in BUILDERS or not benchmark.answer_protocols:
        raise TaskDataError(f"benchmark {name!r} has no free-text questions inspect can ask; those that have: "
                            f"{', '.join(sorted(BUILDERS))}")
    return benchmark


def benchmark_samples(name: str, data: Any) -> list[Sample]:
    """One sample per scored question of a decoded data file of benchmark `name`, in file order."""
    benchmark = answer_benchmark(name)
    documents = documents_of(name, data)  # the gold reader's typed errors first, naming the entry
    clusters = benchmark.unit.key.load()(data)
    samples = []
    for document in documents:
        cluster = clusters.get(document["id"])
        if cluster is None:
            raise TaskDataError(f"{name} question {document['id']!r}: its {benchmark.unit.name} is unknown")
        samples.append(Sample(id=document["id"], input=PROMPTS[name](document), target=document["gold_text"],
                              metadata={GOLD_KEY: json.loads(document["gold"]), CLUSTER_KEY: cluster,
                                        "protocol": document["protocol"], "prompt_version": PROMPT_VERSION}))
    return samples


def benchmark_dataset(name: str, data: str) -> MemoryDataset:
    """The questions of the data file at path `data` (a gold file of benchmark `name`) as a dataset."""
    decoded = read_json_file(data, f"{name} data file")
    return MemoryDataset(benchmark_samples(name, decoded), name=f"finscore {name}", location=data)
