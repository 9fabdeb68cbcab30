# One job per (scenario, chunk) runs every method of every learner and writes one
# Parquet file per (learner, method), at estimates/{scenario}/{learner}/{method}/{chunk}.
for _study in STUDIES.values():
    for _sc in _study.scenarios.values():
        _pairs = [
            (learner, m) for learner in _sc.learners
            for m in _study.methods_for(_sc.name, learner)
        ]

        rule:
            name:
                f"explain__{_study.name}__{safe(_sc.name)}"
            input:
                data=f"results/{_study.name}/data/{_sc.name}/{{chunk}}.parquet",
                models=[
                    model_path(_study.name, _sc.name, learner, "{chunk}")
                    for learner in _sc.learners
                    if _sc.fit_models
                ],
            output:
                **{
                    f"{learner}/{m}": estimate_path(_study.name, _sc.name, learner, m, "{chunk}")
                    for learner, m in _pairs
                },
            params:
                fp=fingerprint(
                    {lrn: _study.learners[lrn] for lrn in _sc.learners},
                    {m: _study.methods[m] for _, m in _pairs},
                ),
                study=_study.name,
                scenario=_sc.name,
                models=lambda w, input: " ".join(
                    f"{Path(p).parent.name}={p}" for p in input.models
                ),
                outs=lambda w, output: " ".join(f"{k}={v}" for k, v in output.items()),
            threads: 1
            log:
                f"results/{_study.name}/logs/explain/{_sc.name}/{{chunk}}.log",
            benchmark:
                f"results/{_study.name}/benchmarks/explain/{_sc.name}/{{chunk}}.tsv"
            shell:
                "{CLI} --threads {threads} explain --study {params.study} "
                "--scenario {params.scenario} --chunk {wildcards.chunk} --data {input.data} "
                "--models {params.models} --out {params.outs} 2> {log}"
