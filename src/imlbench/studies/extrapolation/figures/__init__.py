"""The figures of Hooker, Mentch & Zhou (2021): its modules are found and imported by
:func:`imlbench.studies.load`."""
