// The layers' dependency directions bite: small source texts, linted by ESLint with the repository's
// own eslint.config.js as if they were files at the given paths (none of them exists on disk), give
// castaway/boundaries errors that name the rule, and imports that keep the directions pass. Only that
// rule runs, without type information: the typed rules need a program the fixtures are not part of.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'castaway/boundaries',
});

/** The boundary errors of `lines` as the file `filePath`: the line each is on, and its message. */
async function boundaryErrors(filePath: string, lines: readonly string[]): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(lines.join('\n'), { filePath });
  const messages = result?.messages ?? [];
  // A parse error or a missing rule would come back as a message without this ruleId: fail on it.
  for (const m of messages) expect(m.ruleId, m.message).toBe('castaway/boundaries');
  return messages.map((m) => ({ line: m.line, message: m.message }));
}

/** Every one of `lines` is an import the rule refuses, each with a message that says `rule`. */
async function expectEachRefused(filePath: string, rule: string, lines: readonly string[]): Promise<void> {
  const errors = await boundaryErrors(filePath, lines);
  expect(errors.map((e) => e.line)).toEqual(lines.map((_, i) => i + 1));
  for (const e of errors) expect(e.message).toContain(rule);
}

async function expectAllowed(filePath: string, lines: readonly string[]): Promise<void> {
  expect(await boundaryErrors(filePath, lines)).toEqual([]);
}

describe('castaway/boundaries refuses an import against the layers', () => {
  it('a feature importing another feature, by static import, type import, re-export or lazy import', async () => {
    const rule = 'features do not import other features: move shared UI to src/ui and shared non-UI helpers to src/lib or src/domain';
    await expectEachRefused('src/features/a/AScreen.tsx', rule, [
      "import { BPanel } from '../b/BPanel.tsx'; export { BPanel };",
      "import type { BRow } from '../b/rows.ts'; export type R = BRow;",
      "export { bLabel } from '../b/labels.ts';",
      "export const C = () => import('../c/CScreen.tsx');",
    ]);
    // The clip screen's imports before the move: the sync and errors features.
    await expectEachRefused('src/features/clips/ClipScreen.tsx', rule, [
      "import { attentionReason } from '../sync/sync-labels.ts'; export { attentionReason };",
      "import { NotFoundPage } from '../errors/ErrorPage.tsx'; export { NotFoundPage };",
    ]);
    const [first] = await boundaryErrors('src/features/a/AScreen.tsx', ["import { BPanel } from '../b/BPanel.tsx'; export { BPanel };"]);
    expect(first?.message).toContain('(src/features/a/AScreen.tsx imports src/features/b/BPanel.tsx)');
  });

  it('dexie anywhere but src/db: a feature, a worker, the media code', async () => {
    const rule = 'only src/db imports dexie';
    await expectEachRefused('src/features/uploads/upload-db.ts', rule, ["import { Dexie } from 'dexie'; export const d = new Dexie('x');"]);
    await expectEachRefused('workers/sync/sync.worker.ts', rule, ["import { liveQuery } from 'dexie'; export { liveQuery };"]);
    await expectEachRefused('src/media/store.ts', rule, ["import type { Table } from 'dexie'; export type T = Table;"]);
  });

  it('src/db importing workers/ or sw/, by import or as a worker URL', async () => {
    await expectEachRefused('src/db/reset.ts', 'src/db imports only src/domain, src/protocol, src/mutations and src/media', [
      "import { WAVEFORM_CACHE_NAME } from '../../workers/audio/waveform-cache.ts'; export { WAVEFORM_CACHE_NAME };",
      "import { IMAGE_CACHE_NAME } from '../../sw/cache-names.ts'; export { IMAGE_CACHE_NAME };",
      "export const w = new Worker(new URL('../../workers/sync/sync.worker.ts', import.meta.url), { type: 'module' });",
    ]);
  });

  it('the server importing the client: src/db, src/lib, the Paraglide runtime, a feature, a worker', async () => {
    await expectEachRefused('sync-server/routes/session.ts', 'sync-server/ imports only src/domain, src/protocol, src/mutations and platform-neutral src/media', [
      "import { db } from '../../src/db/db.ts'; export { db };",
      "import { getLocale } from '../../src/lib/i18n.ts'; export { getLocale };",
      "import { locales } from '../../src/paraglide/runtime.js'; export { locales };",
      "import type { ClipScreen } from '../../src/features/clips/ClipScreen.tsx'; export type S = typeof ClipScreen;",
      "import { createSyncEngine } from '../../workers/sync/engine.ts'; export { createSyncEngine };",
    ]);
  });

  it('src/domain importing something impure: React, node:*, Hono, the store (also in a type query), the Paraglide runtime', async () => {
    await expectEachRefused('src/domain/clip.ts', 'src/domain imports nothing impure', [
      "import { useState } from 'react'; export { useState };",
      "import { readFile } from 'node:fs/promises'; export { readFile };",
      "import { Hono } from 'hono'; export { Hono };",
      "import { db } from '../db/db.ts'; export { db };",
      "export type Store = typeof import('../db/db.ts');",
      "import type { Locale } from '../paraglide/runtime.js'; export type L = Locale;",
    ]);
  });

  it('src/protocol importing Hono at run time, or src/lib; src/mutations importing the store or a library but zod', async () => {
    await expectEachRefused('src/protocol/api/clips.ts', 'src/protocol imports nothing impure', [
      "import { createRoute } from '@hono/zod-openapi'; export { createRoute };",
      "import { api } from '../../lib/api.ts'; export { api };",
    ]);
    await expectEachRefused('src/mutations/clip.ts', 'src/mutations imports only src/domain, src/protocol and zod', [
      "import { db } from '../db/db.ts'; export { db };",
      "import MiniSearch from 'minisearch'; export { MiniSearch };",
    ]);
  });

  it('src/media importing Node or React; workers importing a screen, src/ui or React', async () => {
    await expectEachRefused('src/media/decode.ts', 'src/media is platform-neutral audio code', [
      "import { readFile } from 'node:fs/promises'; export { readFile };",
      "import { join } from 'path'; export { join };",
      "import { useState } from 'react'; export { useState };",
    ]);
    await expectEachRefused('workers/audio/decode.worker.ts', 'workers/ import no screens', [
      "import { ClipScreen } from '../../src/features/clips/ClipScreen.tsx'; export { ClipScreen };",
      "import { Dialog } from '../../src/ui/Dialog.tsx'; export { Dialog };",
      "import { useEffect } from 'react'; export { useEffect };",
    ]);
  });

  it('src/ui importing a feature; a feature importing src/app; browser code importing node:*; client code importing the server', async () => {
    await expectEachRefused('src/ui/Menu.tsx', 'src/ui holds shared building blocks', ["import { ProgramScreen } from '../features/programs/ProgramScreen.tsx'; export { ProgramScreen };"]);
    await expectEachRefused('src/features/programs/ProgramScreen.tsx', 'features do not import src/app', ["import { Shell } from '../../app/Shell.tsx'; export { Shell };"]);
    await expectEachRefused('src/lib/api.ts', 'browser code imports no node:* modules', ["import { randomUUID } from 'node:crypto'; export { randomUUID };"]);
    await expectEachRefused('src/lib/api.ts', 'client code does not import sync-server/', ["import { createApp } from '../../sync-server/app.ts'; export { createApp };"]);
    await expectEachRefused('src/features/clips/ClipScreen.tsx', 'client code does not import sync-server/', ["import type { AppType } from '../../../sync-server/app.ts'; export type A = AppType;"]);
  });
});

describe('castaway/boundaries lets the drawn directions through', () => {
  it('a feature importing src/ui, src/lib, src/db, domain, protocol, media, workers, Paraglide, dexie-react-hooks and its own files', async () => {
    await expectAllowed('src/features/clips/ClipScreen.tsx', [
      "import { useLiveQuery } from 'dexie-react-hooks';",
      "import { useState } from 'react';",
      "import { NotFoundPage } from '../../ui/ErrorPage.tsx';",
      "import { useIdParams } from '../../lib/params.ts';",
      "import { db } from '../../db/db.ts';",
      "import { clipLabel } from '../../domain/clip.ts';",
      "import type { Clip } from '../../protocol/entities.ts';",
      "import type { Waveform } from '../../media/peaks.ts';",
      "import { waveformFor } from '../../../workers/audio/client.ts';",
      "import { m } from '../../paraglide/messages.js';",
      "import { ClipUpload } from './ClipUpload.tsx';",
      'export const all = [useLiveQuery, useState, NotFoundPage, useIdParams, db, clipLabel, waveformFor, m, ClipUpload]; export type T = [Clip, Waveform];',
    ]);
  });

  it('the server importing domain, protocol, media, its own files and any package', async () => {
    await expectAllowed('sync-server/routes/session.ts', [
      "import { randomUUID } from 'node:crypto';",
      "import { Hono } from 'hono';",
      "import { validateEmail } from '../../src/domain/validators.ts';",
      "import { INTERFACE_LOCALES } from '../../src/domain/locales.ts';",
      "import { LoginRequestSchema } from '../../src/protocol/entities.ts';",
      "import { encodeWav } from '../../src/media/wav.ts';",
      "import { loadClip } from '../audio/clip-rows.ts';",
      'export const all = [randomUUID, Hono, validateEmail, INTERFACE_LOCALES, LoginRequestSchema, encodeWav, loadClip];',
    ]);
  });

  it('src/app composing features; src/db importing protocol; a worker importing src/db; the typed API client importing server types', async () => {
    await expectAllowed('src/app/App.tsx', ["import { ClipScreen } from '../features/clips/ClipScreen.tsx'; export { ClipScreen };"]);
    await expectAllowed('src/db/reset.ts', ["import { Dexie } from 'dexie';", "import { IMAGE_CACHE_NAME } from '../protocol/cache-names.ts';", 'export const all = [Dexie, IMAGE_CACHE_NAME];']);
    await expectAllowed('workers/sync/engine.ts', ["import { db } from '../../src/db/db.ts'; export { db };"]);
    await expectAllowed('src/lib/api.ts', ["import type { AppType } from '../../sync-server/app.ts'; export type A = AppType;"]);
  });

  it('domain and protocol importing each other, zod, the catalogue data and, for words only, Paraglide messages', async () => {
    await expectAllowed('src/domain/results.ts', [
      "import * as z from 'zod';",
      "import type { FieldError } from '../protocol/errors.ts';",
      "import type en from '../../locales/domain/en-US.json';",
      'export const s = z.string(); export type T = [FieldError, typeof en];',
    ]);
    await expectAllowed('src/protocol/api/clips.ts', ["import type { RouteConfig } from '@hono/zod-openapi';", "import { isGuid } from '../../domain/validators.ts';", 'export const r = { isGuid }; export type R = RouteConfig;']);
    await expectAllowed('src/domain/messages.ts', ["import * as messages from '../paraglide/areas/domain.js';", "import { getLocale } from '../paraglide/runtime.js';", 'export const all = [messages, getLocale];']);
  });

  it('tests, benchmarks and scripts are exempt', async () => {
    const crossing = ["import { db } from '../../src/db/db.ts';", "import { createApp } from '../../sync-server/app.ts';", "import { Dexie } from 'dexie';", 'export const all = [db, createApp, Dexie];'];
    await expectAllowed('tests/sync/harness.ts', crossing);
    await expectAllowed('bench/sync/fill.ts', crossing);
    await expectAllowed('scripts/seed/fill.ts', crossing);
    await expectAllowed('src/features/clips/ClipScreen.test.tsx', ["import { attentionReason } from '../sync/sync-labels.ts';", "import { Dexie } from 'dexie';", 'export const all = [attentionReason, Dexie];']);
  });
});
