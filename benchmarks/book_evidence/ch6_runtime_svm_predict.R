# The cost of the book's ch. 6 run-time computation in R (02-4-ale-pdp.Rmd at 8aba7d4:
# get_numeric_sampling, mlr's regr.svm = e1071::svm at its defaults on regr_100_5 / 100_20 /
# 100_40, iml's FeatureEffect ALE and PDP of V2 timed by microbenchmark). iml and mlr are not
# installed here, so this times only what iml's calls spend on prediction: e1071's predict on
# the rows a 1-D PDP (grid points x 100 rows, stacked in one call as iml does) and a 1-D ALE
# (2 x 100 rows) hand it, and the same PDP and ALE written as plain-R loops around predict
# (also a PDP of the 10-level factor multi_fact, and the same at n = 1,000 with 5 columns).
# What iml adds on top (its R6 objects, data.table work, checks) is the fixed part the book's
# times carry and these lack. In ms: the median of 5 timings,
# each the mean of REPS calls.
#
#   Rscript benchmarks/book_evidence/ch6_runtime_svm_predict.R
library(e1071)
suppressWarnings(invisible(0))
set.seed(1)
get_numeric_sampling <- function(nrows, ncols) {  # as the book's code draws its data
  y_regr <- c(1:ncols)
  for (i in 1:(ncols - 2)) y_regr <- suppressWarnings(cbind(y_regr, rnorm(nrows, runif(1, 0, 100), runif(1, 5, 10))))
  y_regr <- as.data.frame(y_regr)
  multi_fact <- as.factor(c(1:10))
  V_bin <- as.factor(rbinom(nrows, 1, runif(1, 0, 1)))
  cbind(y_regr, multi_fact, V_bin)
}
reps <- as.integer(Sys.getenv("REPS", "4"))
ms <- function(expr) {
  e <- substitute(expr)
  env <- parent.frame()
  t <- replicate(5, system.time(for (r in seq_len(reps)) eval(e, env))[["elapsed"]] / reps)
  1000 * median(t)
}
pdp <- function(fit, d, k) {
  g <- seq(min(d$V2), max(d$V2), length.out = k)
  big <- d[rep(seq_len(nrow(d)), k), ]
  big$V2 <- rep(g, each = nrow(d))
  p <- predict(fit, big)
  tapply(p, rep(seq_len(k), each = nrow(d)), mean)
}
ale <- function(fit, d, k) {
  z <- unique(quantile(d$V2, seq(0, 1, length.out = k + 1), names = FALSE, type = 1))
  i <- findInterval(d$V2, z, left.open = TRUE); i[i == 0] <- 1
  lo <- d; hi <- d; lo$V2 <- z[i]; hi$V2 <- z[i + 1]
  p <- predict(fit, rbind(lo, hi))
  cumsum(tapply(p[-seq_len(nrow(d))] - p[seq_len(nrow(d))], i, mean))
}
pdpcat <- function(fit, d) {
  lv <- levels(d$multi_fact)
  big <- d[rep(seq_len(nrow(d)), length(lv)), ]
  big$multi_fact <- factor(rep(lv, each = nrow(d)), levels = lv)
  tapply(predict(fit, big), rep(seq_along(lv), each = nrow(d)), mean)
}
for (p in c(5, 20, 40)) {
  d <- get_numeric_sampling(100, p)
  fit <- svm(y_regr ~ ., data = d)
  x <- d[, names(d) != "y_regr"]
  cat(sprintf("n = 100, %2d columns: predict 100 rows %.2f ms, 2,000 rows %.2f, 10,000 rows %.2f; ",
              p, ms(predict(fit, x)), ms(predict(fit, x[rep(1:100, 20), ])),
              ms(predict(fit, x[rep(1:100, 100), ]))))
  cat(sprintf("plain-R PDP grid 20 %.2f ms, grid 100 %.2f; ALE grid 20 %.2f, grid 100 %.2f\n",
              ms(pdp(fit, x, 20)), ms(pdp(fit, x, 100)), ms(ale(fit, x, 20)), ms(ale(fit, x, 100))))
  cat(sprintf("  categorical PDP (10 levels of multi_fact) %.2f ms\n", ms(pdpcat(fit, x))))
}
d <- get_numeric_sampling(1000, 5)
fit <- svm(y_regr ~ ., data = d)
x <- d[, names(d) != "y_regr"]
cat(sprintf("n = 1,000, 5 columns: predict 1,000 rows %.2f ms; PDP grid 20 %.2f; ALE grid 20 %.2f; categorical PDP %.2f\n",
            ms(predict(fit, x)), ms(pdp(fit, x, 20)), ms(ale(fit, x, 20)), ms(pdpcat(fit, x))))
