"""The figures of Molnar et al. (2023), "Relating the partial dependence plot and permutation
feature importance to the data generating process": its modules are found and imported by
:func:`imlbench.studies.load`."""
