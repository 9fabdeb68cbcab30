# The book's ch. 3.3.5 categorical simulation run as its repository's code runs it
# (01-1-pdp-correlated.Rmd at 8aba7d4: set.seed(123) before each case, n = 1000, X1 and X2 R
# factors, noise sd 0.1 |mean signal|, e1071's svm through mlr's regr.svm = svm(Y ~ ., data)),
# printing the spans of the SVM's PDPs that book_pdp's ch3-cat-svm-* claims compare:
# x1 and x2 over their levels, x3 from 0 to 20.
#
#   Rscript benchmarks/book_evidence/ch3_categorical_svm.R
#
# The noise is drawn after set.seed(123) here; the book draws it after fitting the linear
# model and the forest to the same cases (another stream of the same law). Case 3 follows the
# book's code, which draws x3 ~ N(20, 2) when x1 = 0 (the text: when
# x1 = 1; the study's errata), so x1's PDP is pushed the other way from ours.
library(e1071)
n <- 1000
draw <- function(case) {
  set.seed(123)
  d <- data.frame(X1 = factor(sample(c(0, 1), n, replace = TRUE, prob = c(0.5, 0.5))))
  level <- function(p) sample(c("A", "B", "C"), n, replace = TRUE, prob = p)[1]
  d$X2 <- if (case == 2) {
    sapply(d$X1, function(x) if (x == 0) level(c(0.9, 0.1, 0)) else level(c(0.05, 0.25, 0.7)))
  } else {
    sample(c("A", "B", "C"), n, replace = TRUE, prob = c(0.475, 0.175, 0.35))
  }
  d$X2 <- factor(d$X2)
  d$X3 <- if (case == 3) {
    sapply(d$X1, function(x) if (x == 0) rnorm(n, 20, 2)[1] else rnorm(n, 1, 1)[1])
  } else {
    sapply(seq_len(n), function(i) sample(c(rnorm(1, 20, 2), rnorm(1, 1, 1)), 1,
                                          prob = c(0.5, 0.5)))
  }
  d
}
pd <- function(fit, d, feature, values) sapply(values, function(v) {
  e <- d
  e[[feature]] <- if (is.factor(d[[feature]])) factor(v, levels(d[[feature]])) else v
  mean(predict(fit, e))
})
cases <- list(draw(1), draw(2), draw(3))
set.seed(123)
for (case in 1:3) {
  d <- cases[[case]]
  signal <- (d$X1 == "1") + (d$X2 %in% c("A", "B")) + d$X3
  d$Y <- signal + rnorm(n, 0, abs(mean(signal)) * 0.1)
  fit <- svm(Y ~ X1 + X2 + X3, d)
  cat(sprintf("case %d: span of x1 %.3f, of x2 %.3f, rise of x3 over [0, 20] %.3f\n", case,
              diff(range(pd(fit, d, "X1", levels(d$X1)))),
              diff(range(pd(fit, d, "X2", levels(d$X2)))), diff(pd(fit, d, "X3", c(0, 20)))))
}
