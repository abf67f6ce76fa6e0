-- A live stream's stored bytes (issue 34/35 review; sync-server/audio/live-ingest.ts): counted with
-- its segments when each is stored, so a listener joining on another instance knows where the
-- newest segment starts in the whole stream without sizing every earlier segment in the blob store.
--   bytes  the bytes of segments 0 … segments-1; written with segments, as a whole figure
-- No default: a row of a stream received by an instance running the code from before this
-- migration (during a rolling upgrade) stays NULL, and its segments are sized as they were.
ALTER TABLE live_streams ADD COLUMN bytes bigint;
