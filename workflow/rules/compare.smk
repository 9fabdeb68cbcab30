rule summaries:
    """Ranks of every importance estimate, the summaries of the summarised methods and every
    estimate against its truth (what figures and claims read)."""
    input:
        estimates=lambda w: targets.summaries_estimates(STUDIES[w.study]),
        truths=lambda w: targets.all_truths(STUDIES[w.study]),
    output:
        **targets.metrics_paths("{study}"),
    log:
        "results/{study}/logs/summaries.log",
    benchmark:
        "results/{study}/benchmarks/summaries.tsv"
    group:
        "scoring"
    conda:
        ENV
    params:
        cli=CLI,
        fp=lambda w: targets.summaries_fingerprint(STUDIES[w.study]),
        outs=lambda w, output: pairs(output),
    message:
        "summaries {wildcards.study}"
    shell:
        "{params.cli} summaries --study {wildcards.study:q} --estimates {input.estimates:q} "
        "--truths {input.truths:q} --out {params.outs:q} 2> {log:q}"


rule claims:
    """The study's claims as a scorecard; editing a claim reruns only this job."""
    input:
        estimates=lambda w: targets.claim_estimates(STUDIES[w.study]),
        truths=lambda w: targets.all_truths(STUDIES[w.study]),
        ranks="results/{study}/metrics/ranks.parquet",
        summary="results/{study}/metrics/summary.parquet",
        truth_errors="results/{study}/metrics/truth_errors.parquet",
        truth_error_reps="results/{study}/metrics/truth_error_reps.parquet",
    output:
        "results/{study}/scorecard.parquet",
    log:
        "results/{study}/logs/claims.log",
    benchmark:
        "results/{study}/benchmarks/claims.tsv"
    group:
        "scoring"
    conda:
        ENV
    params:
        cli=CLI,
        fp=lambda w: targets.claims_fingerprint(STUDIES[w.study]),
        tables=lambda w, input: [
            f"{k}={input[k]}" for k in ("ranks", "summary", "truth_errors", "truth_error_reps")
        ],
    message:
        "claims {wildcards.study}"
    shell:
        "{params.cli} claims --study {wildcards.study:q} --estimates {input.estimates:q} "
        "--truths {input.truths:q} --tables {params.tables:q} "
        "--out {output:q} 2> {log:q}"


rule scorecard:
    """SCORECARD.md over all studies: counts by study, source and verdict, then claim, source,
    published, reproduced, power, verdict, reason; and the
    record of the run (profile, studies, time) that `snakemake --report` reports on."""
    input:
        expand("results/{study}/scorecard.parquet", study=list(STUDIES)),
    output:
        md="results/SCORECARD.md",
        html=report(
            "results/scorecard.html", category="Scorecard", caption="../report/scorecard.rst"
        ),
        run="results/run.json",
    log:
        "results/logs/scorecard.log",
    benchmark:
        "results/benchmarks/scorecard.tsv"
    conda:
        ENV
    params:
        py=PY,
        profile=PROFILE,
        fp=targets.scorecard_fingerprint(),
    message:
        "scorecard of {} studies".format(len(STUDIES))
    shell:
        "{params.py} --profile {params.profile:q} scorecard --cards {input:q} "
        "--out {output.md:q} {output.html:q} --run {output.run:q} 2> {log:q}"
