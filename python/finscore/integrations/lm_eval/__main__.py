"""`python -m finscore.integrations.lm_eval`: print the task folder, for lm_eval's --include_path."""

from finscore.integrations.lm_eval import task_directory

print(task_directory())
