# R's answers kept as test data (tests/data/reference/), so that the tests need no R.
# Needs the Debian packages r-base-core and r-cran-e1071 (foreign comes with R).
#
#   Rscript scripts/reference/make_r_reference.R
#
# e1071_<set>.csv: naiveBayes(class ~ ., laplace = 1) on Weka's example data (read.arff keeps only the
#   values that occur, and e1071 replaces a zero sd by 0.001, so glass with its constant classes is left out), its
#   posteriors (predict type "raw") for every training row, one column per class (named).
# bw_nrd0.csv: bw.nrd0 of a few vectors (given as "v1 v2 ...").
suppressMessages({library(foreign); library(e1071)})
args <- commandArgs(trailingOnly = FALSE)
here <- dirname(normalizePath(sub("--file=", "", args[grep("--file=", args)])))
root <- normalizePath(file.path(here, "..", ".."))
out <- file.path(root, "tests", "data", "reference")
dir.create(out, showWarnings = FALSE, recursive = TRUE)

for (name in c("credit-g", "diabetes", "iris", "labor")) {
  d <- read.arff(file.path(root, "tests", "data", "weka", paste0(name, ".arff")))
  cls <- names(d)[ncol(d)]
  f <- as.formula(paste0("`", cls, "` ~ ."))
  m <- naiveBayes(f, data = d, laplace = 1)
  p <- predict(m, d[, -ncol(d)], type = "raw")
  write.csv(format(as.data.frame(p), digits = 17), file.path(out, paste0("e1071_", name, ".csv")),
            row.names = FALSE, quote = FALSE)
}

set.seed(1)
vectors <- list(c(0, 1, 2, 3, 4, 5, 6, 50), c(2.5, 2.5, 2.5, 2.5), c(0, 0, 0), c(-3, -3),
                c(1, 1, 1, 1, 1, 9), round(rnorm(8), 3), round(rexp(13), 3), round(runif(30) * 100, 2),
                c(1, 2, 2, 2, 2, 2, 2, 3))
rows <- sapply(vectors, function(v) sprintf("%s,%.17g", paste(format(v, digits = 17), collapse = " "), bw.nrd0(v)))
writeLines(c("x,bw", gsub(" +", " ", trimws(rows))), file.path(out, "bw_nrd0.csv"))
