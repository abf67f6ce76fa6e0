// Billing & features and the subscription (src/protocol/api/billing.ts; rules src/domain/billing.ts):
//
//   GET  /internal/billing, …/usage, …/invoices, …/invoices/{YYYY-MM}, …/add-on/{type}/usage|restrictions
//   PATCH /internal/billing (204), …/add-on/{type}/restrictions (200)        admins, as members
//   GET  /internal/subscription, /internal/programs/{id}/subscription,
//        /internal/subscription/add-on/{type}/notification-settings          manage-org-settings or staff
//   PUT  …/notification-settings (200)                                         manage-org-settings or admin
//
// Billing is server-held staff state (no named mutation: no device edits it offline; the screen says
// it needs the network). Usage is measured from the organization's rows when asked
// (sync-server/billing/usage.ts), so invoices are never stored amounts but computed ones.
import type { Context, MiddlewareHandler } from 'hono';
import {
  ADD_ON_TYPES,
  ADD_ONS,
  allowance,
  capReached,
  featuresOf,
  invoiceLines,
  invoicePeriods,
  invoiceTotal,
  MEASURES,
  addOnOf,
  measureOf,
  percentUsed,
  periodById,
  periodOf,
  PLAN_IDS,
  PLANS,
  readDateUtc,
  validateAddOnQuantity,
  validateBillingContactEmail,
  validateMaxOverage,
  validateRecipients,
  validateThresholds,
  BILLING_CONTACT_NAME_MAX,
  type InvoiceLine,
  type Measure,
  type MeteredAddOnType,
  type Period,
  type Restriction,
  type Subscription,
} from '../../src/domain/billing.ts';
import { formError } from '../../src/domain/form-errors.ts';
import * as routes from '../../src/protocol/api/billing.ts';
import { getAuth } from '../auth.ts';
import { badRequest, fieldError, forbidden, notFound } from '../errors.ts';
import { orgFlags } from '../mutations/store.ts';
import { now } from '../app.ts';
import { invoiceHtml } from '../billing/documents.ts';
import { enqueueNoticeCheck } from '../billing/notices.ts';
import { loadAddOnSettings, loadSubscription, saveNotificationSettings, saveRestriction, saveSubscription, type AddOnSettings, type KeptSubscription } from '../billing/subscriptions.ts';
import { measureUsage, type MeasuredUsage } from '../billing/usage.ts';
import type { Queryable } from '../store/store.ts';
import { guard, type Access } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

const { WIRE_MEASURE } = routes;

function checked(describe: string, may: (c: Context) => boolean, base: Access = guard.member()): Access {
  const check: MiddlewareHandler = async (c, next) => {
    if (!may(c)) throw forbidden();
    await next();
  };
  return { middleware: [...base.middleware, check], describe };
}

/** Section 6: "'Billing & features' is admins only"; an admin acts as a member of the organization. */
export const billingGuard = (): Access => checked('An admin who is a member of the organization', (c) => getAuth(c).user.IsAdmin);
/** The subscription is what the organization's settings people know of their plan, and staff. */
const subscriptionReader = (base?: Access): Access =>
  checked(`${base ? `${base.describe}, holding` : 'A member holding'} HasManageOrganizationSettingsAccess at organization scope, or an admin or support user`, (c) => orgFlags(getAuth(c)).HasManageOrganizationSettingsAccess || getAuth(c).user.IsAdminOrSupport, base);
const subscriptionWriter = (): Access =>
  checked('A member holding HasManageOrganizationSettingsAccess at organization scope, or an admin', (c) => orgFlags(getAuth(c)).HasManageOrganizationSettingsAccess || getAuth(c).user.IsAdmin);

const iso = (d: Date) => d.toISOString();
const periodWire = (p: Period) => ({ Id: p.id, StartUtc: iso(p.start), EndUtc: iso(p.end) });
const amounts = (f: (m: Measure) => number) => Object.fromEntries(MEASURES.map((m) => [WIRE_MEASURE[m], f(m)])) as Record<(typeof WIRE_MEASURE)[Measure], number>;

async function subscriptionOf(q: Queryable, organizationId: string): Promise<KeptSubscription> {
  const s = await loadSubscription(q, organizationId);
  if (!s) throw notFound();
  return s;
}

function billingWire(organizationId: string, s: KeptSubscription, at: Date): routes.Billing {
  return {
    OrganizationId: organizationId,
    OrganizationName: s.organizationName,
    Currency: 'USD',
    Plan: s.plan,
    Plans: PLAN_IDS.map((id) => ({ Id: id, MonthlyPriceCents: PLANS[id].monthlyPriceCents, Included: amounts((m) => PLANS[id].included[m]), Features: [...PLANS[id].features] })),
    AddOns: ADD_ON_TYPES.map((type) => {
      const a = ADD_ONS[type];
      return {
        Type: type,
        Kind: a.kind,
        Quantity: s.addOns[type] ?? 0,
        MaxQuantity: a.kind === 'metered' ? a.maxPacks : 1,
        Measure: a.kind === 'metered' ? WIRE_MEASURE[a.measure] : null,
        UnitsPerPack: a.kind === 'metered' ? a.unitsPerPack : null,
        Feature: a.kind === 'feature' ? a.feature : null,
        PriceCents: a.kind === 'metered' ? a.packPriceCents : a.monthlyPriceCents,
      };
    }),
    Features: featuresOf(s),
    Allowances: amounts((m) => allowance(s, m)),
    BillingContactName: s.billingContactName,
    BillingContactEmail: s.billingContactEmail,
    StartedAtUtc: iso(s.startedAtUtc),
    CurrentPeriod: periodWire(periodOf(at)),
    ModifiedAtUtc: s.modifiedAtUtc ? iso(s.modifiedAtUtc) : null,
  };
}

function measuredWire(measure: Measure, s: Subscription, usage: MeasuredUsage, settings: Record<MeteredAddOnType, AddOnSettings>) {
  const allowed = allowance(s, measure);
  const addOn = addOnOf(measure);
  const restriction: Restriction = addOn ? settings[addOn].restriction : { maxOverage: null };
  const percent = percentUsed(usage[measure], allowed);
  return {
    Measure: WIRE_MEASURE[measure],
    Used: usage[measure],
    Allowance: allowed,
    Percent: Number.isFinite(percent) ? Math.round(percent * 10) / 10 : null,
    AddOnType: addOn,
    MaxOverage: restriction.maxOverage,
    CapReached: capReached(usage[measure], allowed, restriction),
  };
}

const restrictionsOf = (settings: Record<MeteredAddOnType, AddOnSettings>) =>
  Object.fromEntries(Object.entries(settings).map(([t, v]) => [t, v.restriction])) as Record<MeteredAddOnType, Restriction>;

const lineWire = (l: InvoiceLine): routes.Invoice['Lines'][number] => ({
  Kind: l.kind,
  Plan: l.kind === 'plan' ? l.plan : null,
  AddOnType: l.kind === 'addOn' ? l.addOn : null,
  Quantity: l.kind === 'addOn' ? l.quantity : null,
  Measure: l.kind === 'overage' ? WIRE_MEASURE[l.measure] : null,
  Used: l.kind === 'overage' ? l.used : null,
  Allowance: l.kind === 'overage' ? l.allowance : null,
  BilledUnits: l.kind === 'overage' ? l.billedUnits : null,
  UnitCents: l.kind === 'overage' ? l.unitCents : null,
  Per: l.kind === 'overage' ? l.per : null,
  AmountCents: l.amountCents,
});

/** One month's invoice: the subscription as it is now (its history is not kept) and the month's measured usage. */
async function invoiceOf(q: Queryable, organizationId: string, s: KeptSubscription, period: Period, at: Date) {
  const usage = await measureUsage(q, organizationId, period);
  const lines = invoiceLines(s, usage, restrictionsOf(await loadAddOnSettings(q, organizationId)));
  return { period, open: at < period.end, lines };
}

function subscriptionWire(organizationId: string, programId: string | null, s: KeptSubscription, at: Date): routes.Subscription {
  return {
    OrganizationId: organizationId,
    ProgramId: programId,
    Plan: s.plan,
    AddOns: ADD_ON_TYPES.filter((t) => (s.addOns[t] ?? 0) > 0).map((t) => ({ Type: t, Quantity: s.addOns[t]! })),
    Features: featuresOf(s),
    Allowances: amounts((m) => allowance(s, m)),
    CurrentPeriod: periodWire(periodOf(at)),
  };
}

const notificationsWire = (type: MeteredAddOnType, a: AddOnSettings): routes.NotificationSettings => ({
  AddOnType: type,
  Thresholds: a.notifications.thresholds,
  Recipients: a.notifications.recipients,
  NotifyBillingContact: a.notifications.notifyBillingContact,
  ModifiedAtUtc: a.notificationsModifiedAtUtc ? iso(a.notificationsModifiedAtUtc) : null,
});

export function billingRoutes() {
  return resourceApp()
    .openapi(guarded(routes.getBilling, billingGuard()), async (c) => {
      const { organizationId } = getAuth(c);
      const s = await subscriptionOf(c.get('deps').store, organizationId);
      return c.json(billingWire(organizationId, s, now(c.get('deps'))), 200);
    })
    .openapi(guarded(routes.patchBilling, billingGuard()), async (c) => {
      const body = c.req.valid('json');
      const deps = c.get('deps');
      const { organizationId, user } = getAuth(c);
      const problems = [];
      for (const type of ADD_ON_TYPES) {
        const quantity = body.AddOns?.[type];
        const error = quantity === undefined ? null : validateAddOnQuantity(type, quantity);
        if (error) problems.push(fieldError(`AddOns.${type}`, error));
      }
      const name = body.BillingContactName?.trim();
      if (name !== undefined && name.length > BILLING_CONTACT_NAME_MAX) problems.push(fieldError('BillingContactName', formError('tooLong', undefined, { max: BILLING_CONTACT_NAME_MAX })));
      const email = body.BillingContactEmail?.trim();
      const emailError = email === undefined ? null : validateBillingContactEmail(email);
      if (emailError) problems.push(fieldError('BillingContactEmail', emailError));
      if (problems.length > 0) throw badRequest(problems);
      const at = now(deps);
      await deps.store.tx(async (q) => {
        const s = await subscriptionOf(q, organizationId);
        const addOns = { ...s.addOns };
        for (const type of ADD_ON_TYPES) if (body.AddOns?.[type] !== undefined) addOns[type] = body.AddOns[type];
        const next: Subscription = {
          plan: body.Plan ?? s.plan,
          addOns,
          billingContactName: name === undefined ? s.billingContactName : name || null,
          billingContactEmail: email === undefined ? s.billingContactEmail : email || null,
          startedAtUtc: s.startedAtUtc,
        };
        await saveSubscription(q, organizationId, next, user.Id, at);
        // A smaller allowance may put a threshold behind the organization already.
        if (body.Plan !== undefined || body.AddOns !== undefined) await enqueueNoticeCheck(q, organizationId);
      });
      return c.body(null, 204);
    })
    .openapi(guarded(routes.getBillingUsage, billingGuard()), async (c) => {
      const { organizationId } = getAuth(c);
      const deps = c.get('deps');
      const at = now(deps);
      const period = periodOf(at);
      const answer = await deps.store.tx(async (q) => {
        const s = await subscriptionOf(q, organizationId);
        const usage = await measureUsage(q, organizationId, period);
        const settings = await loadAddOnSettings(q, organizationId);
        return { Period: periodWire(period), Measures: MEASURES.map((m) => measuredWire(m, s, usage, settings)), StoredAudioBytes: usage.storedAudioBytes, MeasuredAtUtc: iso(at) };
      });
      return c.json(answer, 200);
    })
    .openapi(guarded(routes.listInvoices, billingGuard()), async (c) => {
      const { organizationId } = getAuth(c);
      const deps = c.get('deps');
      const at = now(deps);
      const items = await deps.store.tx(async (q) => {
        const s = await subscriptionOf(q, organizationId);
        const out: routes.Invoice[] = [];
        for (const period of invoicePeriods(s.startedAtUtc, at)) {
          const inv = await invoiceOf(q, organizationId, s, period, at);
          out.push({ Id: period.id, Period: periodWire(period), Status: inv.open ? 'Open' : 'Closed', Currency: 'USD', Lines: inv.lines.map(lineWire), TotalCents: invoiceTotal(inv.lines), DocumentPath: `/api/internal/billing/invoices/${period.id}` });
        }
        return out;
      });
      return c.json({ Items: items }, 200);
    })
    .openapi(guarded(routes.invoiceDocument, billingGuard()), async (c) => {
      const { organizationId, user } = getAuth(c);
      const deps = c.get('deps');
      const at = now(deps);
      const period = periodById(c.req.valid('param').invoiceId);
      const page = await deps.store.tx(async (q) => {
        const s = await subscriptionOf(q, organizationId);
        // Only the months invoicePeriods lists have an invoice (not before the start, none to come).
        if (!period || !invoicePeriods(s.startedAtUtc, at, Number.MAX_SAFE_INTEGER).some((p) => p.id === period.id)) throw notFound();
        const inv = await invoiceOf(q, organizationId, s, period, at);
        return invoiceHtml({ organizationName: s.organizationName, period, open: inv.open, lines: inv.lines, billingContactName: s.billingContactName, billingContactEmail: s.billingContactEmail, computedAt: at, interfaceLanguage: user.InterfaceLanguage });
      });
      c.header('Cache-Control', 'no-store');
      return c.html(page, 200);
    })
    .openapi(guarded(routes.getAddOnUsage, billingGuard()), async (c) => {
      const type = c.req.valid('param').addOnType;
      const date = readDateUtc(c.req.valid('query').dateUtc);
      if (!(date instanceof Date)) throw badRequest([fieldError('dateUtc', date)]);
      const { organizationId } = getAuth(c);
      const deps = c.get('deps');
      const period = periodOf(date);
      const answer = await deps.store.tx(async (q) => {
        const s = await subscriptionOf(q, organizationId);
        const usage = await measureUsage(q, organizationId, period);
        const settings = await loadAddOnSettings(q, organizationId);
        return { AddOnType: type, Quantity: s.addOns[type] ?? 0, Period: periodWire(period), Usage: measuredWire(measureOf(type), s, usage, settings) };
      });
      return c.json(answer, 200);
    })
    .openapi(guarded(routes.getAddOnRestrictions, billingGuard()), async (c) => {
      const type = c.req.valid('param').addOnType;
      const settings = (await loadAddOnSettings(c.get('deps').store, getAuth(c).organizationId))[type];
      return c.json({ AddOnType: type, MaxOverage: settings.restriction.maxOverage, ModifiedAtUtc: settings.restrictionModifiedAtUtc ? iso(settings.restrictionModifiedAtUtc) : null }, 200);
    })
    .openapi(guarded(routes.patchAddOnRestrictions, billingGuard()), async (c) => {
      const type = c.req.valid('param').addOnType;
      const { MaxOverage } = c.req.valid('json');
      const error = validateMaxOverage(MaxOverage);
      if (error) throw badRequest([fieldError('MaxOverage', error)]);
      const deps = c.get('deps');
      const { organizationId } = getAuth(c);
      const at = now(deps);
      await deps.store.tx(async (q) => {
        await subscriptionOf(q, organizationId);
        await saveRestriction(q, organizationId, type, { maxOverage: MaxOverage }, at);
      });
      return c.json({ AddOnType: type, MaxOverage, ModifiedAtUtc: iso(at) }, 200);
    })
    .openapi(guarded(routes.getSubscription, subscriptionReader()), async (c) => {
      const { organizationId } = getAuth(c);
      const deps = c.get('deps');
      return c.json(subscriptionWire(organizationId, null, await subscriptionOf(deps.store, organizationId), now(deps)), 200);
    })
    .openapi(guarded(routes.getProgramSubscription, subscriptionReader(guard.program('programId'))), async (c) => {
      const { organizationId } = getAuth(c);
      const deps = c.get('deps');
      return c.json(subscriptionWire(organizationId, c.get('program').id, await subscriptionOf(deps.store, organizationId), now(deps)), 200);
    })
    .openapi(guarded(routes.getNotificationSettings, subscriptionReader()), async (c) => {
      const type = c.req.valid('param').addOnType;
      const settings = await loadAddOnSettings(c.get('deps').store, getAuth(c).organizationId);
      return c.json(notificationsWire(type, settings[type]), 200);
    })
    .openapi(guarded(routes.putNotificationSettings, subscriptionWriter()), async (c) => {
      const type = c.req.valid('param').addOnType;
      const body = c.req.valid('json');
      const recipients = body.Recipients.map((r) => r.trim());
      const problems = [...validateThresholds(body.Thresholds), ...validateRecipients(recipients)].map(([field, error]) => fieldError(field, error));
      if (problems.length > 0) throw badRequest(problems);
      const deps = c.get('deps');
      const { organizationId } = getAuth(c);
      const at = now(deps);
      const settings = { thresholds: [...body.Thresholds].sort((a, b) => a - b), recipients, notifyBillingContact: body.NotifyBillingContact };
      await deps.store.tx(async (q) => {
        await subscriptionOf(q, organizationId);
        await saveNotificationSettings(q, organizationId, type, settings, at);
        await enqueueNoticeCheck(q, organizationId);
      });
      return c.json(notificationsWire(type, { restriction: { maxOverage: null }, notifications: settings, restrictionModifiedAtUtc: null, notificationsModifiedAtUtc: at }), 200);
    });
}
