"""Figures of Molnar, Koenig, Bischl & Casalicchio, the conditional-subgroups paper."""
