-- Reports (section 7 "Reports and analytics", section 4 "Report generation"): one row per report
-- started (POST …/reports/{kind}), made by the durable job reports.make
-- (sync-server/reports/report-job.ts), polled at GET /v1/reports/{kind}/{id} and listed at
-- GET /internal/reports. Only the user who started a report reads it.
--
-- scope: the downloads it covers, resolved when it was started ({kind: 'organization'} |
-- {kind: 'programs', programIds}). filters: the parsed filters (src/domain/reports.ts ReportFilters).
-- access: what the starter could see then ({clipProgramIds}: programs whose clips they may read),
-- so the job lists no clip the starter could not read.
CREATE TABLE report_operations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  user_id uuid NOT NULL,
  kind text NOT NULL,
  level text NOT NULL,
  level_id uuid,
  level_name text,
  scope jsonb NOT NULL,
  filters jsonb NOT NULL,
  access jsonb NOT NULL,
  -- Busy | Failed | Success (section 3, operation progress).
  status text NOT NULL,
  progress integer NOT NULL DEFAULT 0,
  failure_reason text,
  result jsonb,
  created_at_utc timestamptz NOT NULL,
  finished_at_utc timestamptz
);
CREATE INDEX report_operations_user ON report_operations (organization_id, user_id, created_at_utc DESC, id);
