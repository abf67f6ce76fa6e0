-- The listener's country, looked up by the recorder (sync-server/publishing/downloads.ts) from the
-- address it is about to hash, in the geo database of sync-server/analytics/geo.ts: ISO 3166-1
-- alpha-2, or 'ZZ' (private, special or unknown addresses). The address itself is still never
-- stored. Null in rows recorded before this column: the counting job reads them as 'ZZ', as it
-- did.
ALTER TABLE download_events ADD COLUMN country text;
