"""The exit statuses every finscore command shares, defined once (`finscore.cli` adds 141, output closed)."""

#: The command did its work (scored, executed, checked).
EXIT_OK = 0
#: Unusable input or usage: a typed one-line error, never a traceback.
EXIT_USAGE = 2
