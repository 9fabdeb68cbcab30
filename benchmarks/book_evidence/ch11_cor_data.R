# The correlated data set of the book's ch. 11 (03-8-fi-training-test.Rmd at 8aba7d4, the
# hidden chunk before its first PFI figure: set.seed(666), x1 ~ N(1, 1), x2 built from
# N(2, 0.5) draws by the rho = 0.9 projection, x3, x4 ~ N(0, 1), z = 1 + 2 x1 + 3 x2 + x3 + 4 x4,
# y ~ Bernoulli(logit^-1(z))), drawn line by line as the code draws it, printing the scale of
# each feature and its share of z's variance: what the text's "N(0, 1) features" becomes.
# The GBMs (h2o.gbm) are not run: h2o is not installed here.
#
#   Rscript benchmarks/book_evidence/ch11_cor_data.R
set.seed(666)
n <- 1000; rho <- 0.9; theta <- acos(rho)
x1 <- rnorm(n, 1, 1); x2 <- rnorm(n, 2, 0.5)
Xctr <- scale(cbind(x1, x2), center = TRUE, scale = FALSE)
Q <- qr.Q(qr(Xctr[, 1, drop = FALSE]))
x2o <- Xctr[, 2] - Q %*% crossprod(Q, Xctr[, 2])   # (I - Q Q') x2, without the n x n matrix
Xc2 <- cbind(Xctr[, 1], x2o)
Y <- Xc2 %*% diag(1 / sqrt(colSums(Xc2^2)))
x2 <- as.vector(Y[, 2] + (1 / tan(theta)) * Y[, 1])
x3 <- rnorm(n); x4 <- rnorm(n)
z <- 1 + 2 * x1 + 3 * x2 + x3 + 4 * x4
y <- rbinom(n, 1, 1 / (1 + exp(-z)))
sds <- c(x1 = sd(x1), x2 = sd(x2), x3 = sd(x3), x4 = sd(x4))
cat("sd:", sprintf("%s %.3f", names(sds), sds), "\n")
cat(sprintf("cor(x1, x2) %.3f; mean of x2 %.4f; share of y = 1 %.3f\n", cor(x1, x2), mean(x2), mean(y)))
v <- c(2, 3, 1, 4)^2 * sds^2
cat("coefficient^2 x variance (share of Var(z)):", sprintf("%s %.3f (%.3f)", names(v), v, v / sum(v)), "\n")
