rule data:
    """Samples of a scenario's DGP for one chunk of repetitions (train/test split column)."""
    output:
        "results/{study}/data/{scenario}/{chunk}.parquet",
    params:
        cli=CLI,
        fp=lambda w: targets.data_fingerprint(
            STUDIES[w.study].scenarios[w.scenario], w.chunk, SEED
        ),
    message:
        "data {wildcards.study}/{wildcards.scenario} {wildcards.chunk}"
    log:
        "results/{study}/logs/data/{scenario}/{chunk}.log",
    benchmark:
        "results/{study}/benchmarks/data/{scenario}/{chunk}.tsv"
    conda:
        ENV
    shell:
        "{params.cli} data --study {wildcards.study:q} --scenario {wildcards.scenario:q} "
        "--chunk {wildcards.chunk:q} --out {output:q} 2> {log:q}"
