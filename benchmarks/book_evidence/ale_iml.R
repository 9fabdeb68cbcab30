# iml's first-order ALE of a known function f(x_1, x_2) on data d (columns x_1, x_2), at the
# points `at`: k quantile intervals of type 1 (the minimum in the first), the mean difference
# of f across each interval, accumulated and centred by the count-weighted interval mid-values.
# Sourced by the ch. 7 evidence scripts (run from the checkout's root).
ale_iml <- function(d, f, k, at) {
  z <- unique(quantile(d$x_1, seq(0, 1, length.out = k + 1), names = FALSE, type = 1))
  idx <- findInterval(d$x_1, z, left.open = TRUE)
  idx[idx == 0] <- 1
  diff <- f(z[idx + 1], d$x_2) - f(z[idx], d$x_2)
  m <- tapply(diff, factor(idx, levels = seq_len(length(z) - 1)), mean)
  m[is.na(m)] <- 0
  cnt <- tabulate(idx, nbins = length(z) - 1)
  ale <- c(0, cumsum(m))
  ale <- ale - sum((ale[-1] + ale[-length(ale)]) / 2 * cnt) / sum(cnt)
  approx(z, ale, xout = at, rule = 1)$y
}
