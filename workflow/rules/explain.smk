# One job per (scenario, chunk) runs every method of every learner and writes one
# Parquet file per (learner, method), at estimates/{scenario}/{learner}/{method}/{chunk}.
# The jobs of an `exclusive` scenario (run-time measurements) claim every core, so that no
# other job runs beside them; they compute on one thread all the same.
for _study in STUDIES.values():
    for _sc in _study.scenarios.values():

        rule:
            name:
                f"explain__{_study.name}__{safe(_sc.name)}"
            input:
                data=targets.data_path(_study.name, _sc.name, "{chunk}"),
                models=[
                    targets.model_path(_study.name, _sc.name, learner, "{chunk}")
                    for learner in _sc.learners
                    if _sc.fit_models
                ],
            output:
                **{
                    f"{learner}/{m}": targets.estimate_path(
                        _study.name, _sc.name, learner, m, "{chunk}"
                    )
                    for learner, m in targets.explain_pairs(_study, _sc)
                },
            params:
                cli=CLI,
                fp=targets.explain_fingerprint(_study, _sc, SEED),
                study=_study.name,
                scenario=_sc.name,
                models=lambda w, input: [f"{Path(p).parent.name}={p}" for p in input.models],
                outs=lambda w, output: pairs(output),
            threads: ALL_CORES if _sc.exclusive else 1
            message:
                f"explain {_study.name}/{_sc.name} {{wildcards.chunk}}: "
                f"{len(targets.explain_pairs(_study, _sc))} (learner, method) pairs"
            log:
                f"results/{_study.name}/logs/explain/{_sc.name}/{{chunk}}.log",
            benchmark:
                f"results/{_study.name}/benchmarks/explain/{_sc.name}/{{chunk}}.tsv"
            conda:
                ENV
            shell:
                "{params.cli} --threads 1 explain --study {params.study:q} "
                "--scenario {params.scenario:q} --chunk {wildcards.chunk:q} "
                "--data {input.data:q} --models {params.models:q} --out {params.outs:q} "
                "2> {log:q}"
