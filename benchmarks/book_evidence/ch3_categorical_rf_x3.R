# The book's ch. 3.3.5 categorical simulation (01-1-pdp-correlated.Rmd at 8aba7d4, cases 1
# and 3: n = 1000, X1 and X2 R factors, x3 from two clusters N(20, 2) and N(1, 1); in case 3 x3's
# cluster is set by x1, as the book's code draws it) fitted with randomForest at its defaults
# (mlr's regr.randomForest), printing what book_pdp's ch3-cat-rf-x1x3-x3-differs scores: the
# RMS distance of the centred PDP of x3 (50 equidistant points over x3's range, those in
# [0, 20]) from the centred true PD (slope 1), case 3 against case 1, over SETS data sets
# (the first drawn after set.seed(123), as the book's one data set per case).
#
#   Rscript benchmarks/book_evidence/ch3_categorical_rf_x3.R
library(randomForest)
n <- 1000
sets <- as.integer(Sys.getenv("SETS", "5"))
draw <- function(case) {
  d <- data.frame(X1 = factor(sample(c(0, 1), n, replace = TRUE, prob = c(0.5, 0.5))))
  d$X2 <- factor(sample(c("A", "B", "C"), n, replace = TRUE, prob = c(0.475, 0.175, 0.35)))
  d$X3 <- if (case == 3) {
    sapply(d$X1, function(x) if (x == 0) rnorm(n, 20, 2)[1] else rnorm(n, 1, 1)[1])
  } else {
    sapply(seq_len(n), function(i) sample(c(rnorm(1, 20, 2), rnorm(1, 1, 1)), 1, prob = c(0.5, 0.5)))
  }
  signal <- (d$X1 == "1") + (d$X2 %in% c("A", "B")) + d$X3
  d$Y <- signal + rnorm(n, 0, abs(mean(signal)) * 0.1)
  d
}
err <- function(d) {
  fit <- randomForest(Y ~ X1 + X2 + X3, d)
  grid <- seq(min(d$X3), max(d$X3), length.out = 50)
  grid <- grid[grid >= 0 & grid <= 20]
  v <- sapply(grid, function(x) { e <- d; e$X3 <- x; mean(predict(fit, e)) })
  sqrt(mean(((v - mean(v)) - (grid - mean(grid)))^2))
}
e <- sapply(c(1, 3), function(case) {
  set.seed(123)
  sapply(seq_len(sets), function(i) err(draw(case)))
})
cat(sprintf("RMS error of x3's PDP on [0, 20]: case 1 %.2f (SE %.2f), case 3 %.2f (SE %.2f), ratio %.2f, %d data sets\n",
            mean(e[, 1]), sd(e[, 1]) / sqrt(sets), mean(e[, 2]), sd(e[, 2]) / sqrt(sets),
            mean(e[, 2]) / mean(e[, 1]), sets))
