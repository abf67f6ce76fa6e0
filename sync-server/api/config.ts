// The configuration for staff (src/protocol/api/config.ts): what the studio runs with, read from the
// same places the server reads it (the environment through its own readers, the app's settings), the
// plan catalogue, and an organization's or program's features from its subscription. Secrets (the
// SMTP URL's password, the metrics token, database and S3 credentials) are only said to be set.
import type { Context, MiddlewareHandler } from 'hono';
import { ADD_ON_TYPES, ADD_ONS, FEATURES, featuresOf, MEASURES, PLAN_IDS, PLANS } from '../../src/domain/billing.ts';
import { BUILD_VERSION, CACHE_DURATIONS_MS } from '../../src/domain/constants.ts';
import * as routes from '../../src/protocol/api/config.ts';
import { getAuth } from '../auth.ts';
import { forbidden, notFound } from '../errors.ts';
import type { MailSettings } from '../mail/outbox.ts';
import { loadSubscription } from '../billing/subscriptions.ts';
import { guard, type Access } from './guard.ts';
import { guarded, resourceApp } from './route.ts';
import { adminOrSupport } from './admin.ts';

/** What the app was built with that the environment alone does not say. */
export type ConfigFacts = { mail: MailSettings; blobKind: 'folder' | 's3'; transcription: { name: string; languages: readonly string[] } };

/** Admin or support, acting in an organization they are a member of. */
function staffMember(base: Access = guard.member()): Access {
  const check: MiddlewareHandler = async (c, next) => {
    if (!getAuth(c).user.IsAdminOrSupport) throw forbidden();
    await next();
  };
  return { middleware: [...base.middleware, check], describe: `${base.describe}, an admin or support user` };
}

const set = (value: string | undefined) => value !== undefined && value.trim() !== '';

function sections(c: Context, facts: ConfigFacts): routes.ConfigSection[] {
  const deps = c.get('deps');
  const env = process.env;
  const none: routes.ConfigEntry[] = [];
  const all: Record<routes.ConfigSectionName, Omit<routes.ConfigSection, 'Name'>> = {
    runtime: {
      Values: {
        Version: BUILD_VERSION,
        Node: process.version,
        Store: deps.store.kind,
        PublicUrl: env.PUBLIC_URL?.trim() || null,
        SecureCookies: deps.secureCookies === true || env.CASTAWAY_SECURE_COOKIES === '1',
        TrustedProxiesSet: set(env.CASTAWAY_TRUSTED_PROXIES),
        MetricsTokenSet: set(deps.metricsToken) || set(env.CASTAWAY_METRICS_TOKEN),
      },
      Entries: none,
    },
    mail: {
      Values: {
        SmtpConfigured: facts.mail.smtpUrl !== null,
        // The host only: the URL may carry a user and password.
        SmtpHost: facts.mail.smtpUrl ? new URL(facts.mail.smtpUrl).host : null,
        From: facts.mail.from,
        SupportAddress: facts.mail.supportTo,
      },
      Entries: none,
    },
    storage: {
      Values: { Blobs: facts.blobKind, S3Bucket: env.CASTAWAY_S3_BUCKET?.trim() || null, UploadDirSet: set(env.CASTAWAY_UPLOAD_DIR) },
      Entries: none,
    },
    transcription: { Values: { Engine: facts.transcription.name, Languages: [...facts.transcription.languages] }, Entries: none },
    caching: { Values: Object.fromEntries(Object.entries(CACHE_DURATIONS_MS).map(([k, ms]) => [`${k}Minutes`, ms / 60_000])), Entries: none },
    plans: {
      Values: {},
      Entries: PLAN_IDS.map((id) => ({
        Id: id,
        Values: { MonthlyPriceCents: PLANS[id].monthlyPriceCents, Features: [...PLANS[id].features], ...Object.fromEntries(MEASURES.map((m) => [`Included.${m}`, PLANS[id].included[m]])) },
      })),
    },
    'add-ons': {
      Values: {},
      Entries: ADD_ON_TYPES.map((t) => {
        const a = ADD_ONS[t];
        return { Id: t, Values: a.kind === 'metered' ? { Kind: a.kind, Measure: a.measure, UnitsPerPack: a.unitsPerPack, PackPriceCents: a.packPriceCents, MaxPacks: a.maxPacks } : { Kind: a.kind, Feature: a.feature, MonthlyPriceCents: a.monthlyPriceCents } };
      }),
    },
    features: {
      Values: {},
      Entries: FEATURES.map((f) => ({ Id: f, Values: { Plans: PLAN_IDS.filter((p) => PLANS[p].features.includes(f)), AddOns: ADD_ON_TYPES.filter((t) => { const a = ADD_ONS[t]; return a.kind === 'feature' && a.feature === f; }) } })),
    },
  };
  return routes.CONFIG_SECTIONS.map((name) => ({ Name: name, ...all[name] }));
}

async function organizationConfig(c: Context, program: { id: string; name: string } | null): Promise<routes.OrganizationConfig> {
  const { organizationId } = getAuth(c);
  const store = c.get('deps').store;
  const [org] = await store.query<{ name: string; provider: string; is_demo: boolean }>(`SELECT name, provider, is_demo FROM organizations WHERE id = $1 AND NOT deleted`, [organizationId]);
  const s = await loadSubscription(store, organizationId);
  if (!org || !s) throw notFound();
  return { OrganizationId: organizationId, Name: org.name, Provider: org.provider, IsDemo: org.is_demo, Plan: s.plan, Features: featuresOf(s), ProgramId: program?.id ?? null, ProgramName: program?.name ?? null };
}

export function configRoutes(facts: ConfigFacts) {
  // The fixed paths first: /internal/config/organization is not a section named "organization".
  return resourceApp()
    .openapi(guarded(routes.getOrganizationConfig, staffMember()), async (c) => c.json(await organizationConfig(c, null), 200))
    .openapi(guarded(routes.getProgramConfig, staffMember(guard.program('programId'))), async (c) => {
      const program = c.get('program');
      const [row] = await c.get('deps').store.query<{ name: string }>(`SELECT name FROM programs WHERE id = $1`, [program.id]);
      return c.json(await organizationConfig(c, { id: program.id, name: row?.name ?? '' }), 200);
    })
    .openapi(guarded(routes.getConfig, adminOrSupport()), async (c) => c.json({ Sections: sections(c, facts) }, 200))
    .openapi(guarded(routes.getConfigSection, adminOrSupport()), async (c) => {
      const name = c.req.valid('param').name;
      return c.json(sections(c, facts).find((s) => s.Name === name)!, 200);
    })
    .openapi(guarded(routes.getConfigEntry, adminOrSupport()), async (c) => {
      const { name, id } = c.req.valid('param');
      const entry = sections(c, facts)
        .find((s) => s.Name === name)
        ?.Entries.find((e) => e.Id === id);
      if (!entry) throw notFound();
      return c.json(entry, 200);
    });
}
