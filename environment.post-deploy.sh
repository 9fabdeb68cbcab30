#!/usr/bin/env bash
# Run by Snakemake in each environment it creates from environment.yml (`--sdm conda`), from
# the project's root: installs the bike-sharing data set's package and imlbench itself, so that
# the jobs' `python -m imlbench` runs this project's code.
set -euo pipefail
python -m pip install --no-deps islp
python -m pip install --no-deps -e .
