"""The figures of the book's chapters 5-7 (ALE): its modules are found and imported by
:func:`imlbench.studies.load`."""
