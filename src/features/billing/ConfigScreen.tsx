// /{organizationId}/config: the Admin section's "Admin settings" (issue 33), for admin and support
// users: the studio's configuration as it runs (GET /internal/config: never a secret, only whether
// one is set) and the plan and features in effect for the organization acted in
// (GET /internal/config/organization, read from its subscription). Read-only; it needs the network
// and says so offline.
import { useCallback, useEffect, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Feature } from '../../domain/billing.ts';
import { FEATURE_LABEL } from '../../domain/billing-words.ts';
import { getConfig, getOrganizationConfig, type ConfigSection, type OrganizationConfig } from '../../protocol/api/config.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';

type State = { kind: 'loading' } | { kind: 'failed'; status: number | null } | { kind: 'ready'; sections: ConfigSection[]; organization: OrganizationConfig };
type Value = ConfigSection['Values'][string];

function shown(value: Value): string {
  if (value === null) return m.billing_config_not_set();
  if (typeof value === 'boolean') return value ? m.billing_config_yes() : m.billing_config_no();
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : '—';
  return String(value);
}

export function ConfigScreen() {
  const online = useOnline();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const load = useCallback(async () => {
    const [config, organization] = await withLoading(Promise.all([call(getConfig), call(getOrganizationConfig)]));
    if (config.kind === 'ok' && organization.kind === 'ok') setState({ kind: 'ready', sections: config.data.Sections, organization: organization.data });
    else setState({ kind: 'failed', status: config.kind === 'status' ? config.status : organization.kind === 'status' ? organization.status : null });
  }, []);
  // Offline nothing is asked: the server holds the configuration. Back online, it loads again.
  useEffect(() => {
    if (online) void load();
  }, [load, online]);

  return (
    <>
      <PageHeader title={m.billing_config_title()} />
      <p className="muted">{m.billing_config_intro()}</p>
      {!online && (
        <p className="muted" role="status">
          {m.billing_config_offline()}
        </p>
      )}
      {state.kind === 'loading' && online && <p className="muted">{m.billing_config_loading()}</p>}
      {state.kind === 'failed' && online && (
        <div role="alert">
          <p>{state.status === 403 ? m.billing_config_forbidden() : m.billing_config_load_failed()}</p>
          {state.status !== 403 && (
            <button type="button" className="button" onClick={() => void load()}>
              {m.billing_retry()}
            </button>
          )}
        </div>
      )}
      {state.kind === 'ready' && (
        <>
          <section className="card" aria-labelledby="config-organization">
            <h2 id="config-organization">{m.billing_config_organization()}</h2>
            <dl>
              <dt>{state.organization.Name}</dt>
              <dd>{state.organization.Provider}</dd>
              <dt>{m.billing_config_plan()}</dt>
              <dd>{state.organization.Plan}</dd>
              <dt>{m.billing_config_features()}</dt>
              <dd>{state.organization.Features.length > 0 ? state.organization.Features.map((f: Feature) => FEATURE_LABEL[f]()).join(', ') : m.billing_no_features()}</dd>
            </dl>
          </section>
          {state.sections.map((section) => (
            <section key={section.Name} className="card" aria-labelledby={`config-${section.Name}`} style={{ marginTop: '1rem' }}>
              {/* Section and setting names are the configuration's own identifiers, as the API and the environment spell them. */}
              <h2 id={`config-${section.Name}`}>
                <code>{section.Name}</code>
              </h2>
              {Object.keys(section.Values).length > 0 && <ValueList values={section.Values} />}
              {section.Entries.map((entry) => (
                <details key={entry.Id}>
                  <summary>
                    <code>{entry.Id}</code>
                  </summary>
                  <ValueList values={entry.Values} />
                </details>
              ))}
            </section>
          ))}
        </>
      )}
    </>
  );
}

/** Settings by their own names (as the API and the environment spell them) and their values. */
function ValueList({ values }: { values: ConfigSection['Values'] }) {
  return (
    <dl style={{ overflowWrap: 'anywhere' }}>
      {Object.entries(values).map(([key, value]) => (
        <div key={key}>
          <dt>
            <code>{key}</code>
          </dt>
          <dd>{shown(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
