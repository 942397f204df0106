# Queries a `sensorpipe run` database (docs/RESULTS.md) with DBI and RSQLite.
#
#   Rscript scripts/examples/query_results.R results.sqlite
#
# A database can hold several analyses of one path (the file changed, or a run used other
# options); these queries take each path's latest `ok` row (highest `recordings.id`).
library(DBI)

args <- commandArgs(trailingOnly = TRUE)
path <- if (length(args) >= 1) args[1] else "results.sqlite"
if (!file.exists(path)) stop(path, ": no such file")
con <- dbConnect(RSQLite::SQLite(), path, flags = RSQLite::SQLITE_RO)
options(width = 200)

latest <- "
  latest AS (SELECT * FROM recordings r WHERE status = 'ok'
             AND id = (SELECT MAX(id) FROM recordings WHERE path = r.path AND status = 'ok'))"

# 1. Mean heart rate per recording and stream: the mean of the windowed `bpm` values
#    (windows with fewer than 2 NN intervals have bpm NULL and are left out by AVG/COUNT).
heart_rate <- dbGetQuery(con, paste0("WITH", latest, "
  SELECT l.path, h.stream, COUNT(h.bpm) AS windows, AVG(h.bpm) AS mean_bpm,
         MIN(h.bpm) AS min_bpm, MAX(h.bpm) AS max_bpm, SUM(h.beats) AS nn_intervals
  FROM heart_rate h JOIN latest l ON l.id = h.recording_id
  GROUP BY l.id, h.stream
  ORDER BY l.path, h.stream"))
cat("Mean heart rate per recording:\n")
print(heart_rate, row.names = FALSE)

# 2. HRV per 5-minute window (scope = 'window'; the whole-stream row has scope = 'recording').
hrv <- dbGetQuery(con, paste0("WITH", latest, "
  SELECT l.path, v.stream, v.window_start, v.window_end,
         v.MeanNN, v.SDNN, v.RMSSD, v.pNN50, v.LF, v.HF, v.LFHF
  FROM hrv v JOIN latest l ON l.id = v.recording_id
  WHERE v.scope = 'window'
  ORDER BY l.path, v.stream, v.window_start"))
cat(sprintf("\nHRV per 5-min window (%d windows):\n", nrow(hrv)))
if (nrow(hrv) > 0) {
  numeric <- vapply(hrv, is.numeric, logical(1))
  hrv[numeric] <- lapply(hrv[numeric], round, 2)
  print(hrv, row.names = FALSE)
} else {
  cat("  none (no stream holds a complete 5-min window of beats)\n")
}

# 3. Recordings whose last attempt failed, with the error (none if a later attempt succeeded).
failed <- dbGetQuery(con, "
  SELECT r.path, r.error, datetime(r.finished_at, 'unixepoch') AS failed_at_utc
  FROM recordings r
  WHERE r.status = 'failed'
    AND NOT EXISTS (SELECT 1 FROM recordings o WHERE o.path = r.path AND o.id > r.id)
  ORDER BY r.path")
cat(sprintf("\nFailed recordings (%d):\n", nrow(failed)))
if (nrow(failed) > 0) print(failed, row.names = FALSE) else cat("  none\n")

# 4. QC accounting: every sample read is emitted, dropped as a duplicate or rejected,
#    per stream and summed per recording.
streams <- dbGetQuery(con, paste0("WITH", latest, "
  SELECT l.path, s.stream, s.samples_read, s.samples_emitted, s.duplicates_dropped, s.rejected
  FROM streams s JOIN latest l ON l.id = s.recording_id"))
recordings <- dbGetQuery(con, paste0("WITH", latest, "
  SELECT path, samples_read, samples_emitted, duplicates_dropped, rejected FROM latest"))
for (name in c("streams", "recordings")) {
  table <- get(name)
  table$unaccounted <- table$samples_read -
    (table$samples_emitted + table$duplicates_dropped + table$rejected)
  bad <- table[table$unaccounted != 0, ]
  cat(sprintf("\nQC accounting, %s: %d of %d balanced (samples_read = samples_emitted + duplicates_dropped + rejected)\n",
              name, nrow(table) - nrow(bad), nrow(table)))
  if (nrow(bad) > 0) print(bad, row.names = FALSE)
}
dbDisconnect(con)
