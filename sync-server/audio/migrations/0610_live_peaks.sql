-- A live recording's waveform as it is decoded (issue 34, "recordings as they happen"; issue 35,
-- several instances): the instance that receives an agent's stream appends each run of whole pixels
-- here (sync-server/audio/live-ingest.ts) and signals it on the bus (LISTEN/NOTIFY with PostgreSQL),
-- so a watcher on any instance reads what is there, then each append by seq, once and in order.
-- Append-only while the recording is Live; removed when it is Finalized (its waveforms exist then).
--   seq          0, 1, 2, … per recording, in the order written (one writer: the ingesting request)
--   first_pixel  the first pixel's index in the whole stream (each row starts where the last ended)
--   data         min, max per pixel, 16-bit little-endian, base64 (as the 'peaks' event carries it)
CREATE TABLE live_peaks (
  recording_id uuid NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  first_pixel integer NOT NULL,
  sample_rate integer NOT NULL,
  data text NOT NULL,
  PRIMARY KEY (recording_id, seq)
);
