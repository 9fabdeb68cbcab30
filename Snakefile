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


rule all:
    input:
        ALL_TARGETS,
    message:
        "every figure, estimate, truth and scorecard of {} studies".format(len(STUDIES))
    default_target: True
