// A program's settings root, monetization (and its defaults), video monetization and headliner
// videos, and the organization's defaults of them (src/protocol/api/program-settings.ts; rules:
// src/domain/monetization.ts).
//
// Each level's own values are kept on its row, so devices sync them and change them offline
// through program.setSettings and organization.setProgramDefaults; these calls are the REST face
// of the same (runRest), so a call and a device's queued change are judged alike. The calls take
// a JSON Merge Patch (PUT monetization: the whole of it), which is merged here with the row's own
// values and run as the mutation on the row's ModifiedAtUtc: the client's If-Match when it sent
// one (stale: 412 with the settings), else the version just read, read again and retried when
// another change slipped in between (so a patch never overwrites a field it did not name).
//
//   GET   read the program's row and the organization's ──resolveSetting──> own, inherited, in effect
//   write merge patch ──> program.setSettings (checks, 400 at the field) ──> the view after it
import type { Context } from 'hono';
import * as routes from '../../src/protocol/api/program-settings.ts';
import { effectiveNormalization, type NormalizationChoice } from '../../src/domain/settings.ts';
import { mergeOwn, ownOf, resolveSetting, ROW_FIELD, type ProgramSettingKind, type SettingsLevel } from '../../src/domain/monetization.ts';
import type { FieldError } from '../../src/protocol/errors.ts';
import { organizationSetProgramDefaults, programSetSettings } from '../../src/mutations/program-settings.ts';
import { getAuth } from '../auth.ts';
import { AppError, notFound } from '../errors.ts';
import { etagOf, ifMatch } from '../http.ts';
import { runRest } from '../mutations/rest.ts';
import { loadRow, type WireRow } from '../rows.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';
import { settingsGuard } from './settings.ts';

const KINDS = ['Monetization', 'VideoMonetization', 'HeadlinerVideos'] as const satisfies readonly ProgramSettingKind[];
/** A merge patch of some settings (a field undefined or left out: kept). */
type Patch = { [K in ProgramSettingKind]?: Readonly<Record<string, unknown>> | null | undefined };

async function organizationRow(c: Context): Promise<WireRow> {
  const { organizationId } = getAuth(c);
  const row = await loadRow(c.get('deps').store, 'organization', organizationId, organizationId);
  if (!row || row.Deleted) throw notFound();
  return row;
}

async function programRow(c: Context): Promise<WireRow> {
  const row = await loadRow(c.get('deps').store, 'program', getAuth(c).organizationId, c.var.program.id);
  if (!row || row.Deleted) throw notFound();
  return row;
}

const ownAt = <K extends ProgramSettingKind>(level: SettingsLevel, kind: K, row: WireRow | null) => ownOf(kind, row?.[ROW_FIELD[level][kind]]);

function view<K extends ProgramSettingKind>(kind: K, organization: WireRow, program: WireRow) {
  const own = ownAt('Program', kind, program);
  const r = resolveSetting(kind, ownAt('Organization', kind, organization), own);
  return { Own: own, Effective: r.values, Sources: r.sources, Inherited: r.inherited, InheritedSources: r.inheritedSources };
}

function programSettings(organization: WireRow, program: WireRow): routes.ProgramSettings {
  const organizationChoice = (organization['Normalization'] as NormalizationChoice | null | undefined) ?? null;
  return {
    ProgramId: program.Id,
    ModifiedAtUtc: program.ModifiedAtUtc,
    Monetization: view('Monetization', organization, program),
    VideoMonetization: view('VideoMonetization', organization, program),
    HeadlinerVideos: view('HeadlinerVideos', organization, program),
    Normalization: {
      ...effectiveNormalization(organizationChoice, (program['Normalization'] as NormalizationChoice | null | undefined) ?? null),
      OrganizationPresetId: organizationChoice?.PresetId ?? null,
    },
    Recording: { DeleteRecordingsAfterDays: (program['DeleteRecordingsAfterDays'] as number | null | undefined) ?? null },
  } as routes.ProgramSettings;
}

const oneSetting = <K extends ProgramSettingKind>(kind: K, organization: WireRow, program: WireRow) => ({ ProgramId: program.Id, ModifiedAtUtc: program.ModifiedAtUtc, ...view(kind, organization, program) });

function programDefaults(organization: WireRow): routes.OrganizationProgramDefaults {
  const part = <K extends ProgramSettingKind>(kind: K) => {
    const own = ownAt('Organization', kind, organization);
    return { Own: own, Effective: resolveSetting(kind, own, null).values };
  };
  return {
    OrganizationId: organization.Id,
    ModifiedAtUtc: organization.ModifiedAtUtc,
    Monetization: part('Monetization'),
    VideoMonetization: part('VideoMonetization'),
    HeadlinerVideos: part('HeadlinerVideos'),
  } as routes.OrganizationProgramDefaults;
}

/** The mutation's args for a merge patch over the row's own values (null: drop them all). */
function mergedArgs(level: SettingsLevel, row: WireRow, patch: Patch): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const kind of KINDS) {
    const p = patch[kind];
    if (p === undefined) continue;
    args[kind] = p === null ? null : mergeOwn(kind, ownAt(level, kind, row), p);
  }
  return args;
}

/** A write not named by If-Match may meet a change made between its read and its run: read again. */
const RETRIES = 3;

/**
 * Runs the level's mutation for a merge patch on the row (read by `read`), on the client's
 * If-Match or the version read; a 412 is answered as `as412` makes of the row as it now is.
 */
async function write(c: Context, level: SettingsLevel, patch: Patch, read: () => Promise<WireRow>, as412: (row: WireRow) => Promise<unknown>): Promise<WireRow> {
  const expected = ifMatch(c);
  for (let attempt = 0; ; attempt++) {
    const row = await read();
    const args = mergedArgs(level, row, patch);
    try {
      return level === 'Program'
        ? await runRest(c, programSetSettings, { programId: row.Id, ...args }, expected ?? row.ModifiedAtUtc)
        : await runRest(c, organizationSetProgramDefaults, { organizationId: row.Id, ...args }, expected ?? row.ModifiedAtUtc);
    } catch (err) {
      if (!(err instanceof AppError && err.status === 412)) throw err;
      if (expected === null && attempt < RETRIES) continue;
      const now = await read();
      throw new AppError(412, await as412(now), { ETag: etagOf(now) });
    }
  }
}

/** A 400 of one setting's own call names its fields as its body does: 'CpmFloor.Amount', not 'Monetization.CpmFloor.Amount'. */
function withinSetting(kind: ProgramSettingKind, err: unknown): unknown {
  if (!(err instanceof AppError && err.status === 400)) return err;
  const body = err.body as { Errors?: FieldError[] } | undefined;
  if (!body?.Errors) return err;
  const prefix = `${kind}.`;
  return new AppError(400, { ...body, Errors: body.Errors.map((e) => (e.Field.startsWith(prefix) ? { ...e, Field: e.Field.slice(prefix.length) } : e)) }, err.headers);
}

export function programSettingsRoutes() {
  const read = guard.program('programId');
  const programWrite = settingsGuard('Program', 'write');
  const organizationRead = settingsGuard('Organization', 'read');
  const organizationWrite = settingsGuard('Organization', 'write');

  /** Writes one setting of the program and answers with its view. */
  const writeOne = async <K extends ProgramSettingKind>(c: Context, kind: K, patch: Patch) => {
    const organization = await organizationRow(c);
    try {
      const row = await write(c, 'Program', patch, () => programRow(c), async (now) => oneSetting(kind, await organizationRow(c), now));
      c.header('ETag', etagOf(row));
      return oneSetting(kind, organization, row);
    } catch (err) {
      throw withinSetting(kind, err);
    }
  };

  return resourceApp()
    .openapi(guarded(routes.getProgramSettings, read), async (c) => {
      const program = await programRow(c);
      c.header('ETag', etagOf(program));
      return c.json(programSettings(await organizationRow(c), program), 200);
    })
    .openapi(guarded(routes.updateProgramSettings, programWrite), async (c) => {
      const row = await write(c, 'Program', c.req.valid('json') as Patch, () => programRow(c), async (now) => programSettings(await organizationRow(c), now));
      c.header('ETag', etagOf(row));
      return c.json(programSettings(await organizationRow(c), row), 200);
    })
    .openapi(guarded(routes.getMonetization, read), async (c) => {
      const program = await programRow(c);
      c.header('ETag', etagOf(program));
      return c.json(oneSetting('Monetization', await organizationRow(c), program) as routes.ProgramMonetization, 200);
    })
    .openapi(guarded(routes.putMonetization, programWrite), async (c) => {
      // A PUT sets the whole: what the body leaves out is inherited.
      const body = c.req.valid('json');
      const whole = { ...ownOf('Monetization', null), ...body };
      return c.json((await writeOne(c, 'Monetization', { Monetization: whole })) as routes.ProgramMonetization, 200);
    })
    .openapi(guarded(routes.getMonetizationDefaults, read), async (c) => {
      const organization = await organizationRow(c);
      const r = resolveSetting('Monetization', ownAt('Organization', 'Monetization', organization), null);
      return c.json({ OrganizationId: organization.Id, Values: r.values, Sources: r.sources, ModifiedAtUtc: organization.ModifiedAtUtc } as routes.MonetizationDefaults, 200);
    })
    .openapi(guarded(routes.getVideoMonetization, read), async (c) => {
      const program = await programRow(c);
      c.header('ETag', etagOf(program));
      return c.json(oneSetting('VideoMonetization', await organizationRow(c), program) as routes.ProgramVideoMonetization, 200);
    })
    .openapi(guarded(routes.updateVideoMonetization, programWrite), async (c) => {
      return c.json((await writeOne(c, 'VideoMonetization', { VideoMonetization: c.req.valid('json') })) as routes.ProgramVideoMonetization, 200);
    })
    .openapi(guarded(routes.getHeadlinerVideos, read), async (c) => {
      const program = await programRow(c);
      c.header('ETag', etagOf(program));
      return c.json(oneSetting('HeadlinerVideos', await organizationRow(c), program) as routes.ProgramHeadlinerVideos, 200);
    })
    .openapi(guarded(routes.getProgramDefaults, organizationRead), async (c) => {
      const organization = await organizationRow(c);
      c.header('ETag', etagOf(organization));
      return c.json(programDefaults(organization), 200);
    })
    .openapi(guarded(routes.updateProgramDefaults, organizationWrite), async (c) => {
      const row = await write(c, 'Organization', c.req.valid('json') as Patch, () => organizationRow(c), async (now) => programDefaults(now));
      c.header('ETag', etagOf(row));
      return c.json(programDefaults(row), 200);
    });
}
