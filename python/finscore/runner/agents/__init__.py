"""The agents finscore ships: scripted agents that check the runner, and a chat-completions candidate.

- `scripted`: `ScriptedAgent`, the base of the scripted agents; `plans`: what a case's
  contract asks them to call and answer; `registry`: `SCRIPTED_AGENTS` and the `scripted`
  decorator; `shipped`: the shipped agents by name (`finscore run --agent NAME`);
- `oracle`: the oracle agent; `faulty`: agents that each make one known mistake;
- `chat`: a candidate behind an OpenAI-compatible chat-completions endpoint.

Nothing is imported here: an agent's own process imports only the module of its agent.
"""
