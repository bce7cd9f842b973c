"""The reward adapters: each trainer's or framework's calling convention, over the one decider.

One module a framework: `trl` (TRL's GRPOTrainer), `verl` (verl's custom reward
function), `openrlhf` (OpenRLHF's reward function file), `server` (an HTTP reward
server for OpenRLHF), `ray` (Ray Data and actors) and `ray_files` (a Parquet file
scored on Ray); `completions` reduces what a trainer hands over to the model's
text. None is imported here, so no trainer or framework is needed to import this
package. Their documented paths stay `finscore.rewards.trl`, `.verl`, `.openrlhf`,
`.server` and `.ray`: thin modules there re-export these (verl and OpenRLHF load
the reward function by the file's path).
"""
