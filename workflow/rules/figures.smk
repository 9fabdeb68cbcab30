# One rule per figure: it reads only Parquet, and its inputs are its own code and
# style, so restyling a figure (its `style:` entry or its module) reruns only that figure.
FIGURE_SRC = Path(workflow.basedir) / "src" / "imlbench" / "figures"
for _study in STUDIES.values():
    for _fig, _spec in _study.figures.items():
        _scs = _study.scenarios_of(_spec["scenarios"])
        _module = _spec["function"].replace(".", "/")

        rule:
            name:
                f"figure__{_study.name}__{_fig}"
            input:
                # the figure's module, the shared style and the study's helper modules (the
                # modules of the study's folder that are not figures)
                code=[FIGURE_SRC / f"{_module}.py", FIGURE_SRC / "style.py",
                      *sorted(p for p in (FIGURE_SRC / _module).parent.glob("*.py")
                              if not p.stem.startswith("fig"))],
                estimates=estimates_of(_study, _scs),
                truth=[p for sc in _scs for p in truth_paths(_study.name, sc).values()],
                ranks=[f"results/{_study.name}/metrics/ranks.parquet"],
                summary=[f"results/{_study.name}/metrics/summary.parquet"],
                data=[f"results/{_study.name}/data/{sc.name}/c0.parquet" for sc in _scs
                      if sc.chunks],  # a scenario may run no repetitions in a profile
            output:
                png=report(
                    f"results/{_study.name}/figures/{_fig}.png",
                    category=_study.title,
                    caption="../report/figure.rst",
                ),
                pdf=f"results/{_study.name}/figures/{_fig}.pdf",
            params:
                spec=json.dumps(_spec, sort_keys=True),
                study=_study.name,
                fig=_fig,
                caption=_spec["caption"],
                title=_spec["title"],
                inputs=lambda w, input: " ".join(
                    f"{role}={p}" for role in ("estimates", "truth", "ranks", "summary", "data")
                    for p in input[role]
                ),
            log:
                f"results/{_study.name}/logs/figures/{_fig}.log",
            shell:
                "{CLI} figure --study {params.study} --figure {params.fig} "
                "--inputs {params.inputs} --out png={output.png} pdf={output.pdf} 2> {log}"
