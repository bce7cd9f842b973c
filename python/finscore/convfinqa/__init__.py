"""ConvFinQA scoring under its authors' own protocol, reusing FinQA's machinery.

ConvFinQA (Chen et al., EMNLP 2022) is scored per conversation turn by
`eval_program`, `equal_program` and `evaluate_result` of czyssrs/ConvFinQA. Its
execution is the engine's `convfinqa` profile; this package adds what differs in
scoring: its equivalence rule for number selections (`equivalence`), the turns
of a conversation file (`turns`), and the per-turn, per-type and per-conversation
figures (`scoring`, `report`, `terminal`).
"""
