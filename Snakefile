# imlbench: `snakemake --cores N` regenerates every figure, the scorecard and the
# metrics of every enabled study. See README.md and workflow/rules/*.smk.

import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from imlbench.config import ConfigError, read_yaml  # noqa: E402

try:  # a YAML error in the config file names its line and column (Snakemake's would not)
    read_yaml(Path.cwd() / "config" / "config.yaml")
except ConfigError as exc:
    raise WorkflowError(f"configuration error: {exc}") from None


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/fit.smk"
include: "workflow/rules/explain.smk"
include: "workflow/rules/truth.smk"
include: "workflow/rules/compare.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/report.smk"


# Cluster executors (workflow/profiles/slurm) run short jobs together, so that a cluster job's
# start-up (seconds) stays small against its work: the data, fit and explain jobs of a
# scenario chunk form one chain (group `chunk`), the truths, the summaries and claims of a
# study, and the figures form their own groups; the profile's `group-components` sets how
# many chains or jobs go in one cluster job. A local run ignores groups. The scorecard, a
# second's work, runs on the submitting host.
CLUSTER_GROUPS = {
    "data": "chunk",
    "fit": "chunk",
    "explain": "chunk",
    "truth": "truth",
    "summaries": "scoring",
    "claims": "scoring",
    "figure": "figures",
}
for _rule in workflow.rules:
    if _rule.name.split("__")[0] in CLUSTER_GROUPS:
        _rule.group = CLUSTER_GROUPS[_rule.name.split("__")[0]]


localrules:
    scorecard,


rule all:
    input:
        ALL_TARGETS,
    message:
        "every figure, estimate, truth and scorecard of {} studies".format(len(STUDIES))
    default_target: True
