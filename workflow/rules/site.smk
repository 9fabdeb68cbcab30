# The results site (imlbench.site): static pages under results/site/ that open from the file
# system, built from every enabled study's scorecard, figures and study file. Its figures are
# links to results/<study>/figures/*.png; `snakemake --report` links to its front page
# (workflow/report/workflow.rst).
from imlbench.site.build import fingerprint as site_fingerprint
from imlbench.site.build import site_files


rule site:
    """Front page, one page per study, the claims table and the methods against truth."""
    input:
        cards=expand("results/{study}/scorecard.parquet", study=list(STUDIES)),
        figures=[
            targets.figure_paths(s.name, fig)["png"] for s in STUDIES.values() for fig in s.figures
        ],
        truth_errors=[
            targets.metrics_paths(s)[name]
            for s in STUDIES
            for name in ("truth_errors", "truth_error_reps")
        ],
        run="results/run.json",
    output:
        [f"results/site/{name}" for name in site_files(list(STUDIES))],
    log:
        "results/logs/site.log",
    benchmark:
        "results/benchmarks/site.tsv"
    conda:
        ENV
    params:
        studies=list(STUDIES),
        fp=site_fingerprint(list(STUDIES.values())),
    message:
        "results site of {} studies".format(len(STUDIES))
    shell:
        "python -m imlbench site --studies {params.studies:q} --out results/site 2> {log:q}"
