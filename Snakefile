# imlbench: `snakemake --cores N` regenerates every figure, the scorecard and the
# metrics of every enabled study. See README.md and workflow/rules/*.smk.

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
    default_target: True
