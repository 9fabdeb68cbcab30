"""The figures of the conditional-subgroups study (Molnar, König, Bischl & Casalicchio): its
modules are found and imported by :func:`imlbench.studies.load`."""
