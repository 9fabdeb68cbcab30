# Ch. 14 (LIME sampling), Fig. 14.17 from the book's own saved runs: the average standard
# deviation of the LIME weights (Boston, 12 features, all selected) against the number of
# xgboost rounds 2^d, d = 1..10, per sampling option (kernel = KDE, bins, normal).
# Reads the book's saved results LIME_experiment_results/complexity_growth_boston_repeats10_xgboost10
# (plain, _bins, _nd) of slds-lmu/iml_methods_limitations at 8aba7d4, written by its
# code/LIME/Sampling/bbox_complexity_experiments.R (n_features = p, so the weights carry their own
# feature names), and summarises them as in ch14_feature_growth_saved.R: sd over the repeats per
# explained point, level and feature, mean over points, mean over features. Our own code.
# Command (from the checkout's root), with <book repo> the book's git directory:
#   for f in complexity_growth_boston_repeats10_xgboost10 complexity_growth_boston_repeats10_xgboost10_bins \
#     complexity_growth_boston_repeats10_xgboost10_nd; do
#     git --git-dir=<book repo> show HEAD:LIME_experiment_results/$f > /tmp/bk/$f; done
#   Rscript benchmarks/book_evidence/ch14_xgboost_saved.R /tmp/bk
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "/tmp/bk"
for (ty in list(c("", "kde (kernel)"), c("_bins", "bins"), c("_nd", "normal"))) {
  d <- as.data.frame(readRDS(file.path(dir, paste0("complexity_growth_boston_repeats10_xgboost10", ty[1]))))
  dc <- grep("^data_", names(d), value = TRUE); wc <- sub("^data_", "", dc)
  pt <- do.call(paste, c(lapply(dc, function(c) as.character(d[[c]])), sep = "|"))
  lev <- d$smoothness
  sds <- sapply(wc, function(c) tapply(d[[c]], paste(pt, lev, sep = "#"), sd))
  lv <- as.numeric(sub(".*#", "", rownames(sds)))
  per_pt <- rowMeans(sds, na.rm = TRUE)               # one value per explained point and level
  m <- tapply(per_pt, lv, mean); se <- tapply(per_pt, lv, sd) / sqrt(tapply(per_pt, lv, length))
  cat(sprintf("%-13s rounds %s\n", ty[2], paste(sprintf("%d:%.4f(%.4f)", 2^as.numeric(names(m)), m, se), collapse = " ")))
  steps <- diff(m[1:7])
  cat(sprintf("%-13s rises at %d of 6 doublings 2->128; 16->128 change %+.4f\n", "", sum(steps > 0), m[7] - m[4]))
}
