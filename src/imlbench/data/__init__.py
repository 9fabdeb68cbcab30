"""Loaders for the real data sets used alongside the simulations."""
