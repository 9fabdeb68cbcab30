# One rule per figure: it reads only Parquet, exactly the files its study-file entry and its
# function name (imlbench.targets.figure_inputs), and its code, so restyling a figure (its
# `style:` entry or its module) reruns only that figure.
for _study in STUDIES.values():
    for _fig, _spec in _study.figures.items():
        _inputs = targets.figure_inputs(_study, _fig)

        rule:
            name:
                f"figure__{_study.name}__{_fig}"
            input:
                code=targets.figure_code(_study, _fig),
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
                spec=json.dumps(_spec, sort_keys=True),
                study=_study.name,
                fig=_fig,
                caption=_spec["caption"],
                title=_spec["title"],
                inputs=lambda w, input: " ".join(
                    f"{kind}={p}" for kind in targets.FIGURE_INPUTS for p in input[kind]
                ),
            log:
                f"results/{_study.name}/logs/figures/{_fig}.log",
            conda:
                ENV
            shell:
                "{params.cli} figure --study {params.study} --figure {params.fig} "
                "--inputs {params.inputs} --out png={output.png} pdf={output.pdf} 2> {log}"
