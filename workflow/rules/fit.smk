# One job per (scenario, chunk) fits every learner of the scenario on each repetition:
# a Python start with the scientific stack costs over a second, so learners share it.
# The models are temporary: deleted once explained, never needed by a later rerun.
for _study in STUDIES.values():
    for _sc in _study.scenarios.values():
        if not _sc.fit_models:
            continue

        rule:
            name:
                f"fit__{_study.name}__{safe(_sc.name)}"
            input:
                targets.data_path(_study.name, _sc.name, "{chunk}"),
            output:
                **{
                    learner: temp(targets.model_path(_study.name, _sc.name, learner, "{chunk}"))
                    for learner in _sc.learners
                },
            params:
                cli=CLI,
                fp=targets.fit_fingerprint(_study, _sc, SEED),
                study=_study.name,
                scenario=_sc.name,
                outs=lambda w, output: pairs(output),
            threads: 1
            message:
                f"fit {_study.name}/{_sc.name} {{wildcards.chunk}}: {', '.join(_sc.learners)}"
            log:
                f"results/{_study.name}/logs/fit/{_sc.name}/{{chunk}}.log",
            benchmark:
                f"results/{_study.name}/benchmarks/fit/{_sc.name}/{{chunk}}.tsv"
            conda:
                ENV
            shell:
                "{params.cli} --threads {threads} fit --study {params.study:q} "
                "--scenario {params.scenario:q} --chunk {wildcards.chunk:q} --data {input:q} "
                "--out {params.outs:q} 2> {log:q}"
