// Billing & features and the subscription (issue 33; specification section 7 "Billing,
// subscription, imports, config, demo, reference"): the organization's plan and add-ons, usage
// measured from its own rows, invoices computed from both, each metered add-on's restriction and
// who is told as its allowance fills. Rules: src/domain/billing.ts; served by
// sync-server/api/billing.ts. The organization is the x-organization-id one.
//
// Who: /internal/billing… admins only (section 6: "'Billing & features' is admins only"), as a
// member of the organization (Grant access makes them one). /internal/subscription… is what the
// organization's own settings people may know of their plan: HasManageOrganizationSettingsAccess
// at organization scope (section 6's Organization settings holders who change things), plus admin
// and support users; notification settings are changed by the same people but support.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { ADD_ON_TYPES, CURRENCY, FEATURES, MEASURES, METERED_ADD_ON_TYPES, PLAN_IDS, type Measure } from '../../domain/billing.ts';
import { errors, idParams, jsonBody, jsonContent, noContent, writeErrors } from './common.ts';

const tags = ['Billing'];

/** The wire's names of the measures (PascalCase, as every field). */
export const WIRE_MEASURE: Record<Measure, 'StoredAudioHours' | 'Downloads' | 'Seats' | 'TranscriptionMinutes'> = {
  storedAudioHours: 'StoredAudioHours',
  downloads: 'Downloads',
  seats: 'Seats',
  transcriptionMinutes: 'TranscriptionMinutes',
};
const WireMeasure = z.enum(['StoredAudioHours', 'Downloads', 'Seats', 'TranscriptionMinutes']);
const Amounts = z.object(Object.fromEntries(MEASURES.map((m) => [WIRE_MEASURE[m], z.number()])) as Record<(typeof WIRE_MEASURE)[Measure], z.ZodNumber>);

const PeriodShape = z.object({ Id: z.string().meta({ description: 'YYYY-MM' }), StartUtc: z.string(), EndUtc: z.string().meta({ description: 'Exclusive' }) });

export const BillingPlan = z
  .object({ Id: z.enum(PLAN_IDS), MonthlyPriceCents: z.number().int(), Included: Amounts, Features: z.array(z.enum(FEATURES)) })
  .meta({ id: 'BillingPlan' });

export const BillingAddOn = z
  .object({
    Type: z.enum(ADD_ON_TYPES),
    Kind: z.enum(['metered', 'feature']),
    Quantity: z.number().int().meta({ description: 'Packs of a metered add-on; 0 or 1 of a feature add-on' }),
    MaxQuantity: z.number().int(),
    Measure: WireMeasure.nullable().meta({ description: 'The allowance a metered add-on extends' }),
    UnitsPerPack: z.number().nullable(),
    Feature: z.enum(FEATURES).nullable(),
    PriceCents: z.number().int().meta({ description: 'Per pack and month (metered), or per month (feature)' }),
  })
  .meta({ id: 'BillingAddOn' });

export const Billing = z
  .object({
    OrganizationId: z.string(),
    OrganizationName: z.string(),
    Currency: z.literal(CURRENCY),
    Plan: z.enum(PLAN_IDS),
    Plans: z.array(BillingPlan).meta({ description: 'The catalogue, to choose from' }),
    AddOns: z.array(BillingAddOn),
    Features: z.array(z.enum(FEATURES)).meta({ description: 'What the plan and the feature add-ons turn on' }),
    Allowances: Amounts,
    BillingContactName: z.string().nullable(),
    BillingContactEmail: z.string().nullable(),
    StartedAtUtc: z.string(),
    CurrentPeriod: PeriodShape,
    ModifiedAtUtc: z.string().nullable().meta({ description: 'null: never changed (the default plan)' }),
  })
  .meta({ id: 'Billing' });
export type Billing = z.infer<typeof Billing>;

export const BillingPatch = z
  .object({
    Plan: z.enum(PLAN_IDS).optional(),
    AddOns: z
      .object(Object.fromEntries(ADD_ON_TYPES.map((t) => [t, z.number().optional()])) as Record<(typeof ADD_ON_TYPES)[number], z.ZodOptional<z.ZodNumber>>)
      .strict()
      .optional()
      .meta({ description: 'Quantities by add-on type; one left out stays as it is' }),
    BillingContactName: z.string().nullable().optional(),
    BillingContactEmail: z.string().nullable().optional(),
  })
  .strict()
  .meta({ id: 'BillingPatch' });
export type BillingPatch = z.infer<typeof BillingPatch>;

export const MeasuredUsage = z
  .object({
    Measure: WireMeasure,
    Used: z.number(),
    Allowance: z.number(),
    Percent: z.number().nullable().meta({ description: 'Of the allowance; null when the allowance is 0' }),
    AddOnType: z.enum(METERED_ADD_ON_TYPES).nullable(),
    MaxOverage: z.number().nullable().meta({ description: 'The add-on’s restriction: units billed beyond the allowance at most (null: no limit)' }),
    CapReached: z.boolean(),
  })
  .meta({ id: 'MeasuredUsage' });

export const BillingUsage = z
  .object({ Period: PeriodShape, Measures: z.array(MeasuredUsage), StoredAudioBytes: z.number(), MeasuredAtUtc: z.string() })
  .meta({ id: 'BillingUsage' });
export type BillingUsage = z.infer<typeof BillingUsage>;

export const InvoiceLine = z
  .object({
    Kind: z.enum(['plan', 'addOn', 'overage']),
    Plan: z.enum(PLAN_IDS).nullable(),
    AddOnType: z.enum(ADD_ON_TYPES).nullable(),
    Quantity: z.number().nullable(),
    Measure: WireMeasure.nullable(),
    Used: z.number().nullable(),
    Allowance: z.number().nullable(),
    BilledUnits: z.number().nullable(),
    UnitCents: z.number().nullable(),
    Per: z.number().nullable(),
    AmountCents: z.number().int(),
  })
  .meta({ id: 'InvoiceLine' });

export const Invoice = z
  .object({
    Id: z.string().meta({ description: 'The month, YYYY-MM' }),
    Period: PeriodShape,
    Status: z.enum(['Open', 'Closed']).meta({ description: 'Open: the month is not over (its usage so far)' }),
    Currency: z.literal(CURRENCY),
    Lines: z.array(InvoiceLine),
    TotalCents: z.number().int(),
    DocumentPath: z.string().meta({ description: 'The printable document (GET, text/html)' }),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof Invoice>;

export const AddOnRestrictions = z
  .object({ AddOnType: z.enum(METERED_ADD_ON_TYPES), MaxOverage: z.number().nullable(), ModifiedAtUtc: z.string().nullable() })
  .meta({ id: 'AddOnRestrictions' });
export type AddOnRestrictions = z.infer<typeof AddOnRestrictions>;
export const AddOnRestrictionsPatch = z
  .object({ MaxOverage: z.number().nullable().meta({ description: 'Units billed beyond the allowance at most, a whole number (0: the allowance is a hard cap); null: no limit' }) })
  .strict()
  .meta({ id: 'AddOnRestrictionsPatch' });

export const AddOnUsage = z
  .object({ AddOnType: z.enum(METERED_ADD_ON_TYPES), Quantity: z.number().int(), Period: PeriodShape, Usage: MeasuredUsage })
  .meta({ id: 'AddOnUsage' });
export type AddOnUsage = z.infer<typeof AddOnUsage>;

export const NotificationSettings = z
  .object({
    AddOnType: z.enum(METERED_ADD_ON_TYPES),
    Thresholds: z.array(z.number()),
    Recipients: z.array(z.string()),
    NotifyBillingContact: z.boolean(),
    ModifiedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'AddOnNotificationSettings' });
export type NotificationSettings = z.infer<typeof NotificationSettings>;
export const NotificationSettingsPut = z
  .object({
    Thresholds: z.array(z.number()).max(50).meta({ description: 'Percentages of the allowance (whole, 1–200, at most 5): each is told once a month when reached' }),
    Recipients: z.array(z.string().max(1000)).max(50).meta({ description: 'E-mail addresses told (at most 10)' }),
    NotifyBillingContact: z.boolean(),
  })
  .strict()
  .meta({ id: 'AddOnNotificationSettingsPut' });

export const Subscription = z
  .object({
    OrganizationId: z.string(),
    ProgramId: z.string().nullable().meta({ description: 'The program asked about (its organization’s subscription applies)' }),
    Plan: z.enum(PLAN_IDS),
    AddOns: z.array(z.object({ Type: z.enum(ADD_ON_TYPES), Quantity: z.number().int() })),
    Features: z.array(z.enum(FEATURES)),
    Allowances: Amounts,
    CurrentPeriod: PeriodShape,
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof Subscription>;

const adminOnly = { 403: { description: 'The caller is not an admin, or sent no x-xsrf-token (no body)' } };
const subscriptionReaders = { 403: { description: 'The caller holds neither HasManageOrganizationSettingsAccess at organization scope nor is admin or support (no body)' } };
const AddOnParam = z.object({ addOnType: z.enum(METERED_ADD_ON_TYPES).meta({ param: { name: 'addOnType', in: 'path' } }) });
export const InvoiceParam = z.object({ invoiceId: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/).meta({ param: { name: 'invoiceId', in: 'path' }, description: 'The month, YYYY-MM' }) });

export const getBilling = {
  method: 'get',
  path: '/internal/billing',
  tags,
  summary: 'The organization’s plan, add-ons, billing contact and the catalogue (admins)',
  responses: { 200: jsonContent(Billing, 'The billing'), ...errors, ...adminOnly },
} as const satisfies RouteConfig;

export const patchBilling = {
  method: 'patch',
  path: '/internal/billing',
  tags,
  summary: 'Changes the plan, add-on quantities or billing contact (admins); each bad field a 400 at its name',
  request: { body: jsonBody(BillingPatch) },
  responses: { 204: noContent, ...writeErrors, ...adminOnly },
} as const satisfies RouteConfig;

export const getBillingUsage = {
  method: 'get',
  path: '/internal/billing/usage',
  tags,
  summary: 'This month’s usage, measured from the organization’s rows: stored audio hours, downloads, seats, transcription minutes (admins)',
  responses: { 200: jsonContent(BillingUsage, 'The usage'), ...errors, ...adminOnly },
} as const satisfies RouteConfig;

export const listInvoices = {
  method: 'get',
  path: '/internal/billing/invoices',
  tags,
  summary: 'One invoice per month since the organization is billed, newest first (at most 12), computed from the plan and the measured usage (admins)',
  responses: { 200: jsonContent(z.object({ Items: z.array(Invoice) }), 'The invoices'), ...errors, ...adminOnly },
} as const satisfies RouteConfig;

export const invoiceDocument = {
  method: 'get',
  path: '/internal/billing/invoices/{invoiceId}',
  tags,
  summary: 'An invoice as a printable HTML document (admins); a month before the organization was billed, or to come, is a 404',
  request: { params: InvoiceParam },
  responses: { 200: { description: 'The document', content: { 'text/html': { schema: z.string() } } }, ...errors, ...adminOnly },
} as const satisfies RouteConfig;

export const getAddOnUsage = {
  method: 'get',
  path: '/internal/billing/add-on/{addOnType}/usage',
  tags,
  summary: 'A metered add-on’s allowance and its usage in the month holding dateUtc (admins)',
  request: {
    params: AddOnParam,
    query: z.object({ dateUtc: z.string().max(100).optional().meta({ description: 'Required: a date (YYYY-MM-DD) or date-time in the month asked for' }) }),
  },
  responses: { 200: jsonContent(AddOnUsage, 'The usage'), ...errors, ...adminOnly },
} as const satisfies RouteConfig;

export const getAddOnRestrictions = {
  method: 'get',
  path: '/internal/billing/add-on/{addOnType}/restrictions',
  tags,
  summary: 'What happens at a metered add-on’s cap (admins)',
  request: { params: AddOnParam },
  responses: { 200: jsonContent(AddOnRestrictions, 'The restrictions'), ...errors, ...adminOnly },
} as const satisfies RouteConfig;

export const patchAddOnRestrictions = {
  method: 'patch',
  path: '/internal/billing/add-on/{addOnType}/restrictions',
  tags,
  summary: 'Sets a metered add-on’s cap (admins): MaxOverage units billed beyond the allowance at most (0: the allowance is a hard cap for billing); usage shows CapReached',
  request: { params: AddOnParam, body: jsonBody(AddOnRestrictionsPatch) },
  responses: { 200: jsonContent(AddOnRestrictions, 'The restrictions as saved'), ...writeErrors, ...adminOnly },
} as const satisfies RouteConfig;

export const getSubscription = {
  method: 'get',
  path: '/internal/subscription',
  tags,
  summary: 'The organization’s plan, add-ons, features and allowances',
  responses: { 200: jsonContent(Subscription, 'The subscription'), ...errors, ...subscriptionReaders },
} as const satisfies RouteConfig;

export const getProgramSubscription = {
  method: 'get',
  path: '/internal/programs/{programId}/subscription',
  tags,
  summary: 'The subscription that applies to a program (its organization’s)',
  request: { params: idParams('programId') },
  responses: { 200: jsonContent(Subscription, 'The subscription'), ...errors, ...subscriptionReaders },
} as const satisfies RouteConfig;

export const getNotificationSettings = {
  method: 'get',
  path: '/internal/subscription/add-on/{addOnType}/notification-settings',
  tags,
  summary: 'Who is told at which percentage of a metered add-on’s allowance',
  request: { params: AddOnParam },
  responses: { 200: jsonContent(NotificationSettings, 'The settings (never set: 80 and 100 percent, to the billing contact)'), ...errors, ...subscriptionReaders },
} as const satisfies RouteConfig;

export const putNotificationSettings = {
  method: 'put',
  path: '/internal/subscription/add-on/{addOnType}/notification-settings',
  tags,
  summary: 'Sets who is told at which percentage (admins and HasManageOrganizationSettingsAccess at organization scope; support reads only)',
  request: { params: AddOnParam, body: jsonBody(NotificationSettingsPut) },
  responses: { 200: jsonContent(NotificationSettings, 'The settings as saved'), ...writeErrors, 403: { description: 'Neither an admin nor HasManageOrganizationSettingsAccess at organization scope (no body)' } },
} as const satisfies RouteConfig;
