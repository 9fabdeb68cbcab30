# The book's ch. 7 Example 3 (02-5-ale-other.Rmd at 8aba7d4: prediction_function_3,
# sample_normal_uniform, expected_ALE_3, the grid 100 / 1000 plots of Figs. 7.8/7.9):
# f = sin(10 x1) x2 with x1 ~ N(10, 3^2), x2 ~ U(x1 - 3, x1 + 3), n = 1,000, the known f as the
# model. The book draws one data set after set.seed(123); this draws it and then SETS more, and
# computes iml's ALE (FeatureEffect, method "ale": grid.size + 1 type-1 quantiles of x1 as
# bounds, left-open intervals, mean f difference, cumulated, centred on the count-weighted
# interval midpoints, read by linear interpolation) in plain R. It prints the RMS error on
# x1 in [8, 12] (points every 0.01) of grid 100 and grid 1000 against the theoretical ALE
# x sin(10 x) + cos(10 x) / 10, centred (a) as the book does, by its Monte-Carlo mean under
# N(5, 3^2) (EW, about 0), and (b) by the mean under the data's N(10, 3^2); per data set and
# the mean over SETS with the paired difference, and (c) as imlbench's closer_to_truth reads
# it by default (anchor: mean: each curve minus its own mean over the compared points). POINTS=coarse reads the curves only at the
# points of imlbench's truth table for shaky7 (101 over the data's range, step 0.154, 26 in
# [8, 12]) instead of every 0.01.
#
#   Rscript benchmarks/book_evidence/ch7_shaky_ale_centre.R
#   POINTS=coarse Rscript benchmarks/book_evidence/ch7_shaky_ale_centre.R
f3 <- function(x1, x2) sin(10 * x1) * x2
draw <- function(n) {
  x1 <- rnorm(n, 10, 3)
  x2 <- runif(n, x1 - 3, x1 + 3)
  data.frame(x_1 = x1, x_2 = x2)
}
source("benchmarks/book_evidence/ale_iml.R")
raw <- function(x) x * sin(10 * x) + cos(10 * x) / 10
set.seed(1)
ew_book <- mean(raw(rnorm(1e6, 5, 3)))
ew_data <- mean(raw(rnorm(1e6, 10, 3)))
at <- seq(8, 12, by = 0.01)
if (Sys.getenv("POINTS") == "coarse") {
  # imlbench's truth points for shaky7: 101 points over the data's range (2.31 to 17.75)
  at <- seq(2.314766, 17.746832, length.out = 101)
  at <- at[at >= 8 & at <= 12]
}
rmse <- function(est, ew) sqrt(mean((est - (raw(at) - ew))^2))
# imlbench's default reading (anchor: mean): each curve minus its mean over the compared points
rmse_anch <- function(est) {
  tr <- raw(at)
  sqrt(mean(((est - mean(est)) - (tr - mean(tr)))^2))
}
sets <- as.integer(Sys.getenv("SETS", "100"))
set.seed(123)
data <- lapply(seq_len(sets + 1), function(j) draw(1000))
err <- t(sapply(data, function(d) {
  a <- ale_iml(d, f3, 100, at); b <- ale_iml(d, f3, 1000, at)
  c(rmse(a, ew_book), rmse(b, ew_book), rmse(a, ew_data), rmse(b, ew_data), rmse_anch(a),
    rmse_anch(b))
}))
cat(sprintf("EW under N(5, 9) %.4f, under N(10, 9) %.4f; range of the truth on [8, 12] %.2f\n",
            ew_book, ew_data, diff(range(raw(at)))))
cat(sprintf("the book's data set: grid 100 %.3f, grid 1000 %.3f (book's centring); %.3f, %.3f (data's)\n",
            err[1, 1], err[1, 2], err[1, 3], err[1, 4]))
rest <- err[-1, , drop = FALSE]
for (j in c(1, 3, 5)) {
  d <- rest[, j] - rest[, j + 1]
  cat(sprintf("%d more data sets (%s centring): grid 100 %.3f, grid 1000 %.3f, difference %.4f (SE %.4f), %d favour 100\n",
              nrow(rest), c("book's", "", "data's", "", "imlbench's mean-anchored")[j], mean(rest[, j]), mean(rest[, j + 1]),
              mean(d), sd(d) / sqrt(length(d)), sum(d < 0)))
}
