# imlbench: `snakemake --cores N` regenerates every figure, the scorecard and the metrics of
# every enabled study, with the default profile (profiles/default). The workflow is
# workflow/Snakefile, where the Snakemake workflow catalog looks for it; both files run it.


include: "workflow/Snakefile"


# What `all` builds: the target of a run from this file (Snakemake keeps the default target of
# the including file, not that of an included one).
rule default:
    default_target: True
    input:
        rules.all.input,
