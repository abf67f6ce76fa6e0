-- A failed analysis says why in the API's own words (sync-server/brand-safety/job.ts
-- BRAND_SAFETY_GAVE_UP), no longer with the error that stopped its last attempt: that text (a
-- database's message, with its hosts and tables) was answered to anyone who could read the clip.
-- Its cause stays on the failed job (jobs.last_error) and in the server's log.
UPDATE clip_brand_safety SET problem = 'The analysis did not complete after 3 attempts.' WHERE status = 'Failed';
