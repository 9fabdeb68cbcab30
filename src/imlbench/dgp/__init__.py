"""Data generating processes, registered by name in :data:`imlbench.dgp.base.DGPS`.

The generic ones live here (the feature-effect examples, the ``formula`` DGP, the base of real
tables, the ``table`` DGP that reads a real table named in the study file, the daily bike
rentals ``bikeshare_daily``); a study's own DGPs live in its package under
:mod:`imlbench.studies`.
"""
