# Ground truth of each scenario whose DGP has known estimands (closed forms, quadrature).
for _study in STUDIES.values():
    for _sc in _study.scenarios.values():
        _truths = truth_paths(_study.name, _sc)
        if not _truths:
            continue

        rule:
            name:
                f"truth__{_study.name}__{safe(_sc.name)}"
            output:
                **_truths,
            params:
                fp=fingerprint(_study.doc["scenarios"][_sc.family]),
                study=_study.name,
                scenario=_sc.name,
                outs=lambda w, output: " ".join(f"{k}={v}" for k, v in output.items()),
            log:
                f"results/{_study.name}/logs/truth/{_sc.name}.log",
            shell:
                "{CLI} truth --study {params.study} --scenario {params.scenario} "
                "--out {params.outs} 2> {log}"
