# The book's ch. 3.2 bike models with season (01-1-pdp-correlated.Rmd at 8aba7d4: bike2, the
# "categorical" function's model with season and mnth, eq. 3.6; bike3, the "catnum"
# function's model with season and temp, eq. 3.9), fitted on the book's own data/day.csv (both
# years, 731 days) with lm, e1071's svm and randomForest at their defaults (mlr's regr.lm,
# regr.svm, regr.randomForest), and the season's PDP over its four levels in plain R. Prints
# the range of that PDP in each model and the ratio 3.9 / 3.6 that book_pdp's
# ch3-bike-season-temp-milder-season scores (above 1: temp flattens the season less than mnth).
# The forest is refitted under 5 seeds.
#
#   git --git-dir=<snapshot of slds-lmu/iml_methods_limitations> show HEAD:data/day.csv > day.csv
#   Rscript benchmarks/book_evidence/ch3_bike_season_span.R day.csv
library(e1071)
library(randomForest)
day <- read.csv(commandArgs(trailingOnly = TRUE)[1])
for (f in c("season", "yr", "mnth", "holiday", "workingday", "weathersit")) day[[f]] <- factor(day[[f]])
bike2 <- day[, c(3, 4, 5, 6, 8, 9, 12, 13, 16)]   # model 3.6: season and mnth
bike3 <- day[, c(3, 4, 6, 8, 9, 10, 12, 13, 16)]  # model 3.9: season and temp
span <- function(model, d) diff(range(sapply(levels(d$season), function(v) {
  e <- d; e$season <- factor(v, levels(d$season)); mean(predict(model, e))
})))
fit <- function(learner, d) switch(learner, lm = lm(cnt ~ ., d), svm = svm(cnt ~ ., d),
                                   rf = randomForest(cnt ~ ., d))
for (learner in c("lm", "svm", "rf")) {
  seeds <- if (learner == "rf") 1:5 else 123
  r <- sapply(seeds, function(s) {
    set.seed(s)
    a <- span(fit(learner, bike2), bike2)
    b <- span(fit(learner, bike3), bike3)
    c(a, b, b / a)
  })
  cat(sprintf("%-3s: season PDP range in 3.6 %s, in 3.9 %s, ratio 3.9 / 3.6 %s\n", learner,
              paste(sprintf("%.0f", r[1, ]), collapse = " "),
              paste(sprintf("%.0f", r[2, ]), collapse = " "),
              paste(sprintf("%.2f", r[3, ]), collapse = " ")))
}
