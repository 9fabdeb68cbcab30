# `snakemake --report results/report.html` collects every figure (grouped by study)
# and the scorecard; captions come from workflow/report/.
report: "../report/workflow.rst"
