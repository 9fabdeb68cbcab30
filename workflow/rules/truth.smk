# One job per study computes the ground truth of every scenario whose DGP has known estimands
# (closed forms, quadrature, Monte Carlo): most take well under a second, less than a Python
# start. Editing one scenario's DGP reruns the study's truths.
for _study in STUDIES.values():
    if not targets.truth_scenarios(_study):
        continue

    rule:
        name:
            f"truth__{_study.name}"
        output:
            targets.all_truths(_study),
        log:
            f"results/{_study.name}/logs/truth.log",
        benchmark:
            f"results/{_study.name}/benchmarks/truth.tsv"
        group:
            "truth"
        conda:
            ENV
        params:
            cli=CLI,
            fp=targets.truths_fingerprints(_study, SEED),
            study=_study.name,
            scenarios=targets.truth_scenarios(_study),
        message:
            f"truth {_study.name}: {len(targets.truth_scenarios(_study))} scenarios"
        shell:
            "{params.cli} truth --study {params.study:q} --scenarios {params.scenarios:q} "
            "2> {log:q}"
