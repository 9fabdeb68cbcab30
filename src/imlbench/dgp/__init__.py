"""Data generating processes, registered by name in :data:`imlbench.dgp.base.DGPS`.

The generic ones live here (the feature-effect examples, the base of real tables); a study's
own DGPs live in its package under :mod:`imlbench.studies`.
"""
