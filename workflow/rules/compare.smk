rule summaries:
    """Ranks of every importance estimate and the summaries of the summarised methods (what
    figures and claims read)."""
    input:
        estimates=lambda w: targets.summarised_estimates(STUDIES[w.study]),
    output:
        ranks="results/{study}/metrics/ranks.parquet",
        mean_ranks="results/{study}/metrics/mean_ranks.parquet",
        summary="results/{study}/metrics/summary.parquet",
    params:
        cli=CLI,
        outs=lambda w, output: pairs(output),
    log:
        "results/{study}/logs/summaries.log",
    conda:
        ENV
    shell:
        "{params.cli} summaries --study {wildcards.study} --estimates {input.estimates} "
        "--out {params.outs} 2> {log}"


rule claims:
    """The study's claims as a scorecard; editing a claim reruns only this job."""
    input:
        estimates=lambda w: targets.claim_estimates(STUDIES[w.study]),
        truths=lambda w: targets.all_truths(STUDIES[w.study]),
        ranks="results/{study}/metrics/ranks.parquet",
        summary="results/{study}/metrics/summary.parquet",
    output:
        "results/{study}/scorecard.parquet",
    params:
        cli=CLI,
        fp=lambda w: targets.claims_fingerprint(STUDIES[w.study]),
    log:
        "results/{study}/logs/claims.log",
    conda:
        ENV
    shell:
        "{params.cli} claims --study {wildcards.study} --estimates {input.estimates} "
        "--truths {input.truths} --tables {input.ranks} {input.summary} --out {output} "
        "2> {log}"


rule scorecard:
    """SCORECARD.md over all studies: claim, published, reproduced, verdict."""
    input:
        expand("results/{study}/scorecard.parquet", study=list(STUDIES)),
    output:
        md="results/SCORECARD.md",
        html=report(
            "results/scorecard.html", category="Scorecard", caption="../report/scorecard.rst"
        ),
    params:
        py=PY,
    log:
        "results/logs/scorecard.log",
    conda:
        ENV
    shell:
        "{params.py} scorecard --cards {input} --out {output.md} {output.html} 2> {log}"
