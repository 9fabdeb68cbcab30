# Ground truth of each scenario whose DGP has known estimands (closed forms, quadrature).
for _study in STUDIES.values():
    for _sc in _study.scenarios.values():
        if not targets.truth_paths(_study, _sc):
            continue

        rule:
            name:
                f"truth__{_study.name}__{safe(_sc.name)}"
            output:
                **targets.truth_paths(_study, _sc),
            params:
                cli=CLI,
                fp=targets.truth_fingerprint(_sc, SEED),
                study=_study.name,
                scenario=_sc.name,
                outs=lambda w, output: pairs(output),
            message:
                f"truth {_study.name}/{_sc.name}"
            log:
                f"results/{_study.name}/logs/truth/{_sc.name}.log",
            benchmark:
                f"results/{_study.name}/benchmarks/truth/{_sc.name}/all.tsv"
            conda:
                ENV
            shell:
                "{params.cli} truth --study {params.study:q} --scenario {params.scenario:q} "
                "--out {params.outs:q} 2> {log:q}"
