"""Figures of Hooker, Mentch & Zhou (2021), "Unrestricted permutation forces extrapolation".

One module per published figure (``fig1`` ... ``fig9``), each registering
``extrapolation.figN``; every figure adds the learners beyond the paper (xgboost, SVM,
kNN). Shared colours, letters and helpers live in :mod:`imlbench.figures.style`.
"""
