"""finscore: exact, fast, honest scoring for financial QA and financial agents."""

__version__ = "0.1.0"
