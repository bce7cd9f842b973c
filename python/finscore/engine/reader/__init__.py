"""How program text is read: the official evaluator's reading, and the strict one.

The reader turns tokens or program strings plus a table into the flat resolved
form the core executes; it never scores and never does the arithmetic.
"""
