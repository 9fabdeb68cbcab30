rule compare:
    """Ranks of every importance estimate, and the study's claims as a scorecard."""
    input:
        estimates=lambda w: estimates_of(
            STUDIES[w.study], STUDIES[w.study].scenarios.values(), COMPARED_KINDS
        ),
        truths=lambda w: [
            p for sc in STUDIES[w.study].scenarios.values()
            for p in truth_paths(w.study, sc).values()
        ],
    output:
        ranks="results/{study}/metrics/ranks.parquet",
        mean_ranks="results/{study}/metrics/mean_ranks.parquet",
        scorecard="results/{study}/scorecard.parquet",
        summary="results/{study}/metrics/summary.parquet",
    params:
        fp=lambda w: fingerprint(STUDIES[w.study].claims),
    log:
        "results/{study}/logs/compare.log",
    shell:
        "{CLI} compare --study {wildcards.study} --estimates {input.estimates} "
        "--truths {input.truths} --out ranks={output.ranks} mean_ranks={output.mean_ranks} "
        "scorecard={output.scorecard} summary={output.summary} 2> {log}"


rule scorecard:
    """SCORECARD.md over all studies: claim, published, reproduced, verdict."""
    input:
        expand("results/{study}/scorecard.parquet", study=list(STUDIES)),
    output:
        md="results/SCORECARD.md",
        html=report("results/scorecard.html", category="Scorecard",
                    caption="../report/scorecard.rst"),
    log:
        "results/logs/scorecard.log",
    shell:
        "{PY} scorecard --cards {input} --out {output.md} {output.html} 2> {log}"
