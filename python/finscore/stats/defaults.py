"""The bootstrap's defaults, in a module that imports nothing, so that a command's --help can name them."""

#: The default seed of every seeded bootstrap (the benchmark commands and the contracts' family bootstrap).
DEFAULT_SEED = 20260901
#: The benchmark commands' default number of cluster resamples, and the most they take.
DEFAULT_RESAMPLES = 2000
MAX_RESAMPLES = 100_000
