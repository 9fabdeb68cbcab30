"""imlbench: reproductions of interpretation methods under feature dependence.

The package holds the data generating processes, learners, explanation methods,
ground truths, metrics and figures that the Snakemake workflow chains together.
"""

__version__ = "0.1.0"
