rule data:
    """Samples of a scenario's DGP for one chunk of repetitions (train/test split column)."""
    output:
        "results/{study}/data/{scenario}/{chunk}.parquet",
    params:
        fp=lambda w: fingerprint(STUDIES[w.study].doc["scenarios"][STUDIES[w.study].scenarios[w.scenario].family]),
    log:
        "results/{study}/logs/data/{scenario}/{chunk}.log",
    shell:
        "{CLI} data --study {wildcards.study} --scenario {wildcards.scenario} "
        "--chunk {wildcards.chunk} --out {output} 2> {log}"
