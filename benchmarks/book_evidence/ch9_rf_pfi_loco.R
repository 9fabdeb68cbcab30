# The book's ch. 9 simulation for the forest, run as its repository's code runs it
# (code/03_6_fi_correlated.R at 8aba7d4: four unit normals with cor(X1, X2) = rho, Uninf ~ U(0, 1),
# n = 1000, noise sd 10% of |mean of the noiseless signal|, 10 subsample splits 80/20,
# mlr's regr.randomForest = randomForest(y ~ ., data) at its defaults), printing what
# book_importance's misses compare:
#   scenario 1 (y = X1 + X2 + X3 + X4) at rho 0.99: the LOCO ratio of X1 and X2 (mean test MSE over
#     the splits without the feature / with it, as the book's LOCO() divides the aggregates);
#   scenario 2 (y = X1 + X2 + X3 + 1.2 X4) at rho 0.75 and 0.99: the PFI ratio per split
#     (test MSE with the feature permuted / without, mean over 5 permutations; iml's
#     FeatureImp also permutes 5 times but reports the median of the ratios) and each
#     feature's average place over the splits (rank of -importance among the five features,
#     1 = most important, as the book's PFI() ranks them).
# The PFI/LOCO loops are plain R (no mlr/iml). MASS::mvrnorm draws the features (the book's
# rmvnorm is another stream of the same law), so one data set is not the book's; DATASETS
# independent data sets (seeds 1..DATASETS) give the spread of one run.
#
#   DATASETS=3 Rscript benchmarks/book_evidence/ch9_rf_pfi_loco.R
suppressMessages({library(MASS); library(randomForest)})
R <- as.integer(Sys.getenv("DATASETS", "3"))
draw <- function(rho, b4) {
  S <- diag(4); S[1, 2] <- S[2, 1] <- rho
  X <- as.data.frame(mvrnorm(1000, rep(0, 4), S)); names(X) <- paste0("X", 1:4)
  X$Uninf <- runif(1000)
  f <- X$X1 + X$X2 + X$X3 + b4 * X$X4
  X$y <- f + rnorm(1000, 0, abs(mean(f)) * 0.1)
  X
}
mse <- function(m, d) mean((predict(m, d) - d$y)^2)
splits <- function() replicate(10, sample(1000, 800), simplify = FALSE)
feats <- c("X1", "X2", "X3", "X4", "Uninf")
loco <- function(d) {  # LOCO of X1 and X2: ratio of mean test MSEs
  e <- matrix(NA, 10, 3); sp <- splits()
  for (i in 1:10) {
    tr <- d[sp[[i]], ]; te <- d[-sp[[i]], ]
    e[i, 1] <- mse(randomForest(y ~ ., tr), te)
    e[i, 2] <- mse(randomForest(y ~ . - X1, tr), te)
    e[i, 3] <- mse(randomForest(y ~ . - X2, tr), te)
  }
  c(X1 = mean(e[, 2]) / mean(e[, 1]), X2 = mean(e[, 3]) / mean(e[, 1]))
}
pfi <- function(d) {  # per split: PFI ratios and places of the five features
  sp <- splits(); imp <- matrix(NA, 10, 5, dimnames = list(NULL, feats))
  for (i in 1:10) {
    m <- randomForest(y ~ ., d[sp[[i]], ]); te <- d[-sp[[i]], ]; e0 <- mse(m, te)
    for (f in feats) imp[i, f] <- mean(replicate(5, {p <- te; p[[f]] <- sample(p[[f]]); mse(m, p)})) / e0
  }
  list(imp = colMeans(imp), place = colMeans(t(apply(-imp, 1, rank))))
}
ms <- function(x) sprintf("%.3f (SE %.3f)", mean(x), sd(x) / sqrt(length(x)))
L <- matrix(NA, R, 2); P <- list()
for (r in 1:R) {
  set.seed(r); L[r, ] <- loco(draw(0.99, 1))
  for (rho in c(0.75, 0.99)) { set.seed(100 + r); P[[paste(rho)]][[r]] <- pfi(draw(rho, 1.2)) }
}
cat(sprintf("scenario 1, rho 0.99, forest LOCO over %d data sets: X1 %s, X2 %s, mean of both %s\n",
            R, ms(L[, 1]), ms(L[, 2]), ms(rowMeans(L))))
cat("  per data set (X1, X2):", paste(sprintf("%.3f/%.3f", L[, 1], L[, 2]), collapse = " "), "\n")
for (rho in c("0.75", "0.99")) {
  pl <- t(sapply(P[[rho]], `[[`, "place")); im <- t(sapply(P[[rho]], `[[`, "imp"))
  cat(sprintf("scenario 2, rho %s, forest PFI places (1 = most important): X1 %s, X2 %s, X4 %s\n",
              rho, ms(pl[, "X1"]), ms(pl[, "X2"]), ms(pl[, "X4"])))
  cat(sprintf("  pair's mean place - X4's place: %s; PFI ratio X1 %s, X2 %s, X4 %s\n",
              ms(rowMeans(pl[, c("X1", "X2"), drop = FALSE]) - pl[, "X4"]), ms(im[, "X1"]), ms(im[, "X2"]), ms(im[, "X4"])))
}
