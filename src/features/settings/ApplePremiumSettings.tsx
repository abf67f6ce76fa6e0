// Apple Podcasts Subscriptions settings of the organization (a tab of Organization settings), a
// network (a panel opened under it on the Networks page) or a program (a section of its settings).
// Rules and inheritance: src/domain/apple-premium.ts. Each level's values are on its row, on the
// device, and saved through {organization,network,program}.setApplePremium like any edit, offline
// too:
//
//   form (each field: this level's value, or empty: inherited, with what is in effect and whose)
//     ──Apply──> checked by the domain's rule (refused at the field, nothing queued)
//     ──> queued ("waiting to be sent") ──> saved | refused by the server: the values sent come
//     back into the form with the reason at the field it names | crossed a change made elsewhere:
//     the sync page resolves it
//
// A network's or a program's "Inherit everything" (the organization's "Clear all") sets none.
//
// The plan: setting these needs the organization's apple-premium (billing). When the session says
// the plan lacks it (usePlanIncludes, known offline too from the session kept on the device), the
// fields are shown as they are, not offered for change, and the section says why, with the way to
// Billing & features; clearing stays possible, as the server allows. A change the server refused
// for the plan (the plan changed since the session was read) says the same, as an alert.
import { useEffect, useState, useId, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import {
  APPLE_EARLY_ACCESS_HOURS_MAX,
  APPLE_PREMIUM_DEFAULTS,
  APPLE_PREMIUM_FIELDS,
  applePremiumDeliveryErrors,
  applePremiumErrors,
  effectiveApplePremium,
  EMPTY_APPLE_PREMIUM,
  normalizeApplePremium,
  type ApplePremiumField,
  type ApplePremiumSource,
  type ApplePremiumValues,
} from '../../domain/apple-premium.ts';
import { networkFlags, organizationFlags, programFlags } from '../../domain/access.ts';
import { formatFormError } from '../../domain/messages.ts';
import type { PermissionFlags } from '../../domain/permissions.ts';
import { settingsAccess } from '../../domain/settings.ts';
import { networkSetApplePremium, organizationSetApplePremium, programSetApplePremium } from '../../mutations/settings.ts';
import { setApplePremium } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { useQueuedSetting, type QueuedSetting } from '../../lib/normalization.ts';
import { useIdParams } from '../../lib/params.ts';
import { useRow } from '../../lib/rows.ts';
import { notePlanLacks, organizationById, sessionConfirmedOnDeviceAt, usePlanIncludes, useSession } from '../../lib/session.ts';
import { readPlanRefusal } from '../../protocol/api/plans.ts';
import { PlanNotice } from '../../ui/PlanNotice.tsx';
import * as planWords from '../../paraglide/areas/plans.js';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { Field } from '../../ui/Field.tsx';
import { QueuedSettingNote } from '../../ui/QueuedSettingNote.tsx';

export type ApplePremiumTarget =
  | { level: 'Organization'; organizationId: string }
  | { level: 'Network'; organizationId: string; networkId: string; name: string }
  | { level: 'Program'; organizationId: string; programId: string; networkId: string | null };

const TABLE = { Organization: 'organizations', Network: 'networks', Program: 'programs' } as const;
const MUTATION = { Organization: organizationSetApplePremium.name, Network: networkSetApplePremium.name, Program: programSetApplePremium.name } as const;

const idOf = (target: ApplePremiumTarget) => (target.level === 'Organization' ? target.organizationId : target.level === 'Network' ? target.networkId : target.programId);

/** What the form holds: text as typed ('' = not set here); the switches as 'on', 'off' or '' (inherit). */
type Draft = Record<ApplePremiumField, string>;

const toDraft = (v: ApplePremiumValues): Draft => ({
  Enabled: v.Enabled === null ? '' : v.Enabled ? 'on' : 'off',
  ProviderId: v.ProviderId ?? '',
  ChannelId: v.ChannelId ?? '',
  ShowId: v.ShowId ?? '',
  DeliverAdFree: v.DeliverAdFree === null ? '' : v.DeliverAdFree ? 'on' : 'off',
  EarlyAccessHours: v.EarlyAccessHours === null ? '' : String(v.EarlyAccessHours),
});

/** The values a draft stands for (normalized as the server keeps them). A number the browser
 *  could not read stays NaN, for the rule to refuse at its field. */
function fromDraft(d: Draft): ApplePremiumValues {
  const flag = (v: string) => (v === '' ? null : v === 'on');
  const hours = d.EarlyAccessHours.trim();
  return normalizeApplePremium({
    Enabled: flag(d.Enabled),
    ProviderId: d.ProviderId,
    ChannelId: d.ChannelId,
    ShowId: d.ShowId,
    DeliverAdFree: flag(d.DeliverAdFree),
    EarlyAccessHours: hours === '' ? null : Number(hours),
  });
}

const sameValues = (a: ApplePremiumValues, b: ApplePremiumValues) => APPLE_PREMIUM_FIELDS.every((f) => a[f] === b[f]);
const valuesOf = (row: Record<string, unknown> | undefined): ApplePremiumValues | null => (row?.['ApplePremium'] as ApplePremiumValues | null | undefined) ?? null;

function flagsOf(target: ApplePremiumTarget, entries: Parameters<typeof organizationFlags>[0]): PermissionFlags {
  if (target.level === 'Organization') return organizationFlags(entries);
  if (target.level === 'Network') return networkFlags(entries, target.networkId);
  return programFlags(entries, { id: target.programId, networkId: target.networkId });
}

/** The Organization settings tab: the organization in the address. */
export function OrganizationApplePremium() {
  const { organizationId } = useIdParams('organizationId');
  return <ApplePremiumSettings level="Organization" organizationId={organizationId} />;
}

/** The section: hidden from those who may not read this level's settings (section 6). */
export function ApplePremiumSettings(target: ApplePremiumTarget) {
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, target.organizationId)?.UserPermissions : undefined) ?? [];
  const access = settingsAccess(target.level, flagsOf(target, entries));
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!access.read) return null;
  if (target.level !== 'Network') return <ApplePremiumSection target={target} mayWrite={access.write} />;
  // Under each network of the Networks page: opened on demand, as its people are.
  return (
    <div className="object-people network-apple">
      <button type="button" className="button" aria-expanded={open} aria-controls={panelId} aria-label={`${m.settings_apple_show()}: ${target.name}`} onClick={() => setOpen(!open)}>
        {open ? m.settings_apple_hide() : m.settings_apple_show()}
      </button>
      {open && (
        <div id={panelId}>
          <ApplePremiumSection target={target} mayWrite={access.write} />
        </div>
      )}
    </div>
  );
}

function ApplePremiumSection({ target, mayWrite }: { target: ApplePremiumTarget; mayWrite: boolean }) {
  const row = useRow(TABLE[target.level], idOf(target));
  const organization = useRow('organizations', target.organizationId);
  const networkId = target.level === 'Program' ? target.networkId : null;
  // Rows never found for an empty id: a program outside a network reads no network.
  const network = useRow('networks', networkId ?? '');
  const queued = useQueuedSetting(TABLE[target.level], idOf(target), MUTATION[target.level]);
  if (row.state !== 'ok') return <p className="muted">{m.settings_normalization_not_here()}</p>;
  const saved = valuesOf(row.row) ?? EMPTY_APPLE_PREMIUM;
  const above = {
    Organization: target.level === 'Organization' || organization.state !== 'ok' ? null : valuesOf(organization.row),
    Network: networkId && network.state === 'ok' ? valuesOf(network.row) : null,
  };
  // A change the server refused comes back into the form, its reasons at the fields they name.
  const refused = queued.refused.at(-1);
  // (Not one the plan refused: that change cannot be made, so the form shows what is saved.)
  const forPlan = refused !== undefined && readPlanRefusal({ Errors: refused.errors })?.kind === 'feature';
  const sent = refused && !forPlan ? ((refused.mutation.args as { ApplePremium?: ApplePremiumValues | null }).ApplePremium ?? EMPTY_APPLE_PREMIUM) : null;
  // Keyed by the saved values and the last refusal: a change arriving from elsewhere starts the form afresh.
  const key = `${JSON.stringify(saved)}|${refused?.id ?? ''}`;
  return <ApplePremiumForm key={key} target={target} mayWrite={mayWrite} saved={saved} sent={sent} above={above} queued={queued} />;
}

const SOURCE_TEXT: Record<ApplePremiumSource, () => string> = {
  Organization: () => m.settings_apple_from_organization(),
  Network: () => m.settings_apple_from_network(),
  Program: () => m.settings_apple_from_program(),
  Default: () => m.settings_apple_from_default(),
};

type FormProps = {
  target: ApplePremiumTarget;
  mayWrite: boolean;
  saved: ApplePremiumValues;
  sent: ApplePremiumValues | null;
  above: { Organization: ApplePremiumValues | null; Network: ApplePremiumValues | null };
  queued: QueuedSetting;
};

function ApplePremiumForm({ target, mayWrite, saved, sent, above, queued }: FormProps) {
  const headingId = useId();
  const [draft, setDraft] = useState<Draft>(toDraft(sent ?? saved));
  const [errors, setErrors] = useState<Partial<Record<ApplePremiumField, string>>>({});
  const values = fromDraft(draft);
  // The plan: known from the session, or from the server's refusal of this device's last change.
  const lastErrors = queued.refused.at(-1)?.errors ?? [];
  const refusedForPlan = readPlanRefusal({ Errors: lastErrors })?.kind === 'feature';
  // A refusal from before the server last confirmed the session is answered by it (the plan may
  // include the feature again): it neither locks the form nor takes the feature out of the session.
  const planRefusal = refusedForPlan && (queued.refused.at(-1)?.createdAt ?? 0) >= sessionConfirmedOnDeviceAt();
  const notInPlan = !usePlanIncludes(target.organizationId, 'apple-premium') || planRefusal;
  // The device remembers it: the other levels' sections say it too, offline as well.
  useEffect(() => {
    if (planRefusal) notePlanLacks(target.organizationId, 'apple-premium');
  }, [planRefusal, target.organizationId]);
  const dirty = !sameValues(values, saved);
  useUnsavedGuard('form', dirty && !notInPlan);

  // The server's refusal of this device's last change, at the field it names while it reads as sent.
  const refusedAt = new Map<string, string>();
  if (!refusedForPlan) for (const e of lastErrors) refusedAt.set(e.Field, refusedFieldText(e, TABLE[target.level]));
  const asSent = sent !== null && sameValues(values, sent);
  const refusedWhole = !refusedForPlan && queued.refusal !== undefined && (refusedAt.size === 0 || !asSent) ? queued.refusal : undefined;
  const errorAt = (field: ApplePremiumField) => errors[field] ?? (asSent ? refusedAt.get(field) : undefined);

  const { values: effective, sources } = effectiveApplePremium({ ...above, Program: null, [target.level]: { ...EMPTY_APPLE_PREMIUM } });

  const set = (field: ApplePremiumField, value: string) => {
    setDraft({ ...draft, [field]: value });
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  /** What an empty field stands for here: the value of the levels above (or the studio's default), and whose. */
  const inheritedHint = (field: ApplePremiumField, describe: (value: unknown) => string): string => {
    const value = effective[field];
    if (value === null || (target.level === 'Organization' && APPLE_PREMIUM_DEFAULTS[field] === null)) return '';
    return m.settings_apple_inherited({ value: describe(value), source: SOURCE_TEXT[sources[field]]() });
  };
  const onOff = (v: unknown) => (v === true ? m.settings_apple_on() : m.settings_apple_off());
  const asText = (v: unknown) => String(v);

  const save = async (next: ApplePremiumValues | null, done: string) => {
    if (!(await withLoading(savedLocally(setApplePremium(target.level, idOf(target), next))))) return;
    // A refused change is answered by this one.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    showSavedToast(done);
  };

  const apply = (e: FormEvent) => {
    e.preventDefault();
    // The domain's rules before anything is queued: each field, then delivery in effect.
    const problems = [...applePremiumErrors(target.level, values), ...applePremiumDeliveryErrors(target.level, effectiveApplePremium({ ...above, Program: null, [target.level]: values }).values)];
    if (problems.length > 0) return setErrors(Object.fromEntries(problems.map((p) => [p.field, formatFormError(p.error)])));
    void save(values, m.settings_apple_saved());
  };

  const disabled = !mayWrite || notInPlan;
  const choice = (field: 'Enabled' | 'DeliverAdFree', label: string, on: string, off: string) => {
    const hint = inheritedHint(field, onOff);
    return (
      <Field label={label} error={errorAt(field)} {...(hint ? { hint } : {})}>
        <select value={draft[field]} disabled={disabled} onChange={(e) => set(field, e.target.value)}>
          <option value="">{target.level === 'Organization' ? m.settings_apple_not_set() : m.settings_apple_inherit()}</option>
          <option value="on">{on}</option>
          <option value="off">{off}</option>
        </select>
      </Field>
    );
  };
  const text = (field: 'ProviderId' | 'ChannelId' | 'ShowId', label: string, hint: string, inputMode?: 'numeric') => (
    <Field label={label} error={errorAt(field)} hint={[hint, inheritedHint(field, asText)].filter(Boolean).join(' ')}>
      <input type="text" value={draft[field]} disabled={disabled} autoComplete="off" spellCheck={false} {...(inputMode ? { inputMode } : {})} onChange={(e) => set(field, e.target.value)} />
    </Field>
  );
  const anySaved = !sameValues(saved, EMPTY_APPLE_PREMIUM);

  return (
    <form className="card form apple-premium" aria-labelledby={headingId} noValidate onSubmit={apply}>
      <h2 id={headingId}>{m.settings_apple_title()}</h2>
      <p className="muted">{target.level === 'Program' ? m.settings_apple_intro_program() : target.level === 'Network' ? m.settings_apple_intro_network() : m.settings_apple_intro_organization()}</p>
      {!mayWrite && <p className="alert alert-info">{m.settings_apple_read_only()}</p>}
      {mayWrite && notInPlan && (
        <PlanNotice organizationId={target.organizationId} feature="apple-premium" role={planRefusal ? 'alert' : 'status'} heading="none" className={`alert ${planRefusal ? 'alert-danger' : 'alert-info'}`}>
          <p>{planWords.plans_settings_locked()}</p>
        </PlanNotice>
      )}
      {refusedWhole && (
        <p className="alert alert-danger" role="alert">
          {m.settings_apple_refused({ reason: refusedWhole })}
        </p>
      )}
      {choice('Enabled', m.settings_apple_enabled(), m.settings_apple_enabled_on(), m.settings_apple_enabled_off())}
      {text('ProviderId', m.settings_apple_provider(), m.settings_apple_provider_hint())}
      {text('ChannelId', m.settings_apple_channel(), m.settings_apple_channel_hint(), 'numeric')}
      {target.level === 'Program' && text('ShowId', m.settings_apple_show_id(), m.settings_apple_show_id_hint())}
      {choice('DeliverAdFree', m.settings_apple_ad_free(), m.settings_apple_ad_free_on(), m.settings_apple_ad_free_off())}
      <Field label={m.settings_apple_early()} error={errorAt('EarlyAccessHours')} hint={[m.settings_apple_early_hint({ max: APPLE_EARLY_ACCESS_HOURS_MAX }), inheritedHint('EarlyAccessHours', asText)].filter(Boolean).join(' ')}>
        <input type="number" min={0} max={APPLE_EARLY_ACCESS_HOURS_MAX} step={1} inputMode="numeric" value={draft.EarlyAccessHours} disabled={disabled} onChange={(e) => set('EarlyAccessHours', e.target.value)} />
      </Field>
      <QueuedSettingNote queued={queued} organizationId={target.organizationId} />
      {mayWrite && (
        <div className="form-actions">
          {anySaved && (
            <button type="button" className="button" onClick={() => void save(null, target.level === 'Organization' ? m.settings_apple_cleared() : m.settings_apple_inherits_all())}>
              {target.level === 'Organization' ? m.settings_apple_clear() : m.settings_apple_inherit_all()}
            </button>
          )}
          {!notInPlan && (
            <button type="submit" className="button primary" disabled={!dirty}>
              {m.app_form_apply()}
            </button>
          )}
        </div>
      )}
    </form>
  );
}
