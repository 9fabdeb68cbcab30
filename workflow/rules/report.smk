# `snakemake --report results/report.html` collects every figure (grouped by study) and the
# scorecard of the last completed run: its profile and studies come from results/run.json
# unless --config sets them (imlbench.runinfo, in common.smk). Captions: workflow/report/ (the
# report and the scorecard) and each figure's study-file entry (common.smk, caption_file).
report: "../report/workflow.rst"
