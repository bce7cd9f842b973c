"""The functions the task YAMLs name with `!function utils.<name>` (lm_eval loads this file by path)."""

from finscore.integrations.lm_eval.documents import convfinqa_dataset, financemath_dataset, finqa_dataset, tatqa_dataset
from finscore.integrations.lm_eval.prompts import (
    convfinqa_fewshot,
    doc_to_text,
    financemath_doc_to_text,
    financemath_fewshot,
    finqa_fewshot,
    tatqa_doc_to_text,
    tatqa_fewshot,
)
from finscore.integrations.lm_eval.scoring import process_results

__all__ = ["convfinqa_dataset", "convfinqa_fewshot", "doc_to_text", "financemath_dataset", "financemath_doc_to_text",
           "financemath_fewshot", "finqa_dataset", "finqa_fewshot",
           "process_results", "tatqa_dataset", "tatqa_doc_to_text", "tatqa_fewshot"]
