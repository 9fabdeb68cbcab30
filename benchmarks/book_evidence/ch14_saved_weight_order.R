# Ch. 14 (LIME sampling): are the book's saved LIME weights stored under the right feature names?
# R lime returns an explanation's features in the order its selection picked them (highest
# weights: by decreasing |weight|; forward selection: in the order added; all features: column
# order), while the book's feature_growth() in code/LIME/Sampling/amount_of_features_experiments.R
# (slds-lmu/iml_methods_limitations at 8aba7d4) writes them with
# feat_return[names(feat_return) %in% explanation$feature] = explanation$feature_weight, i.e. in
# column order. If so, every saved row with the highest-weights selection (lime's "auto" for
# n_features > 6 and < p) has its non-missing weights in column order sorted by decreasing |weight|,
# which a correctly labelled row does only by chance (1 / n_features! of the time).
# Our own code; reads the book's saved results LIME_experiment_results/feature_growth_* (see
# ch14_feature_growth_saved.R for how to extract them). Command (from the checkout's root):
#   Rscript benchmarks/book_evidence/ch14_saved_weight_order.R /tmp/bk
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "/tmp/bk"
for (f in c("feature_growth_boston_repeats10", "feature_growth_boston_repeats10_bins",
            "feature_growth_boston_repeats10_nd", "feature_growth_bikes_repeats10")) {
  d <- as.data.frame(readRDS(file.path(dir, f)))
  p <- as.numeric(as.character(d$p)); nf <- as.numeric(as.character(d$n_features))
  wc <- sub("^data_", "", grep("^data_", names(d), value = TRUE))
  w <- sapply(wc, function(c) suppressWarnings(as.numeric(as.character(d[[c]]))))
  sorted <- apply(w, 1, function(r) { a <- abs(r[!is.na(r)]); length(a) > 1 && all(diff(a) <= 0) })
  grp <- ifelse(nf >= p, "all p (column order)", ifelse(nf > 6, "7..p-1 (highest weights)", "2..6 (forward)"))
  grp[nf == 1] <- NA
  tab <- tapply(sorted, grp, mean)
  cat(sprintf("%-38s %s\n", f, paste(sprintf("%s: %.3f (n=%d)", names(tab), tab,
                                               as.vector(table(grp)[names(tab)])), collapse = "; ")))
}
