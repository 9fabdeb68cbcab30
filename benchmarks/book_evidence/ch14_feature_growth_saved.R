# Ch. 14 (LIME sampling), Figs. 14.12 and 14.13 from the book's own saved runs: the average
# standard deviation of the LIME weights against the number of features p (Fig. 14.12) and
# against the number of selected features n_features at full p (Fig. 14.13).
# Reads the book's saved results LIME_experiment_results/feature_growth_{boston,bikes}_repeats*
# (slds-lmu/iml_methods_limitations at 8aba7d4) and summarises them as the book's
# code/LIME/Sampling/amount_of_features_experiments.R does: sd of each feature's weight over the
# repeats per explained point (and p, or n_features), mean over points, mean over features.
# The book's Fig. 14.12 pools, within each p, the weights of every n_features from 1 to p; the
# line 'n_features=p' keeps only the explanations with all p features, as our run does.
# The repeats10 lines reproduce the book's images/sd_p_presi3.png and sd_nfeat_presi3.png.
# Our own code; no lime package is needed, the saved weights are used as they are.
# Command (from the checkout's root), with <book repo> the book's git directory:
#   mkdir -p /tmp/bk && for f in feature_growth_boston_repeats10 feature_growth_boston_repeats10_bins \
#     feature_growth_boston_repeats10_nd feature_growth_bikes_repeats10 feature_growth_boston_repeats100 \
#     feature_growth_boston_repeats100_bins feature_growth_boston_repeats100_nd feature_growth_bikes_repeats100; do
#     git --git-dir=<book repo> show HEAD:LIME_experiment_results/$f > /tmp/bk/$f; done
#   Rscript benchmarks/book_evidence/ch14_feature_growth_saved.R /tmp/bk
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "/tmp/bk"

avg_sd <- function(d, by) {
  dc <- grep("^data_", names(d), value = TRUE)
  wc <- sub("^data_", "", dc)
  pt <- do.call(paste, c(lapply(dc, function(c) as.character(d[[c]])), sep = "|"))
  key <- paste(pt, d[[by]], sep = "#")
  w <- sapply(wc, function(c) suppressWarnings(as.numeric(as.character(d[[c]]))))
  # sd per (point, by) and feature, then mean over points per (by, feature), then mean over features
  sds <- apply(w, 2, function(col) tapply(col, key, sd, na.rm = TRUE))
  byv <- as.numeric(sub(".*#", "", rownames(sds)))
  per_by <- sapply(split(seq_len(nrow(sds)), byv), function(i)
    colMeans(sds[i, , drop = FALSE], na.rm = TRUE))
  res <- apply(per_by, 2, function(col) mean(col[!is.nan(col) & !is.na(col)]))
  res
}

thirds <- function(v) {
  k <- length(v); cut3 <- split(v, ceiling(seq_len(k) * 3 / k))
  paste(sprintf("%.4f", sapply(cut3, mean)), collapse = ", ")
}

show <- function(tag, v) {
  cat(sprintf("%-34s %s\n", tag, paste(sprintf("%s:%.4f", names(v), v), collapse = " ")))
  x <- as.numeric(names(v))
  cat(sprintf("%-34s last-first %+.4f  LS slope*range %+.4f  thirds %s\n", "", v[length(v)] - v[1],
              coef(lm(v ~ x))[2] * (max(x) - min(x)), thirds(v)))
}

for (rep in c("repeats10", "repeats100")) {
  for (ty in list(c("boston", "", "kde (kernel)"), c("boston", "_bins", "bins"),
                  c("boston", "_nd", "normal"), c("bikes", "", "categorical"))) {
    f <- file.path(dir, sprintf("feature_growth_%s_%s%s", ty[1], rep, ty[2]))
    if (!file.exists(f)) next
    d <- as.data.frame(readRDS(f))
    d$p <- as.numeric(as.character(d$p)); d$n_features <- as.numeric(as.character(d$n_features))
    pmax <- max(d$p)
    show(sprintf("%s %s %s by p", ty[1], rep, ty[3]), avg_sd(d, "p"))
    # the same curve with all p features selected (n_features = p), as our run explains
    show(sprintf("%s %s %s by p, n_features=p", ty[1], rep, ty[3]), avg_sd(d[d$n_features == d$p, ], "p"))
    show(sprintf("%s %s %s by n_features, p=%d", ty[1], rep, ty[3], pmax),
         avg_sd(d[d$p == pmax, ], "n_features"))
  }
}
