"""Figures of Molnar, Freiesleben, Koenig, Casalicchio, Wright & Bischl, PD and PFI of the
data generating process."""
