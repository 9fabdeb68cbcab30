# One job per (scenario, learner, chunk) computes every method of that learner and
# writes one Parquet file per method: a Python start costs seconds, so methods share it.
for _study in STUDIES.values():
    for _sc in _study.scenarios.values():
        for _learner in _sc.learners:
            _methods = _study.methods_for(_sc.name, _learner)
            if not _methods:
                continue

            rule:
                name:
                    f"explain__{_study.name}__{safe(_sc.name)}__{_learner}"
                input:
                    data=f"results/{_study.name}/data/{_sc.name}/{{chunk}}.parquet",
                    models=f"results/{_study.name}/models/{_sc.name}/{_learner}/{{chunk}}.joblib",
                output:
                    **{
                        m: estimate_path(_study.name, _sc.name, _learner, m, "{chunk}")
                        for m in _methods
                    },
                params:
                    fp=fingerprint(
                        _study.learners[_learner], {m: _study.methods[m] for m in _methods}
                    ),
                    study=_study.name,
                    scenario=_sc.name,
                    learner=_learner,
                    outs=lambda w, output: " ".join(f"{k}={v}" for k, v in output.items()),
                threads: 1
                log:
                    f"results/{_study.name}/logs/explain/{_sc.name}/{_learner}/{{chunk}}.log",
                shell:
                    "{CLI} --threads {threads} explain --study {params.study} "
                    "--scenario {params.scenario} --learner {params.learner} "
                    "--chunk {wildcards.chunk} --data {input.data} --models {input.models} "
                    "--out {params.outs} 2> {log}"
