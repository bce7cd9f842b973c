"""The scoring layer every benchmark and `answers/` share: one join, one exclusion type, one
vocabulary of reasons, one canonical-JSON writer. Import the submodules; this file imports nothing
so that a command loads only the part it uses."""
