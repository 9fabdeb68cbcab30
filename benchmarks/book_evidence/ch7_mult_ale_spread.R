# The book's ch. 7 Example 2 (02-5-ale-other.Rmd at 8aba7d4: prediction_function_2,
# sample_uniform, expected_ALE_2 and the variance loop of Figs. 7.5/7.6): f = (x1-4)(x1-5)(x1-6)
# x2^3 with x1 ~ U(0, 10), x2 ~ U(x1 - 3, x1 + 3), n = 100, the known f as the model. The book
# draws one data set after set.seed(123) for Figs. 7.3/7.4 and then, after set.seed(123) again,
# 100 data sets for the variance study; this draws the same ones. The ALE is iml's
# (FeatureEffect, method "ale") written in plain R: grid.size + 1 type-1 quantiles of x1 as
# interval bounds, rows in left-open intervals (the minimum in the first), mean f difference per
# interval, cumulated and centred on the count-weighted mean of the interval midpoints, read at
# the book's eval points seq(0, 10, 0.05) by linear interpolation (NA outside the data).
# It prints (a) for the single data set the RMS error on [7.5, 10] against expected_ALE_2 per
# grid size, (b) over the 100 data sets the mean RMS error on [7.5, 10] per grid size, paired
# differences, and (c) the sd and max - min over the 100 curves at x1 = 5, 7.5, 9, 9.5 per grid
# size (the book's stdabw and var columns).
#
#   Rscript benchmarks/book_evidence/ch7_mult_ale_spread.R
f2 <- function(x1, x2) (x1 - 4) * (x1 - 5) * (x1 - 6) * x2^3
draw <- function(n) {
  x1 <- runif(n, 0, 10)
  x2 <- runif(n, x1 - 3, x1 + 3)
  data.frame(x_1 = x1, x_2 = x2, y = f2(x1, x2))
}
truth <- function(x) 3 / 6 * x^6 - 30 / 5 * x^5 + 101 / 4 * x^4 - 90 * x^3 + 333 * x^2 - 10528.57
source("benchmarks/book_evidence/ale_iml.R")
at <- seq(0, 10, by = 0.05)
top <- at >= 7.5 & at <= 10
ks <- c(5, 10, 25, 50, 100)
rmse <- function(est) sqrt(mean((est[top] - truth(at[top]))^2, na.rm = TRUE))
set.seed(123)
one <- draw(100)
cat("(a) the book's single data set, RMS error on [7.5, 10]:\n")
for (k in ks) cat(sprintf("  grid %3d: %8.0f\n", k, rmse(ale_iml(one, f2, k, at))))
set.seed(123)
sets <- lapply(1:100, function(j) draw(100))
curves <- lapply(c(10, 25, 50), function(k) sapply(sets, ale_iml, f = f2, k = k, at = at))
names(curves) <- c("10", "25", "50")
err <- sapply(c(5, 10, 25, 50), function(k) sapply(sets, function(d) rmse(ale_iml(d, f2, k, at))))
colnames(err) <- c("5", "10", "25", "50")
cat("(b) 100 data sets, mean RMS error on [7.5, 10] (SE):\n")
for (k in colnames(err)) cat(sprintf("  grid %3s: %8.0f (%5.0f)\n", k, mean(err[, k]), sd(err[, k]) / 10))
pd <- function(a, b) {
  d <- err[, a] - err[, b]
  cat(sprintf("  grid %s - grid %s: %7.0f (SE %5.0f), %d of 100 data sets favour %s\n",
              a, b, mean(d), sd(d) / 10, sum(d < 0), a))
}
pd("10", "25"); pd("10", "5"); pd("25", "50")
cat("(c) spread over the 100 curves: sd / max - min\n")
for (x in c(5, 7.5, 9, 9.5)) {
  i <- which.min(abs(at - x))
  s <- sapply(curves, function(m) c(sd(m[i, ], na.rm = TRUE), diff(range(m[i, ], na.rm = TRUE))))
  cat(sprintf("  x1 = %4.1f: grid 10 %6.0f / %6.0f, grid 25 %6.0f / %6.0f, grid 50 %6.0f / %6.0f\n",
              x, s[1, 1], s[2, 1], s[1, 2], s[2, 2], s[1, 3], s[2, 3]))
}
