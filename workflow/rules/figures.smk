# One rule per figure: it reads only Parquet, exactly the files its study-file entry and its
# function name (imlbench.targets.figure_inputs); its fingerprint holds its entry and its code,
# so restyling a figure (its `style:` entry or its module) reruns only that figure.
for _study in STUDIES.values():
    for _fig, _spec in _study.figures.items():
        _inputs = targets.figure_inputs(_study, _fig)

        rule:
            name:
                f"figure__{_study.name}__{_fig}"
            input:
                **_inputs,
            output:
                png=report(
                    f"results/{_study.name}/figures/{_fig}.png",
                    category=_study.title,
                    caption="../report/figure.rst",
                ),
                pdf=f"results/{_study.name}/figures/{_fig}.pdf",
            params:
                cli=CLI,
                fp=targets.figure_fingerprint(_study, _fig),
                study=_study.name,
                fig=_fig,
                caption=_spec["caption"],
                title=_spec["title"],
                inputs=lambda w, input: [
                    f"{kind}={p}" for kind in targets.FIGURE_INPUTS for p in input[kind]
                ],
            message:
                f"figure {_study.name}/{_fig}"
            log:
                f"results/{_study.name}/logs/figures/{_fig}.log",
            benchmark:
                f"results/{_study.name}/benchmarks/figure/{_fig}/all.tsv"
            conda:
                ENV
            shell:
                "{params.cli} figure --study {params.study:q} --figure {params.fig:q} "
                "--inputs {params.inputs:q} --out png={output.png:q} pdf={output.pdf:q} "
                "2> {log:q}"
