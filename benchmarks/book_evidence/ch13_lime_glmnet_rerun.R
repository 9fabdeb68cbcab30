# Ch. 13 (LIME and the neighbourhood), Figs 13.7 and 13.10: the book's two simulated settings
# run again in plain R, with R lime's tabular algorithm written out (lime itself is not
# installed): every feature drawn from its normal law (training mean and sd), the explained row
# as the first sample, the sd-standardised Euclidean distance, the kernel sqrt(exp(-d^2/w^2)),
# all three features kept (n_features = 3 of 3), and the surrogate fitted as lime fits it,
# glmnet(x, y, weights, alpha = 0, lambda = 0.001). Next to glmnet, the same samples go through
# the closed form our src/imlbench/explain/lime.py uses (weighted centred cross-products C, c;
# solve (C + lambda diag C) b = c by least squares), so the two fits differ only in the solver.
# Our own code; the settings follow, from slds-lmu/iml_methods_limitations at 8aba7d4:
#   code/LIME/Neighbourhood/global_linear.R (simulate_data(2500, 3, seed 1), split 0.9 with
#     seed 100, regr.glm gaussian = lm, test rows 1, 21, 33, 103, 1,000 permutations, 50
#     iterations), checked against its saved R-results/LIME/Neighbourhood/task_pred_lm.RDS;
#   code/LIME/Neighbourhood/global_nonlinear.R (simulate_data(3000, 3, seed 2), x2 piecewise
#     linear with knots 4 and 6, slopes -4, 6, -3; the text's middle slope 3 as a variant;
#     regr.earth = earth(y ~ .) with its defaults; one test row per region drawn as the code
#     draws them after set.seed(2); 10,000 permutations). The book fits no forest to this
#     setting; a randomForest (200 trees, its defaults otherwise) on the same data stands for
#     our n_rf. Iterations here: 50 (linear), 10 (non-linear) to keep the run near 1 CPU minute.
# utils.R's simulate_data and make_split are re-implemented below (same calls, same streams).
# Command (from the checkout's root; <book repo> the book's git directory):
#   mkdir -p /tmp/bk; git --git-dir=<book repo> show \
#     HEAD:R-results/LIME/Neighbourhood/task_pred_lm.RDS > /tmp/bk/task_pred_lm.RDS
#   Rscript benchmarks/book_evidence/ch13_lime_glmnet_rerun.R /tmp/bk
suppressPackageStartupMessages({library(MASS); library(glmnet); library(earth)
                                library(randomForest)})
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else "/tmp/bk"

simulate <- function(n, seed, Sigma, coefs, intercept, x2_pieces = NULL) {
  set.seed(seed)
  X <- mvrnorm(n = n, c(5, 5, 5), Sigma, tol = 1e-6, empirical = FALSE, EISPACK = FALSE)
  if (is.null(x2_pieces)) {
    y_det <- cbind(1, X) %*% c(intercept, coefs)
  } else {  # continuous piecewise linear x2 (utils.R's support intercepts), x1 and x3 linear
    k <- x2_pieces$knots; b <- x2_pieces$coefs
    a <- c(0, b[1] * k[1] - b[2] * k[1])
    a <- c(a, b[2] * k[2] - b[3] * k[2] + a[2])
    lo <- c(-Inf, k); hi <- c(k, Inf)
    part <- rowSums(sapply(1:3, function(i)
      ifelse(X[, 2] > lo[i] & X[, 2] < hi[i], X[, 2] * b[i] + a[i], 0)))
    y_det <- part + cbind(1, X[, c(1, 3)]) %*% c(intercept, coefs[c(1, 3)])
  }
  colnames(X) <- c("x1", "x2", "x3")
  y <- rnorm(n, y_det, abs(y_det) / runif(n, 1, 100))
  data.frame(y, X)
}
split <- function(d, share, seed = 100) {
  force(d)  # simulate first (it sets its own seed), then the split's seed
  set.seed(seed)
  i <- sample(1:nrow(d), floor(share * nrow(d)))
  list(train = d[i, ], test = d[-i, ])
}

# One LIME explanation of `obs` per width, all widths on the same samples; returns a list of
# (glmnet, ours) coefficient vectors per width and the number of samples with weight > 0.
lime_once <- function(predict_fun, train, obs, widths, n_perm) {
  m <- colMeans(train); s <- apply(train, 2, sd)
  Z <- sapply(seq_along(m), function(j) rnorm(n_perm, m[j], s[j]))
  colnames(Z) <- colnames(train)
  Z[1, ] <- unlist(obs)
  yz <- predict_fun(as.data.frame(Z))
  S <- sweep(sweep(Z, 2, m), 2, s, "/")
  d <- sqrt(colSums((t(S) - S[1, ])^2))
  lapply(widths, function(w) {
    wt <- sqrt(exp(-d^2 / w^2))
    live <- sum(wt[-1] > 0)
    g <- if (live == 0) rep(NA, 3) else  # lime stops here: no sample near the row
      as.numeric(coef(glmnet(Z, yz, weights = wt, alpha = 0, lambda = 0.001)))[-1]
    sw <- sum(wt); mu <- colSums(Z * wt) / sw; mt <- sum(wt * yz) / sw
    Dc <- sweep(Z, 2, mu); Dw <- Dc * wt
    C <- crossprod(Dw, Dc); cc <- crossprod(Dw, yz - mt)
    A <- C + 0.001 * diag(diag(C))
    sv <- svd(A); keep <- sv$d > .Machine$double.eps * 3 * max(sv$d)  # numpy lstsq's cutoff
    ours <- if (any(keep)) as.numeric(sv$v[, keep, drop = FALSE] %*%
                                        ((t(sv$u[, keep, drop = FALSE]) %*% cc) / sv$d[keep]))
            else rep(0, 3)
    list(glmnet = g, ours = ours, live = live)
  })
}
run <- function(predict_fun, train, obs, widths, n_perm, iterations, seed) {
  set.seed(seed)
  res <- replicate(iterations, lime_once(predict_fun, train, obs, widths, n_perm),
                   simplify = FALSE)
  lapply(seq_along(widths), function(k) {
    pick <- function(what) t(sapply(res, function(r) r[[k]][[what]]))
    list(glmnet = pick("glmnet"), ours = pick("ours"),
         live = sapply(res, function(r) r[[k]]$live))
  })
}
show <- function(out, widths, feat, label) {
  for (k in seq_along(widths)) {
    g <- out[[k]]$glmnet[, feat]; o <- out[[k]]$ours[, feat]
    cat(sprintf(paste0("  %s width %.3g: glmnet mean %.2f (sd %.2f, median %.2f, |b| < 0.5 in %d%%)",
                       " | our solver mean %.2f (sd %.2f, median %.2f) | samples with weight > 0:",
                       " median %d\n"),
                label, widths[k], mean(g, na.rm = TRUE), sd(g, na.rm = TRUE),
                median(g, na.rm = TRUE), round(100 * mean(abs(g) < 0.5, na.rm = TRUE)),
                mean(o), sd(o), median(o), as.integer(median(out[[k]]$live))))
  }
}

## Fig. 13.7: global linear truth 5 + 4 x1 - 3 x2 + 5 x3, lm
d <- split(simulate(2500, 1, matrix(c(1, 0.3, 0.4, 0.3, 0.9, 0.2, 0.4, 0.2, 0.8), 3, byrow = TRUE),
                    c(4, -3, 5), 5), 0.9)
fit <- glm(y ~ ., family = gaussian, data = d$train)
pf <- function(z) as.numeric(predict(fit, newdata = z, type = "response"))
saved <- readRDS(file.path(dir, "task_pred_lm.RDS"))$data
cat(sprintf("global linear: data and lm as the book's saved task_pred_lm.RDS: max |truth diff| %.2g, max |prediction diff| %.2g\n",
            max(abs(saved$truth - d$test$y)), max(abs(saved$response - pf(d$test)))))
widths <- c(0.025, 0.05, 0.1)
for (r in c(1, 21, 33, 103)) {
  out <- run(pf, d$train[, -1], d$test[r, -1], widths, 1000, 50, r)
  cat(sprintf("global linear, lm, test row %d, coefficient of x1 (truth 4), 50 iterations:\n", r))
  show(out, widths, 1, "")
}

## Fig. 13.10: global non-linear truth, MARS (earth) and a forest
Sig <- matrix(c(0.6, 0.2, 0.1, 0.2, 0.8, 0.1, 0.1, 0.1, 0.6), 3, byrow = TRUE)
widths <- c(0.1, 0.2, 0.3)
for (mid in c(6, 3)) {
  d <- split(simulate(3000, 2, Sig, c(5, NA, 3), 2.5, list(knots = c(4, 6), coefs = c(-4, mid, -3))),
             0.9)
  set.seed(2)
  te <- d$test; eps <- 0.6
  pick <- function(rows) rows[sample(1:nrow(rows), 1), ]
  obs <- list(low = pick(te[te$x2 < 4 - eps, ]),
              middle = pick(te[te$x2 > 4 + eps & te$x2 < 6 + eps, ]),
              high = pick(te[te$x2 > 6 + eps, ]))
  mars <- earth(y ~ ., data = d$train)
  set.seed(1)
  rf <- randomForest(y ~ ., data = d$train, ntree = 200)
  learners <- list(MARS = function(z) as.numeric(predict(mars, newdata = z)),
                   randomForest = function(z) as.numeric(predict(rf, newdata = z)))
  for (ln in names(learners)) {
    f <- learners[[ln]]
    cat(sprintf("global non-linear (middle slope %d), %s, coefficient of x2 (truths -4, %d, -3), 10 iterations:\n",
                mid, ln, mid))
    for (o in names(obs)) {
      x <- obs[[o]][, -1]
      h <- 0.01; up <- x; dn <- x; up$x2 <- x$x2 + h; dn$x2 <- x$x2 - h
      cat(sprintf("  %s row (x2 = %.2f): the learner's own slope in x2 there (+-0.01) %.2f\n", o, x$x2,
                  (f(up) - f(dn)) / (2 * h)))
      for (np in c(2000, 10000)) {
        out <- run(f, d$train[, -1], x, widths, np, 10, 1)
        show(out, widths, 2, sprintf("%s, %d samples,", o, np))
      }
    }
  }
}
