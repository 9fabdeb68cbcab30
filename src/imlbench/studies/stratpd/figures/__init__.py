"""The figures of Parr & Wilson (2021), "Partial dependence through stratification": its
modules are found and imported by :func:`imlbench.studies.load`."""
