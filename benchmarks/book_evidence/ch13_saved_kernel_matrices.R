# Ch. 13 (LIME neighbourhood) from the book's own saved kernel-width runs: the surrogate
# coefficients (mean over 50 iterations, sd = half the saved 95% band / 1.96; global_linear.R
# saved means only) and, for the bike days, how often each feature is selected (of 48
# iterations, n_features = 3).
# Reads R-results/LIME/Neighbourhood/kernelmatrix-*.RDS and kw_*.RDS of
# slds-lmu/iml_methods_limitations at 8aba7d4, written by its code/LIME/Neighbourhood/
# global_linear.R (lm, test rows 1, 21, 33, 103, 1,000 permutations, 50 iterations),
# local_linear.R (MARS, regr.earth; rows 1_* left of the knot, 2_* right of it), global_nonlinear.R
# (MARS; obs 1 below the first knot, 2 between, 3 above the second) and real.R (randomForest,
# ntree = 100, the book's two years of day.csv, 10 test days); and univariate_1/2.RDS of
# 1d_setting.R (randomForest, ntree = 1000, the sine; slope of x1 at x1 = 12.75 and 10.2, mean over
# 48 iterations, 3,000 samples, n_features = 1). Our own code.
# Command (from the checkout's root), with <book repo> the book's git directory:
#   for f in kw_global_linear kernelmatrix-global_linear1 kernelmatrix-global_linear2 \
#     kernelmatrix-global_linear3 kernelmatrix-global_linear4 kw_local_linear kw_global_nonlinear kw_real kernelmatrix-local_linear1_1 kernelmatrix-local_linear1_2 \
#     kernelmatrix-local_linear2_1 kernelmatrix-local_linear2_2 kernelmatrix-global_nonlinear1 \
#     kernelmatrix-global_nonlinear2 kernelmatrix-global_nonlinear3 kernelmatrix-bike-randomforest kw_univariate univariate_1 univariate_2; do
#     git --git-dir=<book repo> show HEAD:R-results/LIME/Neighbourhood/$f.RDS > /tmp/bk/$f.RDS; done
#   Rscript benchmarks/book_evidence/ch13_saved_kernel_matrices.R /tmp/bk
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "/tmp/bk"
rd <- function(f) readRDS(file.path(dir, paste0(f, ".RDS")))
coef_at <- function(km, kw, feat, widths) {
  sapply(widths, function(w) {
    i <- which.min(abs(kw - w))
    sprintf("w=%.3g: %.2f (sd %.2f)", kw[i], km[[1]][i, feat], (km[[3]][i, feat] - km[[1]][i, feat]) / 1.96)
  })
}
kw <- rd("kw_global_linear")
cat("global linear, lm, slope of x1 (truth 4) at test rows 1, 21, 33, 103 (saved means of 50 iterations)\n")
for (r in 1:4) {
  km <- rd(paste0("kernelmatrix-global_linear", r))
  cat(sprintf("  row %d %s\n", c(1, 21, 33, 103)[r],
              paste(sprintf("w=%.3g: %.2f", kw[1:3], km[1:3, "x1"]), collapse = "; ")))
}
cat("global linear, lm, every coefficient at widths 0.1, 0.2, 0.3 and 3 (the fitted lm's), per test row\n")
for (r in 1:4) {
  km <- rd(paste0("kernelmatrix-global_linear", r))
  cat(sprintf("  row %d %s\n", c(1, 21, 33, 103)[r], paste(sapply(c(0.1, 0.2, 0.3, 3), function(w) {
    i <- which.min(abs(kw - w))
    sprintf("w=%g: x1 %.2f x2 %.2f x3 %.2f", kw[i], km[i, "x1"], km[i, "x2"], km[i, "x3"])
  }), collapse = "; ")))
}
kw <- rd("kw_local_linear")
cat("local linear, MARS, slope of x1 (truth 5 left of the knot, 0 right; average 2.5)\n")
for (r in c("1_1", "1_2", "2_1", "2_2"))
  cat(sprintf("  row %s %s\n", r, paste(coef_at(rd(paste0("kernelmatrix-local_linear", r)), kw, "x1",
                                                 c(0.1, 0.7, 1, 2)), collapse = "; ")))
kw <- rd("kw_global_nonlinear")
cat("global nonlinear, MARS, coefficient of x2 (the code's local slopes -4, 6, -3)\n")
for (r in 1:3)
  cat(sprintf("  obs %d %s\n", r, paste(coef_at(rd(paste0("kernelmatrix-global_nonlinear", r)), kw, "x2",
                                                 c(0.03, 0.06, 0.1, 0.15, 0.2, 0.25, 0.3)), collapse = "; ")))
kw <- rd("kw_real")
km <- rd("kernelmatrix-bike-randomforest")
for (w in c(3.75, 20)) {
  i <- which(kw == w)[1]
  sel <- t(sapply(km, function(o) if (inherits(o, "try-error")) NA else unlist(o[[2]][i, -1])))
  cat(sprintf("bike days, randomForest, width %g: selection frequency per test day (48 iterations)\n", w))
  print(round(sel, 2))
  cat(sprintf("  mean over days: %s\n", paste(sprintf("%s %.2f", colnames(sel), colMeans(sel)), collapse = ", ")))
}
kw <- rd("kw_univariate")
u1 <- rd("univariate_1"); u2 <- rd("univariate_2")
cat("sine, randomForest, slope of x1 at x1 = 12.75 (first) and 10.2 (second), and their difference\n")
for (w in c(0.05, 0.1, 0.5, 1, 2)) {
  i <- which(abs(kw - w) < 1e-9)[1]
  cat(sprintf("  width %.2f: %.2f  %.2f  difference %+.2f\n", w, u1[i, 2], u2[i, 2], u1[i, 2] - u2[i, 2]))
}
