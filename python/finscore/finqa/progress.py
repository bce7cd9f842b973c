"""The progress bar of `finscore finqa`: the package's one bar (`finscore.progress`)."""

from finscore.progress import ProgressBar, progress_bar

__all__ = ["ProgressBar", "progress_bar"]
