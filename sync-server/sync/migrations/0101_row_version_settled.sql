-- Versions and pulls: a pull moves its cursor past a Version only once every row at or below it
-- is visible. Versions come from one sequence but transactions commit in any order, so without
-- this a pull could see Version 101 committed while 100 was still in flight, move its cursor to
-- 101 and never see 100 (PostgreSQL with several connections; PGlite interleaves a pull's
-- per-table reads with whole write transactions, with the same effect).
--
-- Every writer takes its Versions through next_row_version(), which first takes the SHARED
-- advisory lock 727275 for the rest of its transaction. A pull takes the same lock EXCLUSIVELY
-- for one statement (sync/pull.ts settledVersion): that waits until every writer holding
-- Versions has committed or rolled back, and reads the sequence's last value; every Version at or
-- below it is then final. Writers queue behind the pull only for that one read.
CREATE FUNCTION next_row_version() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(727275);
  RETURN nextval('row_version');
END
$$;
