# Loads the long CSV tables of `sensorpipe run --format csv` (one file per table for the whole
# batch, a first column `recording` with the recording's path) with base R, one call each.
#
#   sensorpipe run Datasets --format csv --out results      # add --gzip for beats.csv.gz, ...
#   Rscript scripts/examples/load_csv_tables.R results
args <- commandArgs(trailingOnly = TRUE)
folder <- if (length(args) > 0) args[1] else "results"

table <- function(name) {
  path <- file.path(folder, paste0(name, ".csv"))
  if (!file.exists(path)) path <- paste0(path, ".gz") # read.csv reads gzip files as they are
  read.csv(path)
}

beats <- table("beats")
heart_rate <- table("heart_rate")
recordings <- read.csv(file.path(folder, "recordings.csv"))

print(recordings[, c("path", "status", "beats")])
print(aggregate(bpm ~ recording, data = heart_rate, FUN = mean))
