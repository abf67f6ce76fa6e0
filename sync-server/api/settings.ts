// Settings at every level (src/protocol/api/settings.ts; rules: src/domain/settings.ts).
//
// Named settings (/internal/…/settings/{name}) are rows of named_settings, written online: the
// guard finds the organization, network, program, playlist or clip (absent, another
// organization's, or one the caller does not see: 404 with no body, as everywhere) and then asks
// settingsAccess with the caller's flags there (403 without). Normalization is kept on the
// organization's and the program's rows and written through their named mutations (runRest), so a
// REST call and a device's queued edit are judged alike; so is a program's recording retention
// (program.setRecordingSettings). The deletion estimates count, in SQL, the live clips or
// recordings of the programs the caller sees with content access that the retention's cutoff
// (retentionCutoff) would take. The organization's settings root (/v1/settings) is read from its
// row; its measurement URL prefixes are written through organization.setMeasurementPrefixes, and
// validate-url-prefix answers by the same rule (src/domain/measurement.ts) without fetching the
// prefix: a syntactic check and the example enclosure it would make.
import type { Context, MiddlewareHandler } from 'hono';
import * as routes from '../../src/protocol/api/settings.ts';
import { networkFlags } from '../../src/domain/access.ts';
import { mayRead } from '../../src/domain/access.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { exampleEnclosureUrl, measuredUrl, measurementPrefixesOf, validateMeasurementPrefix } from '../../src/domain/measurement.ts';
import { effectiveNormalization, parseEstimateDays, retentionCutoff, settingsAccess, validateSettingName, validateSettingValue, type NormalizationChoice, type SettingLevel } from '../../src/domain/settings.ts';
import type { PermissionFlags } from '../../src/domain/permissions.ts';
import { organizationSetMeasurementPrefixes, organizationSetNormalization, programSetNormalization, programSetRecordingSettings } from '../../src/mutations/settings.ts';
import { getAuth, requireSession } from '../auth.ts';
import { AppError, badRequest, fieldError, forbidden, notFound } from '../errors.ts';
import { checkPrecondition, etagOf, ifMatch } from '../http.ts';
import { now } from '../app.ts';
import { publicOrigin } from '../public-origin.ts';
import { runRest } from '../mutations/rest.ts';
import { flagsForProgram, orgFlags, type ProgramRef } from '../mutations/store.ts';
import { loadRow, nextModified, type WireRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { guard, type Access } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

type Need = 'read' | 'write';

/** The flags that decide a level's settings, from what the level's guard resolved. */
const FLAGS_AT: Record<SettingLevel, (c: Context) => PermissionFlags> = {
  Organization: (c) => orgFlags(getAuth(c)),
  Network: (c) => networkFlags(getAuth(c).permissions, c.var.row.Id),
  Program: (c) => flagsForProgram(getAuth(c), c.var.program),
  Playlist: (c) => flagsForProgram(getAuth(c), c.var.program),
  Clip: (c) => flagsForProgram(getAuth(c), c.var.program),
};

/** The object a level's settings belong to (the organization's own id at organization level). */
export const OBJECT_AT: Record<SettingLevel, (c: Context) => string> = {
  Organization: (c) => getAuth(c).organizationId,
  Network: (c) => c.var.row.Id,
  Program: (c) => c.var.program.id,
  Playlist: (c) => c.var.row.Id,
  Clip: (c) => c.var.row.Id,
};

/** What finds the level's object, seen by the caller (else 404). */
const FIND_AT: Record<SettingLevel, () => Access> = {
  Organization: () => ({ middleware: [requireSession], describe: 'A member of the organization' }),
  Network: () => guard.network('networkId'),
  Program: () => guard.program('programId'),
  Playlist: () => guard.row('playlists', 'playlistId'),
  Clip: () => guard.row('clips', 'clipId'),
};

/** The level's object found (else 404), then its settings' access (else 403). */
export function settingsGuard(level: SettingLevel, need: Need): Access {
  const find = FIND_AT[level]();
  const check: MiddlewareHandler = async (c, next) => {
    if (!settingsAccess(level, FLAGS_AT[level](c))[need]) throw forbidden();
    await next();
  };
  return { middleware: [...find.middleware, check], describe: `${find.describe}, with the ${level.toLowerCase()}’s settings access to ${need} (src/domain/settings.ts)` };
}

type SettingRow = { name: string; value: unknown; modified_at_utc: Date | string };

const toSetting = (r: SettingRow): routes.NamedSetting => ({ Name: r.name, Value: r.value, ModifiedAtUtc: new Date(r.modified_at_utc).toISOString() });

/** The name in the path, by the domain's rule (400 at name). */
function nameOf(c: Context): string {
  const name = c.req.param('name') ?? '';
  const error = validateSettingName(name);
  if (error) throw badRequest([fieldError('name', error)]);
  return name;
}

type Key = { organizationId: string; level: SettingLevel; objectId: string; name: string };
const keyOf = (c: Context, level: SettingLevel): Key => ({ organizationId: getAuth(c).organizationId, level, objectId: OBJECT_AT[level](c), name: nameOf(c) });
const KEY_WHERE = `organization_id = $1 AND level = $2 AND object_id = $3 AND name = $4`;
const keyParams = (k: Key) => [k.organizationId, k.level, k.objectId, k.name];

async function readSetting(q: Queryable, k: Key, forUpdate = false): Promise<SettingRow | null> {
  const [row] = await q.query<SettingRow>(`SELECT name, value, modified_at_utc FROM named_settings WHERE ${KEY_WHERE}${forUpdate ? ' FOR UPDATE' : ''}`, keyParams(k));
  return row ?? null;
}

/** Sets the value (made when new), on the base If-Match names: a stale one is a 412 with the setting. */
async function putSetting(c: Context, k: Key, value: unknown, expected: string | null): Promise<routes.NamedSetting> {
  const { store } = c.get('deps');
  const at = now(c.get('deps'));
  const userId = getAuth(c).user.Id;
  return store.tx(async (q) => {
    const current = await readSetting(q, k, true);
    if (current && expected !== null) {
      const setting = toSetting(current);
      if (Date.parse(expected) !== Date.parse(setting.ModifiedAtUtc)) throw new AppError(412, setting, { ETag: etagOf(setting) });
    }
    if (!current && expected !== null) throw new AppError(412);
    // A second writer that made the row meanwhile is answered as an update of it.
    const [row] = await q.query<SettingRow>(
      `INSERT INTO named_settings (organization_id, level, object_id, name, value, created_at_utc, modified_at_utc, modified_by_id)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $6, $7)
       ON CONFLICT (organization_id, level, object_id, name) DO UPDATE
         SET value = excluded.value, modified_by_id = excluded.modified_by_id,
             modified_at_utc = greatest(excluded.modified_at_utc, named_settings.modified_at_utc + interval '1 millisecond')
       RETURNING name, value, modified_at_utc`,
      [...keyParams(k), JSON.stringify(value), nextModified(at, current?.modified_at_utc ?? null), userId],
    );
    return toSetting(row!);
  });
}

/** The three calls of one level, on its guard. */
function levelRoutes(level: SettingLevel, declared: { get: typeof routes.organizationSetting.get; put: typeof routes.organizationSetting.put; delete: typeof routes.organizationSetting.delete }) {
  return resourceApp()
    .openapi(guarded(declared.get, settingsGuard(level, 'read')), async (c) => {
      const row = await readSetting(c.get('deps').store, keyOf(c, level));
      if (!row) throw notFound();
      const setting = toSetting(row);
      c.header('ETag', etagOf(setting));
      return c.json(setting, 200);
    })
    .openapi(guarded(declared.put, settingsGuard(level, 'write')), async (c) => {
      const k = keyOf(c, level);
      const { Value } = c.req.valid('json');
      const error = validateSettingValue(Value);
      if (error) throw badRequest([fieldError('Value', error)]);
      const setting = await putSetting(c, k, Value, ifMatch(c));
      c.header('ETag', etagOf(setting));
      return c.json(setting, 200);
    })
    .openapi(guarded(declared.delete, settingsGuard(level, 'write')), async (c) => {
      const k = keyOf(c, level);
      const [row] = await c.get('deps').store.query<SettingRow>(`DELETE FROM named_settings WHERE ${KEY_WHERE} RETURNING name, value, modified_at_utc`, keyParams(k));
      if (!row) throw notFound();
      return c.json(toSetting(row), 200);
    });
}

// ── Normalization ─────────────────────────────────────────────────────────────────────────────

const choiceOf = (row: WireRow | null): NormalizationChoice | null => (row?.['Normalization'] as NormalizationChoice | null | undefined) ?? null;

async function organizationRow(c: Context): Promise<WireRow> {
  const { organizationId } = getAuth(c);
  const row = await loadRow(c.get('deps').store, 'organization', organizationId, organizationId);
  if (!row || row.Deleted) throw notFound();
  return row;
}

function programNormalization(organization: WireRow, program: WireRow): routes.ProgramNormalization {
  const organizationChoice = choiceOf(organization);
  return { ...effectiveNormalization(organizationChoice, choiceOf(program)), OrganizationPresetId: organizationChoice?.PresetId ?? null };
}

// ── The organization's settings root ─────────────────────────────────────────────────────────

const settingsOf = (row: WireRow): routes.OrganizationSettings => ({
  OrganizationId: row.Id,
  Name: typeof row['Name'] === 'string' ? row['Name'] : '',
  MeasurementPrefixes: measurementPrefixesOf(row),
  Normalization: { PresetId: choiceOf(row)?.PresetId ?? null },
  ModifiedAtUtc: row.ModifiedAtUtc,
});

/** The mutation's 412 (the organization's row) answered as the settings it now holds. */
function asSettingsPrecondition(err: unknown): unknown {
  return err instanceof AppError && err.status === 412 && err.body ? new AppError(412, settingsOf(err.body as WireRow), err.headers) : err;
}

function organizationSettingsRoutes() {
  return resourceApp()
    .openapi(guarded(routes.getOrganizationSettings, settingsGuard('Organization', 'read')), async (c) => {
      const row = await organizationRow(c);
      c.header('ETag', etagOf(row));
      return c.json(settingsOf(row), 200);
    })
    .openapi(guarded(routes.updateOrganizationSettings, settingsGuard('Organization', 'write')), async (c) => {
      const { MeasurementPrefixes } = c.req.valid('json');
      let row: WireRow;
      try {
        if (MeasurementPrefixes === undefined) {
          // Nothing to change: the settings as they are, on the same precondition.
          row = await organizationRow(c);
          checkPrecondition(ifMatch(c), row);
        } else {
          row = await runRest(c, organizationSetMeasurementPrefixes, { organizationId: getAuth(c).organizationId, MeasurementPrefixes }, ifMatch(c));
        }
      } catch (err) {
        throw asSettingsPrecondition(err);
      }
      c.header('ETag', etagOf(row));
      return c.json(settingsOf(row), 200);
    })
    .openapi(guarded(routes.validateUrlPrefix, settingsGuard('Organization', 'read')), (c) => {
      const { prefixUrl } = c.req.valid('query');
      const error = validateMeasurementPrefix(prefixUrl);
      const example = exampleEnclosureUrl(publicOrigin(c));
      return c.json(
        { PrefixUrl: prefixUrl, Valid: error === null, Error: error ? fieldError('prefixUrl', error) : null, ExampleEnclosureUrl: example, ExampleUrl: error ? null : measuredUrl(example, [prefixUrl]) },
        200,
      );
    });
}

// ── Recording settings and deletion estimates ────────────────────────────────────────────────

const recordingSettingsOf = (program: WireRow): routes.RecordingSettings => ({ DeleteRecordingsAfterDays: (program['DeleteRecordingsAfterDays'] as number | null | undefined) ?? null });

/** The required `days` of an estimate (400 at days when missing or bad). */
function daysOf(c: Context): number {
  const parsed = parseEstimateDays(c.req.query('days'));
  if ('error' in parsed) throw badRequest([fieldError('days', parsed.error)]);
  return parsed.days;
}

/** The live rows of these programs created before the cutoff: how many, their duration, the oldest. */
async function deletionEstimate(q: Queryable, kind: 'clip' | 'recording', organizationId: string, programIds: readonly string[], days: number, at: Date): Promise<routes.DeletionEstimate> {
  const cutoff = retentionCutoff(at, days);
  const table = kind === 'clip' ? 'clips' : 'recordings';
  const [row] = await q.query<{ n: number; seconds: number; oldest: Date | string | null }>(
    `SELECT count(*)::int AS n, coalesce(sum((data->>'DurationSeconds')::float8), 0)::float8 AS seconds, min(created_at_utc) AS oldest
       FROM ${table} WHERE organization_id = $1 AND program_id = ANY($2::uuid[]) AND NOT deleted AND created_at_utc < $3`,
    [organizationId, programIds, cutoff],
  );
  return {
    Days: days,
    CutoffUtc: cutoff.toISOString(),
    Count: row?.n ?? 0,
    TotalDurationSeconds: row?.seconds ?? 0,
    OldestCreatedAtUtc: row?.oldest ? new Date(row.oldest).toISOString() : null,
  };
}

/** The organization's live programs whose clips and recordings the caller sees (content access). */
async function programsWithContent(c: Context): Promise<string[]> {
  const auth = getAuth(c);
  const programs = await c.get('deps').store.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE organization_id = $1 AND NOT deleted`, [auth.organizationId]);
  return programs.filter((p) => mayRead(ENTITY_KINDS.recordings.read, flagsForProgram(auth, p))).map((p) => p.id);
}

function recordingRoutes() {
  const estimate = (kind: 'clip' | 'recording') => async (c: Context, programIds: readonly string[]) =>
    c.json(await deletionEstimate(c.get('deps').store, kind, getAuth(c).organizationId, programIds, daysOf(c), now(c.get('deps'))), 200);
  const programContent = guard.program('programId', 'HasContentAccess');
  return resourceApp()
    .openapi(guarded(routes.getRecordingSettings, guard.program('programId')), async (c) => {
      const program = await loadRow(c.get('deps').store, 'program', getAuth(c).organizationId, c.var.program.id);
      if (!program) throw notFound();
      c.header('ETag', etagOf(program));
      return c.json(recordingSettingsOf(program), 200);
    })
    .openapi(guarded(routes.updateRecordingSettings, guard.program('programId', 'HasContentAccess', 'HasManageSettingsAccess')), async (c) => {
      const program = await runRest(c, programSetRecordingSettings, { programId: c.var.program.id, ...c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(program));
      return c.json(recordingSettingsOf(program), 200);
    })
    .openapi(guarded(routes.programClipDeletionEstimate, programContent), (c) => estimate('clip')(c, [c.var.program.id]))
    .openapi(guarded(routes.programRecordingDeletionEstimate, programContent), (c) => estimate('recording')(c, [c.var.program.id]))
    .openapi(guarded(routes.clipDeletionEstimate, settingsGuard('Organization', 'read')), async (c) => estimate('clip')(c, await programsWithContent(c)))
    .openapi(guarded(routes.recordingDeletionEstimate, settingsGuard('Organization', 'read')), async (c) => estimate('recording')(c, await programsWithContent(c)));
}

export function settingsRoutes() {
  const programWrite = guard.program('programId', 'HasContentAccess', 'HasManageSettingsAccess');
  const normalization = resourceApp()
    .openapi(guarded(routes.getNormalization, settingsGuard('Organization', 'read')), async (c) => {
      const row = await organizationRow(c);
      c.header('ETag', etagOf(row));
      return c.json({ PresetId: choiceOf(row)?.PresetId ?? null }, 200);
    })
    .openapi(guarded(routes.updateNormalization, settingsGuard('Organization', 'write')), async (c) => {
      const row = await runRest(c, organizationSetNormalization, { organizationId: getAuth(c).organizationId, Normalization: c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.json({ PresetId: choiceOf(row)?.PresetId ?? null }, 200);
    })
    .openapi(guarded(routes.getProgramNormalization, guard.program('programId')), async (c) => {
      const program = await loadRow(c.get('deps').store, 'program', getAuth(c).organizationId, c.var.program.id);
      if (!program) throw notFound();
      c.header('ETag', etagOf(program));
      return c.json(programNormalization(await organizationRow(c), program), 200);
    })
    .openapi(guarded(routes.updateProgramNormalization, programWrite), async (c) => {
      const program = await runRest(c, programSetNormalization, { programId: c.var.program.id, Normalization: c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(program));
      return c.json(programNormalization(await organizationRow(c), program), 200);
    })
    .openapi(guarded(routes.resetProgramNormalization, programWrite), async (c) => {
      const program = await runRest(c, programSetNormalization, { programId: c.var.program.id, Normalization: null }, ifMatch(c));
      c.header('ETag', etagOf(program));
      return c.body(null, 204);
    });

  return resourceApp()
    .route('/', organizationSettingsRoutes())
    .route('/', normalization)
    .route('/', recordingRoutes())
    .route('/', levelRoutes('Organization', routes.organizationSetting))
    .route('/', levelRoutes('Network', routes.networkSetting))
    .route('/', levelRoutes('Program', routes.programSetting))
    .route('/', levelRoutes('Playlist', routes.playlistSetting))
    .route('/', levelRoutes('Clip', routes.clipSetting));
}
