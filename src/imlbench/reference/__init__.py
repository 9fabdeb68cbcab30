"""The reference run a release commits, and the comparison of a run with it.

A run is reduced to its :class:`~imlbench.reference.digest.RunDigest` (every scorecard row
and a digest of every estimate file, :mod:`imlbench.reference.digest`), written as
``reference/<profile>.json``; :mod:`imlbench.reference.differ` says which rows and files of
another run differ from it beyond floating point, and ``python -m imlbench compare`` prints
that (:func:`imlbench.reference.command.compare_command`).
"""
