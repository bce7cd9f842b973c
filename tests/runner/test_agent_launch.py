"""The agent's interpreter is started by the runtime itself (not multiprocessing's spawn): what spawn
gave an agent that stays, an agent defined in the runtime's own script (its __main__) included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = '''
from finscore.runner import Finish, Limits, load_case_set, run_cases

def answer(view, history):
    return Finish({"kind": "refusal", "reason": "out_of_scope", "text": "defined in " + __name__})

if __name__ == "__main__":
    (result,) = run_cases(load_case_set().only(["fv-en"]).raw, answer, Limits())
    print(result.prediction["status"], result.prediction["final"]["text"])
'''


def test_an_agent_defined_in_the_runtimes_main_script_runs(tmp_path: Path) -> None:
    # Under root the sandboxed agent runs as a uid of its own, which reads only what every user may
    # read (finscore.runner.os_sandbox); pytest makes its folders 0700.
    tmp_path.chmod(0o755)
    script = tmp_path / "my_run.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False,
                          env={"PYTHONPATH": ":".join(sys.path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    # the script's main module is run again in the agent's process under spawn's name, guard skipped
    assert done.stdout.strip() == "completed defined in __mp_main__"
