# Pearson correlations of lstat with the other features of the book's ch. 9 Boston data
# (code/03_6_fi_correlated.R at 8aba7d4: MASS's Boston reduced to dis, rm, age, nox, lstat,
# crim and medv, all 506 rows, drawn with corrplot.mixed(cor(Boston))), to three decimals and
# rounded to two and one; for book_importance's ch9-boston-cor-lstat-all-strong (every |r| of
# lstat with dis, age, nox, crim and rm at least 0.5). corrplot is not installed here: the
# rounding is printed, not drawn.
#
#   Rscript benchmarks/book_evidence/ch9_boston_lstat_cor.R
library(MASS)
B <- Boston[, c("dis", "rm", "age", "nox", "lstat", "crim", "medv")]
r <- cor(B)["lstat", c("dis", "rm", "age", "nox", "crim")]
r <- r[order(abs(r))]
cat("r(lstat, .):", sprintf("%s %.3f", names(r), r), "\n")
cat("two decimals:", sprintf("%s %.2f", names(r), r), "\n")
cat("one decimal:", sprintf("%s %.1f", names(r), r), "\n")
cat(sprintf("smallest |r|: %s %.3f; |r| < 0.5: %s\n", names(r)[1], abs(r[1]),
            paste(names(r)[abs(r) < 0.5], collapse = ", ")))
