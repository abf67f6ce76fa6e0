// /enterprises — Enterprises (section 2's route; section 6: admins and users with reseller
// access). The enterprises the caller may see (an admin every one, a reseller its own: the server
// decides), filtered by name; the filter is in the address (?filter=…), so back and reload keep it.
import { useId, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { enterprisePath, enterprisesPath } from '../../domain/enterprises.ts';
import { listEnterprises, type EnterpriseSummary } from '../../protocol/api/enterprises.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { Link, navigate, useSearch } from '../../lib/router.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { MoreButton, StateNote, useMore } from './EnterpriseParts.tsx';
import { useServerRead } from './load.ts';
import './enterprises.css';

const PAGE_SIZE = 50;

export function EnterprisesScreen() {
  const online = useOnline();
  const inputId = useId();
  const filter = new URLSearchParams(useSearch()).get('filter') ?? '';
  const [text, setText] = useState(filter);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = text.trim();
    navigate(next ? `${enterprisesPath()}?filter=${encodeURIComponent(next)}` : enterprisesPath());
  };

  return (
    <>
      <PageHeader title={m.app_menu_enterprises()} />
      <p className="muted">{m.enterprises_intro()}</p>
      <form className="card form enterprises-filter" role="search" aria-label={m.enterprises_filter()} onSubmit={submit}>
        <div className="field">
          <label htmlFor={inputId}>{m.enterprises_filter()}</label>
          <input id={inputId} type="search" value={text} autoComplete="off" onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button" disabled={!online}>
            {m.enterprises_filter_apply()}
          </button>
        </div>
      </form>
      {/* A new filter is a new list: its later pages start again. */}
      <EnterpriseList key={filter} filter={filter} />
    </>
  );
}

function EnterpriseList({ filter }: { filter: string }) {
  const query = (page: number) => call(listEnterprises, { query: { page: String(page), pageSize: String(PAGE_SIZE), ...(filter ? { filter } : {}) } });
  const [state] = useServerRead(`enterprises:${filter}`, () => query(1));
  const { more, failed, showMore } = useMore<EnterpriseSummary>(query);
  const first = state.kind === 'ok' ? state.data : null;
  const items = [...(first?.Items ?? []), ...(more?.items ?? [])];
  return (
    <>
      <StateNote state={state} />
      {first && items.length === 0 && (
        <p className="muted" role="status">
          {filter ? m.enterprises_none_matching({ filter }) : m.enterprises_none()}
        </p>
      )}
      {items.length > 0 && (
        <ul className="plain-list" aria-label={m.enterprises_list()}>
          {items.map((e) => (
            <li key={e.Id} className="card enterprise-card">
              <h2 className="enterprise-card-title">
                <Link href={enterprisePath(e.Id)}>{e.Name}</Link>
              </h2>
              <p className="muted enterprise-counts">
                <span>{m.enterprises_organization_count({ count: e.OrganizationCount })}</span>
                <span>{m.enterprises_user_count({ count: e.UserCount })}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
      <MoreButton hasNext={more ? more.hasNext : (first?.HasNext ?? false)} failed={failed} onMore={() => void showMore()} />
    </>
  );
}
