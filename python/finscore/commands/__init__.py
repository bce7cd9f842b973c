"""Subcommands of the `finscore` CLI; see `finscore.cli`."""
