// Apple Podcasts Subscriptions settings of the organization (a tab of Organization settings), a
// network (a panel opened under it on the Networks page) or a program (a section of its settings).
// Rules and inheritance: src/domain/apple-premium.ts. These settings are kept on the server, not on
// the device, so the section loads them when online and says it needs the connection otherwise.
//
//   loading ──> form (each field: a value of this level, or empty: inherited, with what is in
//   effect and whose it is) ──Apply──> saved | refused at the field | changed elsewhere: the
//   values typed are kept, the saved ones shown, Apply again replaces them
//
// A network's or a program's "Inherit everything" drops its own values (DELETE).
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { APPLE_EARLY_ACCESS_HOURS_MAX, APPLE_PREMIUM_DEFAULTS, APPLE_PREMIUM_FIELDS, type ApplePremiumField, type ApplePremiumLevel, type ApplePremiumSource } from '../../domain/apple-premium.ts';
import { networkFlags, organizationFlags, programFlags } from '../../domain/access.ts';
import { fieldErrorText } from '../../domain/messages.ts';
import type { PermissionFlags } from '../../domain/permissions.ts';
import { settingsAccess } from '../../domain/settings.ts';
import { networkApplePremium, organizationApplePremium, programApplePremium, type ApplePremiumSettings as Settings } from '../../protocol/api/apple-premium.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';
import { useIdParams } from '../../lib/params.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { Field } from '../../ui/Field.tsx';

export type ApplePremiumTarget =
  | { level: 'Organization'; organizationId: string }
  | { level: 'Network'; organizationId: string; networkId: string; name: string }
  | { level: 'Program'; organizationId: string; programId: string; networkId: string | null };

/** What the form holds: text as typed ('' = not set here); the switches as 'on', 'off' or '' (inherit). */
type Draft = { Enabled: string; ProviderId: string; ChannelId: string; ShowId: string; DeliverAdFree: string; EarlyAccessHours: string };

const toDraft = (s: Settings): Draft => ({
  Enabled: s.Enabled === null ? '' : s.Enabled ? 'on' : 'off',
  ProviderId: s.ProviderId ?? '',
  ChannelId: s.ChannelId ?? '',
  ShowId: s.ShowId ?? '',
  DeliverAdFree: s.DeliverAdFree === null ? '' : s.DeliverAdFree ? 'on' : 'off',
  EarlyAccessHours: s.EarlyAccessHours === null ? '' : String(s.EarlyAccessHours),
});

const sameDraft = (a: Draft, b: Draft) => APPLE_PREMIUM_FIELDS.every((f) => a[f] === b[f]);

/** The body of the PUT: every field, empty ones as not set here. A number the browser could not
 *  read goes as typed, for the server's rule to name it. */
function toBody(d: Draft, level: ApplePremiumLevel) {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  const flag = (v: string) => (v === '' ? null : v === 'on');
  const hours = d.EarlyAccessHours.trim();
  return {
    Enabled: flag(d.Enabled),
    ProviderId: text(d.ProviderId),
    ChannelId: text(d.ChannelId),
    ...(level === 'Program' ? { ShowId: text(d.ShowId) } : {}),
    DeliverAdFree: flag(d.DeliverAdFree),
    EarlyAccessHours: hours === '' ? null : Number(hours),
  };
}

function flagsOf(target: ApplePremiumTarget, entries: Parameters<typeof organizationFlags>[0]): PermissionFlags {
  if (target.level === 'Organization') return organizationFlags(entries);
  if (target.level === 'Network') return networkFlags(entries, target.networkId);
  return programFlags(entries, { id: target.programId, networkId: target.networkId });
}

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ok'; own: Settings; effective: Settings | null };

async function load(target: ApplePremiumTarget): Promise<Loaded> {
  const own: ApiResult<Settings> =
    target.level === 'Organization'
      ? await call(organizationApplePremium.get)
      : target.level === 'Network'
        ? await call(networkApplePremium.get, { params: { networkId: target.networkId } })
        : await call(programApplePremium.get, { params: { programId: target.programId } });
  if (own.kind !== 'ok') return { kind: 'failed' };
  if (target.level !== 'Program') return { kind: 'ok', own: own.data, effective: null };
  const effective = await call(programApplePremium.get, { params: { programId: target.programId }, query: { inherit: 'true' } });
  return effective.kind === 'ok' ? { kind: 'ok', own: own.data, effective: effective.data } : { kind: 'failed' };
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
  if (target.level !== 'Network') return <ApplePremiumForm target={target} mayWrite={access.write} />;
  // Under each network of the Networks page: opened on demand, as its people are.
  return (
    <div className="object-people network-apple">
      <button type="button" className="button" aria-expanded={open} aria-controls={panelId} aria-label={`${m.settings_apple_show()}: ${target.name}`} onClick={() => setOpen(!open)}>
        {open ? m.settings_apple_hide() : m.settings_apple_show()}
      </button>
      {open && (
        <div id={panelId}>
          <ApplePremiumForm target={target} mayWrite={access.write} />
        </div>
      )}
    </div>
  );
}

const SOURCE_TEXT: Record<ApplePremiumSource, () => string> = {
  Organization: () => m.settings_apple_from_organization(),
  Network: () => m.settings_apple_from_network(),
  Program: () => m.settings_apple_from_program(),
  Default: () => m.settings_apple_from_default(),
};

function ApplePremiumForm({ target, mayWrite }: { target: ApplePremiumTarget; mayWrite: boolean }) {
  const online = useOnline();
  const headingId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<ApplePremiumField | 'form', string>>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const saved = loaded.kind === 'ok' ? toDraft(loaded.own) : null;
  const shown = draft ?? saved;
  const dirty = draft !== null && saved !== null && !sameDraft(draft, saved);
  useUnsavedGuard('form', dirty);

  // The form stays as it is while the saved values are read again (after a change).
  const reload = useCallback(async () => {
    setLoaded(await load(target));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the target's ids, not its object identity
  }, [target.level, target.organizationId, 'networkId' in target ? target.networkId : null, 'programId' in target ? target.programId : null]);

  useEffect(() => {
    if (online && loaded.kind !== 'ok') void reload();
  }, [online, reload, loaded.kind]);

  if (!online && !dirty && loaded.kind !== 'ok') {
    return (
      <section className="card form" aria-labelledby={headingId}>
        <h2 id={headingId}>{m.settings_apple_title()}</h2>
        <p className="muted" role="status">{m.settings_apple_offline()}</p>
      </section>
    );
  }
  if (loaded.kind === 'loading' || !shown) {
    return (
      <section className="card form" aria-labelledby={headingId}>
        <h2 id={headingId}>{m.settings_apple_title()}</h2>
        {loaded.kind === 'failed' ? (
          <div className="alert alert-error" role="alert">
            <p>{m.settings_apple_load_failed()}</p>
            <button
              type="button"
              className="button small"
              onClick={() => {
                setLoaded({ kind: 'loading' });
                void reload();
              }}
            >
              {m.settings_apple_retry()}
            </button>
          </div>
        ) : (
          <p className="muted">{m.settings_apple_loading()}</p>
        )}
      </section>
    );
  }
  const own = loaded.kind === 'ok' ? loaded.own : null;
  const effective = loaded.kind === 'ok' ? loaded.effective : null;

  const set = (field: ApplePremiumField, value: string) => {
    setDraft({ ...shown, [field]: value });
    setErrors(({ [field]: _field, form: _form, ...rest }) => rest);
    setNotice(null);
  };

  /** What an empty field means here: the value in effect and whose it is (a program), else "inherited". */
  const inheritedHint = (field: ApplePremiumField, describe: (value: unknown) => string): string => {
    if (target.level === 'Organization') {
      // Nothing above the organization: an empty field is the studio's default (none for the IDs).
      const fallback = APPLE_PREMIUM_DEFAULTS[field];
      return fallback === null ? '' : m.settings_apple_inherited({ value: describe(fallback), source: SOURCE_TEXT.Default() });
    }
    if (!effective?.Sources) return m.settings_apple_empty_inherits();
    const source = effective.Sources[field];
    // The program's own value is in effect: nothing is inherited now.
    if (source === 'Program') return m.settings_apple_empty_inherits();
    const value = effective[field];
    return m.settings_apple_inherited({ value: value === null ? m.settings_apple_none() : describe(value), source: SOURCE_TEXT[source]() });
  };
  const onOff = (v: unknown) => (v === true ? m.settings_apple_on() : m.settings_apple_off());
  const asText = (v: unknown) => String(v);

  const answer = (res: ApiResult<Settings | null>, after: () => void) => {
    if (res.kind === 'ok') return after();
    if (res.kind === 'badRequest') {
      const next: Partial<Record<ApplePremiumField | 'form', string>> = {};
      for (const error of res.body.Errors) {
        const field = (APPLE_PREMIUM_FIELDS as readonly string[]).includes(error.Field) ? (error.Field as ApplePremiumField) : 'form';
        next[field] ??= fieldErrorText(error);
      }
      return setErrors(next);
    }
    if (res.kind === 'status' && res.status === 412) {
      // Changed elsewhere meanwhile: what was typed stays; the saved values are shown and the
      // next Apply is made on them.
      const current = res.body as Settings | null | undefined;
      if (current) setLoaded((l) => (l.kind === 'ok' ? { ...l, own: current } : l));
      else void reload();
      return setErrors({ form: m.settings_apple_conflict() });
    }
    setErrors({ form: res.kind === 'error' ? m.settings_apple_offline() : res.kind === 'status' && res.status === 403 ? m.settings_apple_read_only() : m.settings_apple_save_failed() });
  };

  const ifMatch = own?.ModifiedAtUtc ? { 'if-match': `"${own.ModifiedAtUtc}"` } : undefined;
  const apply = async (e: FormEvent) => {
    e.preventDefault();
    if (!shown) return;
    const json = toBody(shown, target.level);
    const headers = ifMatch ? { headers: ifMatch } : {};
    const res =
      target.level === 'Organization'
        ? await withLoading(call(organizationApplePremium.put, { json, ...headers }))
        : target.level === 'Network'
          ? await withLoading(call(networkApplePremium.put, { params: { networkId: target.networkId }, json, ...headers }))
          : await withLoading(call(programApplePremium.put, { params: { programId: target.programId }, json, ...headers }));
    answer(res, () => {
      setDraft(null);
      setErrors({});
      void reload();
      showSavedToast(m.settings_apple_saved());
    });
  };
  const inheritAll = async () => {
    const headers = ifMatch ? { headers: ifMatch } : {};
    const res =
      target.level === 'Network'
        ? await withLoading(call(networkApplePremium.delete, { params: { networkId: target.networkId }, ...headers }))
        : target.level === 'Program'
          ? await withLoading(call(programApplePremium.delete, { params: { programId: target.programId }, ...headers }))
          : await withLoading(call(organizationApplePremium.delete, { ...headers }));
    answer(res, () => {
      setDraft(null);
      setErrors({});
      setNotice(target.level === 'Organization' ? m.settings_apple_cleared() : m.settings_apple_inherits_all());
      void reload();
    });
  };

  const disabled = !mayWrite;
  const choice = (field: 'Enabled' | 'DeliverAdFree', label: string, on: string, off: string) => (
    <Field label={label} error={errors[field]} {...(inheritedHint(field, onOff) ? { hint: inheritedHint(field, onOff) } : {})}>
      <select value={shown[field]} disabled={disabled} onChange={(e) => set(field, e.target.value)}>
        <option value="">{target.level === 'Organization' ? m.settings_apple_not_set() : m.settings_apple_inherit()}</option>
        <option value="on">{on}</option>
        <option value="off">{off}</option>
      </select>
    </Field>
  );
  const text = (field: 'ProviderId' | 'ChannelId' | 'ShowId', label: string, hint: string, inputMode?: 'numeric') => {
    const inherited = inheritedHint(field, asText);
    return (
      <Field label={label} error={errors[field]} hint={[hint, inherited].filter(Boolean).join(' ')}>
        <input type="text" value={shown[field]} disabled={disabled} autoComplete="off" spellCheck={false} {...(inputMode ? { inputMode } : {})} onChange={(e) => set(field, e.target.value)} />
      </Field>
    );
  };

  return (
    <form className="card form apple-premium" aria-labelledby={headingId} noValidate onSubmit={(e) => void apply(e)}>
      <h2 id={headingId}>{m.settings_apple_title()}</h2>
      <p className="muted">{target.level === 'Program' ? m.settings_apple_intro_program() : target.level === 'Network' ? m.settings_apple_intro_network() : m.settings_apple_intro_organization()}</p>
      {!online && <p className="muted" role="status">{m.settings_apple_offline()}</p>}
      {!mayWrite && <p className="alert alert-info">{m.settings_apple_read_only()}</p>}
      {errors.form && (
        <p className="alert alert-error" role="alert">
          {errors.form}
        </p>
      )}
      {notice && (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      )}
      {choice('Enabled', m.settings_apple_enabled(), m.settings_apple_enabled_on(), m.settings_apple_enabled_off())}
      {text('ProviderId', m.settings_apple_provider(), m.settings_apple_provider_hint())}
      {text('ChannelId', m.settings_apple_channel(), m.settings_apple_channel_hint(), 'numeric')}
      {target.level === 'Program' && text('ShowId', m.settings_apple_show_id(), m.settings_apple_show_id_hint())}
      {choice('DeliverAdFree', m.settings_apple_ad_free(), m.settings_apple_ad_free_on(), m.settings_apple_ad_free_off())}
      <Field label={m.settings_apple_early()} error={errors.EarlyAccessHours} hint={[m.settings_apple_early_hint({ max: APPLE_EARLY_ACCESS_HOURS_MAX }), inheritedHint('EarlyAccessHours', asText)].filter(Boolean).join(' ')}>
        <input type="number" min={0} max={APPLE_EARLY_ACCESS_HOURS_MAX} step={1} inputMode="numeric" value={shown.EarlyAccessHours} disabled={disabled} onChange={(e) => set('EarlyAccessHours', e.target.value)} />
      </Field>
      {mayWrite && (
        <div className="form-actions">
          {own?.ModifiedAtUtc && (
            <button type="button" className="button" disabled={!online} onClick={() => void inheritAll()}>
              {target.level === 'Organization' ? m.settings_apple_clear() : m.settings_apple_inherit_all()}
            </button>
          )}
          <button type="submit" className="button primary" disabled={!dirty || !online}>
            {m.app_form_apply()}
          </button>
        </div>
      )}
    </form>
  );
}
