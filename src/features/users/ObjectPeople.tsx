// The people of one program or network (section 6: permissions "per user within a network and
// within a program"; section 7: GET /v1/{programs|networks}/{id}/users, PUT …/users/{userId}/
// permissions, GET /internal/…/user-profiles/eligible): who has access there and what they may do,
// a person's flags there changed or taken away, and a member who has none added. Shown only to
// those who manage users there (managesUsersOn); src/app puts it on a program's settings screen
// and under each network of the networks screen (features do not import each other).
//
// These lists are the server's alone: read a page at a time while online (useServerPages), said in
// a line when offline or refused. A save is checked at its flags first (section 6's rules, and only
// flags the manager holds there: the server's 403), then a refusal shows where it was made.
//
//   listed ──Change──> flags ──Save──> PUT ──ok──> listed again
//      │                                 └─400 / 403──> at the flag (or under the flags)
//      ├─Remove access──> confirm ──> PUT with no flag on ──> listed again
//      └─Add a person──> search the eligible ──pick, flags──> PUT ──ok──> listed again
import { useCallback, useEffect, useId, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { formatFormError, fieldErrorText } from '../../domain/messages.ts';
import { missingFlags } from '../../domain/access.ts';
import type { PermissionFlagName } from '../../domain/permissions.ts';
import { entryFor, flagsOn, managesUsersOn, type AccessObject } from '../../domain/users.ts';
import { listNetworkEligibleProfiles, listNetworkUsers, listProgramEligibleProfiles, listProgramUsers, setNetworkUserPermissions, setProgramUserPermissions } from '../../protocol/api/users.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ServerPagesStatus, useServerPages } from '../../ui/ServerPages.tsx';
import type { BadRequestBody } from '../../protocol/errors.ts';
import { FLAG_LABEL, FlagSet } from './PermissionFields.tsx';
import { FLAGS, memberOf, objectFlagErrors, objectFlagKey, type Flags, type Member } from './permission-draft.ts';
import './users.css';

const PAGE_SIZE = '50';

type Props = { organizationId: string; object: AccessObject; name: string };
type Profile = { Id: string; Name: string; Email: string };
/** Error texts among one object's flags: by flag, or 'form' under them. */
type FlagErrors = Partial<Record<PermissionFlagName | 'form', string>>;

/** A program's people: a section of its settings screen. */
export function ProgramPeople({ organizationId, programId, networkId, name }: { organizationId: string; programId: string; networkId: string | null; name: string }) {
  const object: AccessObject = { kind: 'program', programId, networkId };
  if (!useManages(organizationId, object)) return null;
  const headingId = `people-${programId}`;
  return (
    <section className="card form object-people" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.users_people_title()}</h2>
      <PeoplePanel organizationId={organizationId} object={object} name={name} />
    </section>
  );
}

/** A network's people: a button under the network that shows and hides them. */
export function NetworkPeople({ organizationId, networkId, name }: { organizationId: string; networkId: string; name: string }) {
  const object: AccessObject = { kind: 'network', networkId };
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!useManages(organizationId, object)) return null;
  return (
    <div className="object-people network-people">
      <button type="button" className="button" aria-expanded={open} aria-controls={panelId} aria-label={`${m.users_people_show()}: ${name}`} onClick={() => setOpen(!open)}>
        {open ? m.users_people_hide() : m.users_people_show()}
      </button>
      {open && (
        <div id={panelId} role="region" aria-label={m.users_people_of({ name })}>
          <PeoplePanel organizationId={organizationId} object={object} name={name} />
        </div>
      )}
    </div>
  );
}

function useManages(organizationId: string, object: AccessObject): boolean {
  const session = useSession()?.session;
  return managesUsersOn((session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [], object);
}

/** The manager's own flags there: what they may give. */
function useHeld(organizationId: string, object: AccessObject) {
  const session = useSession()?.session;
  return flagsOn((session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [], object);
}

const failureText = (what: () => string) => (status: number | null) => (status === null && !navigator.onLine ? m.users_people_offline() : status === 403 ? m.users_people_refused() : what());

/** The PUT of one member's flags on the object, and what its refusal says, by flag or 'form'. */
async function putFlags(object: AccessObject, userId: string, flags: Flags): Promise<{ ok: true } | { ok: false; errors: FlagErrors }> {
  const json = Object.fromEntries(Object.entries(flags).filter(([, on]) => on === true));
  const res =
    object.kind === 'program'
      ? await withLoading(call(setProgramUserPermissions, { params: { programId: object.programId, userId }, json }))
      : await withLoading(call(setNetworkUserPermissions, { params: { networkId: object.networkId, userId }, json }));
  if (res.kind === 'ok') return { ok: true };
  if (res.kind === 'badRequest') return { ok: false, errors: badRequestTexts(res.body) };
  const text = res.kind === 'notFound' ? m.users_gone() : res.kind === 'status' && res.status === 403 ? m.users_people_forbidden() : res.kind === 'error' && !navigator.onLine ? m.users_change_offline() : m.users_save_failed();
  return { ok: false, errors: { form: text } };
}

function badRequestTexts(body: BadRequestBody): FlagErrors {
  const out: FlagErrors = {};
  for (const e of body.Errors) out[objectFlagKey(e.Field)] ??= fieldErrorText(e);
  return out;
}

/** The flags' own errors as text: section 6's rules for the member's entries, and a flag the manager does not hold there. */
function flagErrorTexts(member: Pick<Member, 'Permissions'>, object: AccessObject, flags: Flags, held: ReturnType<typeof flagsOn>): FlagErrors {
  const out: FlagErrors = {};
  for (const f of missingFlags(held, FLAGS.filter((f) => flags[f] === true))) out[f] = m.users_people_not_held();
  for (const [key, error] of Object.entries(objectFlagErrors(member.Permissions, object, flags))) out[key as PermissionFlagName | 'form'] ??= formatFormError(error);
  return out;
}

/** A save of one member's flags there: busy while it runs, its refusal kept by flag or 'form'
 * (cleared at the next edit), true when stored. */
function useFlagsSave(object: AccessObject, online: boolean) {
  const [busy, setBusy] = useState(false);
  const [server, setServer] = useState<FlagErrors>({});
  const save = async (userId: string, flags: Flags): Promise<boolean> => {
    if (!online) {
      setServer({ form: m.users_change_offline() });
      return false;
    }
    setBusy(true);
    const done = await putFlags(object, userId, flags);
    setBusy(false);
    if (!done.ok) setServer(done.errors);
    return done.ok;
  };
  return { busy, server, setServer, save };
}

function PeoplePanel({ organizationId, object, name }: Props) {
  const online = useOnline();
  const fetchPage = useCallback(
    (page: number) =>
      object.kind === 'program'
        ? call(listProgramUsers, { params: { programId: object.programId }, query: { page: String(page), pageSize: PAGE_SIZE } })
        : call(listNetworkUsers, { params: { networkId: object.networkId }, query: { page: String(page), pageSize: PAGE_SIZE } }),
    // The object is rebuilt each render; its id is what names the list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [object.kind === 'program' ? object.programId : object.networkId],
  );
  const { state, load, more } = useServerPages(fetchPage, failureText(() => m.users_people_load_failed()));
  const [adding, setAdding] = useState(false);
  const people = state.kind === 'ready' ? state.items.map(memberOf) : [];
  return (
    <div className="people-panel">
      <p className="muted">{m.users_people_intro({ name })}</p>
      {/* A list that failed offline says so itself (failureText). */}
      {!online && state.kind !== 'failed' && (
        <p className="alert alert-warning" role="status">
          {m.users_people_offline()}
        </p>
      )}
      <ServerPagesStatus state={state} empty={m.users_people_none()} retry={() => void load()} />
      {people.length > 0 && (
        <ul className="user-list" aria-label={m.users_people_of({ name })}>
          {people.map((p) => (
            <Person key={p.Id} organizationId={organizationId} object={object} objectName={name} person={p} online={online} onChanged={() => void load()} />
          ))}
        </ul>
      )}
      {state.kind === 'ready' && state.hasNext && (
        <button type="button" className="button" onClick={() => void more()}>
          {m.users_people_more()}
        </button>
      )}
      {state.kind === 'ready' &&
        (adding ? (
          <AddPerson
            organizationId={organizationId}
            object={object}
            name={name}
            online={online}
            onClose={() => setAdding(false)}
            onAdded={() => {
              setAdding(false);
              void load();
            }}
          />
        ) : (
          <div className="form-actions">
            <button type="button" className="button primary" onClick={() => setAdding(true)}>
              {m.users_people_add()}
            </button>
          </div>
        ))}
    </div>
  );
}

function Person({ organizationId, object, objectName, person, online, onChanged }: { organizationId: string; object: AccessObject; objectName: string; person: Member; online: boolean; onChanged: () => void }) {
  const nameId = useId();
  const held = useHeld(organizationId, object);
  const own = entryFor(person.Permissions, object);
  const shown = FLAGS.filter((f) => flagsOn(person.Permissions, object)[f]);
  const [editing, setEditing] = useState<Flags | null>(null);
  const { busy, server, setServer, save: saveFlags } = useFlagsSave(object, online);
  const [removing, setRemoving] = useState(false);
  const [rowError, setRowError] = useState<string | null>(null);
  const ruleErrors = editing ? flagErrorTexts(person, object, editing, held) : {};
  const errors = { ...server, ...ruleErrors };
  const blocked = Object.keys(ruleErrors).length > 0;

  const save = async () => {
    if (!editing || !(await saveFlags(person.Id, editing))) return;
    showSavedToast(m.users_people_saved({ name: person.Name }));
    setEditing(null);
    onChanged();
  };

  return (
    <li className="user-item person-item" aria-labelledby={nameId}>
      <div className="user-item-text">
        <strong id={nameId}>{person.Name}</strong>
        <span className="user-email">{person.Email}</span>
        <span className="muted">{shown.length > 0 ? shown.map((f) => FLAG_LABEL[f]()).join(', ') : m.users_people_no_flags()}</span>
        {/* Access from a wider scope is changed where it was given (the users screen or the network). */}
        {!own && <span className="muted">{entryScope(person) === 'Organization' ? m.users_people_through_organization() : m.users_people_through_network()}</span>}
        {rowError && (
          <p role="alert" className="field-error">
            {rowError}
          </p>
        )}
      </div>
      {own && !editing && (
        <div className="user-item-actions">
          <button
            type="button"
            className="button"
            aria-describedby={nameId}
            onClick={() => {
              setServer({});
              setRowError(null);
              setEditing({ ...own.Permissions });
            }}
          >
            {m.users_people_change()}
          </button>
          <button
            type="button"
            className="button danger-outline"
            aria-describedby={nameId}
            onClick={() => {
              if (!online) setRowError(m.users_change_offline());
              else {
                setRowError(null);
                setRemoving(true);
              }
            }}
          >
            {m.users_people_remove()}
          </button>
        </div>
      )}
      {editing && (
        <form
          className="person-edit permission-fields"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <FlagSet legend={m.users_flags_for({ name: objectName })} flags={editing} errorAt={(f) => errors[f]} disabled={busy || !online} onChange={(flags) => {
              setServer({});
              setEditing(flags);
            }} />
          {errors.form && (
            <p role="alert" className="field-error">
              {errors.form}
            </p>
          )}
          <div className="form-actions">
            <button type="button" className="button" disabled={busy} onClick={() => setEditing(null)}>
              {m.users_cancel()}
            </button>
            <button type="submit" className="button primary" disabled={busy || !online || blocked} aria-busy={busy}>
              {m.users_save()}
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={removing}
        onClose={() => setRemoving(false)}
        danger
        title={m.users_people_remove_title({ name: person.Name })}
        description={m.users_people_remove_description({ name: person.Name, object: objectName })}
        actionLabel={m.users_people_remove()}
        successToast={m.users_people_removed({ name: person.Name, object: objectName })}
        failureDescription={m.users_people_remove_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.users_people_remove_failed())}
        onConfirm={async () => {
          const done = await putFlags(object, person.Id, {});
          if (done.ok) return;
          // Said at the person too: the dialog closes on failure.
          const text = Object.values(done.errors).join(' ');
          setRowError(text);
          throw new Error(text);
        }}
        onDone={onChanged}
      />
    </li>
  );
}

const entryScope = (person: Member) => person.Permissions.find((e) => e.ObjectType !== null)?.ObjectType ?? null;

/** A member who has no access there yet, found by name or e-mail, given the flags chosen. */
function AddPerson({ organizationId, object, name, online, onClose, onAdded }: Props & { online: boolean; onClose: () => void; onAdded: () => void }) {
  const searchId = useId();
  const held = useHeld(organizationId, object);
  const [typed, setTyped] = useState('');
  const filter = useDebounced(typed.trim(), 250);
  const [chosen, setChosen] = useState<Profile | null>(null);
  const [flags, setFlags] = useState<Flags>({ HasContentAccess: true });
  const { busy, server, setServer, save: saveFlags } = useFlagsSave(object, online);
  const id = object.kind === 'program' ? object.programId : object.networkId;
  const fetchPage = useCallback(
    (page: number): Promise<ApiResult<{ Items: Profile[]; HasNext: boolean }>> => {
      const query = { page: String(page), pageSize: PAGE_SIZE, ...(filter ? { filter } : {}) };
      return object.kind === 'program' ? call(listProgramEligibleProfiles, { params: { programId: id }, query }) : call(listNetworkEligibleProfiles, { params: { networkId: id }, query });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the object is named by its id
    [id, filter],
  );
  const { state, load, more } = useServerPages(fetchPage, failureText(() => m.users_people_eligible_load_failed()));
  // A new member has no entries: only the rules on the flags themselves, and what the manager holds.
  const ruleErrors = flagErrorTexts({ Permissions: [] }, object, flags, held);
  const errors = { ...server, ...ruleErrors };
  const none = !FLAGS.some((f) => flags[f] === true);
  // No one to add at all: the list says why, and there is nothing to give.
  const nobody = state.kind === 'ready' && state.items.length === 0 && filter === '';

  const submit = async () => {
    if (!chosen) {
      setServer({ form: m.users_people_choose_first() });
      return;
    }
    if (none || Object.keys(ruleErrors).length > 0 || !(await saveFlags(chosen.Id, flags))) return;
    showSavedToast(m.users_people_added({ name: chosen.Name, object: name }));
    onAdded();
  };

  return (
    <form
      className="card add-person permission-fields"
      aria-label={m.users_people_add()}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>{m.users_people_add()}</h3>
      <div className="field">
        <label htmlFor={searchId}>{m.users_people_search()}</label>
        <input id={searchId} type="search" value={typed} autoComplete="off" placeholder={m.users_filter_placeholder()} onChange={(e) => setTyped(e.target.value)} />
      </div>
      <fieldset className="eligible-list" disabled={busy}>
        <legend>{m.users_people_eligible()}</legend>
        <ServerPagesStatus state={state} empty={filter ? m.users_people_eligible_none_matching() : m.users_people_eligible_none()} retry={() => void load()} />
        {state.kind === 'ready' &&
          state.items.map((p) => (
            <label key={p.Id} className="radio eligible-person">
              <input type="radio" name={`${searchId}-person`} checked={chosen?.Id === p.Id} onChange={() => {
                  setServer({});
                  setChosen(p);
                }} />
              <span>
                <strong>{p.Name}</strong> <span className="muted user-email">{p.Email}</span>
              </span>
            </label>
          ))}
        {state.kind === 'ready' && state.hasNext && (
          <button type="button" className="button" onClick={() => void more()}>
            {m.users_people_more()}
          </button>
        )}
      </fieldset>
      {!nobody && (
        <FlagSet legend={m.users_flags_for({ name })} flags={flags} errorAt={(f) => errors[f]} disabled={busy || !online} onChange={(next) => {
            setServer({});
            setFlags(next);
          }} />
      )}
      {none && <p className="field-hint">{m.users_people_choose_flags()}</p>}
      {errors.form && (
        <p role="alert" className="field-error">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" disabled={busy} onClick={onClose}>
          {m.users_cancel()}
        </button>
        {!nobody && (
          <button type="submit" className="button primary" disabled={busy || !online || none || Object.keys(ruleErrors).length > 0} aria-busy={busy}>
            {chosen ? m.users_people_add_named({ name: chosen.Name }) : m.users_people_add_submit()}
          </button>
        )}
      </div>
    </form>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
