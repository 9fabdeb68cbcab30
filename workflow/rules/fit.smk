rule fit:
    """One fitted learner per repetition of the chunk; deleted once explained."""
    input:
        "results/{study}/data/{scenario}/{chunk}.parquet",
    output:
        temp("results/{study}/models/{scenario}/{learner}/{chunk}.joblib"),
    params:
        fp=lambda w: fingerprint(STUDIES[w.study].learners[w.learner]),
    threads: 1
    log:
        "results/{study}/logs/fit/{scenario}/{learner}/{chunk}.log",
    shell:
        "{CLI} --threads {threads} fit --study {wildcards.study} --scenario {wildcards.scenario} "
        "--learner {wildcards.learner} --chunk {wildcards.chunk} --data {input} --out {output} "
        "2> {log}"
