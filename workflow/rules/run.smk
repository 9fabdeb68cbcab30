# One job per batch of scenario chunks (imlbench.targets.batches: the chunks of one family of
# scenarios, at most UNITS_PER_JOB of them) samples each chunk's data, fits its learners and
# runs their methods in one process: its data file and one estimate file per (learner,
# method). The fitted models stay in memory: no other job reads them. Editing one scenario
# reruns its batch, which rewrites all its files (Snakemake removes the outputs of a job
# before it runs). The jobs of an `exclusive` scenario (run-time measurements) claim every
# core, so that no other job runs beside them; they compute on one thread all the same.
for _study in STUDIES.values():
    for _batch in targets.batches(_study):

        rule:
            name:
                f"run__{_study.name}__{_batch.name}"
            output:
                targets.batch_outputs(_study, _batch),
            log:
                f"results/{_study.name}/logs/run/{_batch.name}.log",
            benchmark:
                f"results/{_study.name}/benchmarks/run/{_batch.name}.tsv"
            group:
                "run"
            conda:
                ENV
            threads: ALL_CORES if _batch.exclusive else 1
            params:
                cli=CLI,
                fp=targets.batch_fingerprints(_study, _batch, SEED),
                study=_study.name,
                units=[f"{sc}:{chunk}" for sc, chunk in _batch.units],
            message:
                f"data, fit, explain {_study.name}/{_batch.name}: "
                f"{len(_batch.units)} scenario chunks"
            shell:
                "{params.cli} --threads 1 run --study {params.study:q} "
                "--units {params.units:q} 2> {log:q}"
