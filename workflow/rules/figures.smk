# One job per group of a study's figures (imlbench.targets.figure_groups: at most
# FIGURES_PER_JOB, those that read the summaries apart from the others). A job reads only
# Parquet, exactly the files its figures' study-file entries and functions name
# (imlbench.targets.figure_inputs); its fingerprint holds each figure's entry and code, so
# restyling a figure reruns only its group, which redraws all its figures (Snakemake removes
# the outputs of a job before it runs). The report shows each figure with its own caption
# (common.smk writes them).
for _study in STUDIES.values():
    for _k, _figs in enumerate(targets.figure_groups(_study)):

        rule:
            name:
                f"figures__{_study.name}__{_k}"
            input:
                list(
                    dict.fromkeys(
                        p
                        for fig in _figs
                        for files in targets.figure_inputs(_study, fig).values()
                        for p in files
                    )
                ),
            output:
                **{
                    f"{fig}_{ext}": (
                        report(
                            path,
                            category=_study.title,
                            caption=caption_file(_study.name, fig),
                        )
                        if ext == "png"
                        else path
                    )
                    for fig in _figs
                    for ext, path in targets.figure_paths(_study.name, fig).items()
                },
            log:
                f"results/{_study.name}/logs/figures/{_k}.log",
            benchmark:
                f"results/{_study.name}/benchmarks/figures/{_k}.tsv"
            group:
                "figures"
            conda:
                ENV
            params:
                cli=CLI,
                fp={fig: targets.figure_fingerprint(_study, fig) for fig in _figs},
                study=_study.name,
                figs=_figs,
            message:
                f"figures {_study.name}: {', '.join(_figs)}"
            shell:
                "{params.cli} figure --study {params.study:q} --figures {params.figs:q} "
                "2> {log:q}"
