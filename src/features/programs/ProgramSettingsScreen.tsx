// /{organizationId}/programs/{programId}/settings — a program's details (name, slug, network,
// description), its podcast settings (what its feeds say: src/domain/program-rules.ts) and its
// loudness normalization with the organization's it inherits (ProgramNormalization.tsx) and its
// recording retention with what it would delete (ProgramRecording.tsx), saved on the device
// through program.update, program.setNormalization and program.setRecordingSettings (offline
// too), and its deletion (program.delete, after DELETE is typed). Only a user with content and
// manage-settings access on the program may change them (section 6); others see them read-only.
// Language and category come from the reference lists kept on the device (lib/reference-data.ts). A change the server refused after it synced
// is shown here with its reasons at the fields it set, until the user sets them again.
import { useMemo, useState, type ChangeEvent, type ReactNode } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { COMMON_PERSON_ROLES, personField } from '../../domain/program-rules.ts';
import { formatFormError } from '../../domain/messages.ts';
import { mayEditProgram, newProgramPlaces } from '../../domain/structure-access.ts';
import { m } from '../../paraglide/messages.js';
import { deleteProgram, updateProgram } from '../../db/writes.ts';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { dismissNeedsAttention, retryNeedsAttention } from '../../db/conflicts.ts';
import { mutationDef } from '../../mutations/registry.ts';
import { attentionReason, refusedFieldText } from '../../lib/sync-labels.ts';
import { asProgram, useNetworks, useRow } from '../../lib/rows.ts';
import { useEditState } from '../../lib/form.ts';
import { Link, navigate } from '../../lib/router.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { withLoading } from '../../lib/loading.ts';
import { localWriteFailureText, savedLocally } from '../../lib/local-write.ts';
import { useIdParams } from '../../lib/params.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { useLanguages, usePodcastCategories } from '../../lib/reference-data.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { RefusedErrorList } from '../../ui/RefusedErrorList.tsx';
import type { Program } from '../../protocol/entities.ts';
import { programFormErrors, toFormValues, toPatch, type PersonValues, type ProgramFormErrors, type ProgramFormValues } from './program-form.ts';
import { programSlugsHeldLocally } from './NewProgramDialog.tsx';
import { ArtworkPicker } from '../../ui/ArtworkPicker.tsx';
import { ProgramMembers } from './ProgramMembers.tsx';
import { ProgramNormalization } from './ProgramNormalization.tsx';
import { ProgramRecording } from './ProgramRecording.tsx';
import { ProgramMonetization } from './ProgramMonetization.tsx';
import { ProgramIntroOutro } from './ProgramIntroOutro.tsx';

/** `extras`: sections other features add below the program's own (src/app composes them: a feature
 * does not import another), each deciding from the session whether it shows. */
export function ProgramSettingsScreen({ extras }: { extras?: (program: Program) => ReactNode } = {}) {
  const { organizationId, programId } = useIdParams('organizationId', 'programId');
  const row = useRow('programs', programId);
  if (row.state === 'missing') return <NotFoundPage kind="program" />;
  if (row.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  return <ProgramSettings key={programId} program={asProgram(row.row)} organizationId={organizationId} extras={extras} />;
}

/** The fields a refused change of this program tried to set (update or create), or null. */
function refusedFields(item: NeedsAttentionEntry): Record<string, unknown> | null {
  const def = mutationDef(item.mutation.name);
  if (def === undefined || def.entity !== 'programs') return null;
  if (def.kind === 'update') return def.fields(item.mutation.args);
  const fields = def.kind === 'create' ? item.mutation.args['fields'] : undefined;
  return typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : null;
}

/** The form field a refused field belongs to: a person's field is the Persons list's. */
const formKey = (field: string): string => (field.startsWith('Persons[') ? 'Persons' : field);

function ProgramSettings({ program, organizationId, extras }: { program: Program; organizationId: string; extras: ((program: Program) => ReactNode) | undefined }) {
  const baseline = useMemo(() => toFormValues(program), [program]);
  const form = useEditState(baseline);
  const v = form.values;
  const [errors, setErrors] = useState<ProgramFormErrors>({});
  const [confirmDelete, setConfirmDelete] = useState(false);
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  const editable = mayEditProgram(entries, program);
  const networks = useNetworks(organizationId) ?? [];
  const places = newProgramPlaces(entries, networks.map((n) => n.Id));
  const languages = useLanguages();
  const categories = usePodcastCategories();
  useUnsavedGuard('form', form.dirty);
  const refused = useLiveQuery(() => db.needsAttention.where('entityId').equals(program.Id).sortBy('createdAt'), [program.Id]) ?? [];
  const programHref = `/${organizationId}/programs/${program.Id}`;

  // The server's reasons for refusing fields, until the user changes them here.
  const refusals = new Map<string, { message: string; tried: unknown }>();
  for (const item of refused) {
    const fields = refusedFields(item) ?? {};
    for (const fe of item.errors) refusals.set(fe.Field, { message: refusedFieldText(fe, 'programs'), tried: fields[formKey(fe.Field)] });
  }
  const err = (field: string): string | undefined => {
    const own = errors[field];
    if (own !== undefined) return typeof own === 'string' ? own : formatFormError(own);
    return formKey(field) in form.changed ? undefined : refusals.get(field)?.message;
  };
  const tried = (field: string): string | undefined => {
    const r = formKey(field) in form.changed ? undefined : refusals.get(field);
    return r && typeof r.tried === 'string' ? m.structure_refused_value({ value: r.tried }) : undefined;
  };
  const at = (field: string, hint?: string) => {
    const h = tried(field) ?? hint;
    return { error: err(field), ...(h === undefined ? {} : { hint: h }) };
  };
  const bind = (k: Exclude<keyof ProgramFormValues, 'Explicit' | 'Locked' | 'Persons'>) => ({
    value: v[k],
    disabled: !editable,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => form.set(k, e.target.value),
  });

  const save = async () => {
    const patch = toPatch(form.changed);
    const found = programFormErrors(program, patch, { languages, categories }, await programSlugsHeldLocally(program.Id));
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    if (!(await withLoading(savedLocally(updateProgram(program.Id, patch), m.structure_save_failed())))) return;
    // A refused change whose every field this one sets again is answered by it.
    for (const item of refused) {
      const fields = [...Object.keys(refusedFields(item) ?? {}), ...item.errors.map((fe) => formKey(fe.Field))];
      if (fields.length > 0 && fields.every((f) => f in patch)) void savedLocally(dismissNeedsAttention(item.id));
    }
    form.reset();
    showSavedToast(m.structure_saved());
  };

  /** Puts a refused change's values back in the form, with the server's reasons at their fields. */
  const editAgain = async (item: NeedsAttentionEntry) => {
    const body = refusedFields(item) ?? {};
    const values = toFormValues({ ...program, ...body } as Program);
    for (const k of Object.keys(body)) if (k in values) form.set(k as keyof ProgramFormValues, values[k as keyof ProgramFormValues]);
    setErrors(Object.fromEntries(item.errors.map((fe) => [fe.Field, refusedFieldText(fe, 'programs')])));
    await savedLocally(dismissNeedsAttention(item.id));
  };

  const category = categories?.find((c) => c.Id === v.Category);
  const setPersons = (persons: PersonValues[]) => form.set('Persons', persons);
  const setPerson = (i: number, field: keyof PersonValues, value: string) => setPersons(v.Persons.map((p, j) => (j === i ? { ...p, [field]: value } : p)));
  const rolesId = `roles-${program.Id}`;

  return (
    <>
      <PageHeader
        eyebrow={program.Name}
        title={m.structure_program_settings_title()}
        link={<Link href={programHref}>{m.structure_back_to_program()}</Link>}
      />
      {!editable && <p className="alert alert-info">{m.structure_no_settings_access()}</p>}
      {refused.map((item) => (
        <RefusedChange key={item.id} item={item} onEditAgain={() => void editAgain(item)} />
      ))}
      <section className="card">
        <ArtworkPicker kind="program" ownerId={program.Id} organizationId={organizationId} imageUrl={program.Urls?.ImagePublicUrl} disabled={!editable} />
      </section>
      <form
        className="structure-settings"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <section className="card form" aria-labelledby="program-details">
          <h2 id="program-details">{m.structure_program_details()}</h2>
          <Field label={m.structure_field_name()} {...at('Name')}>
            <input {...bind('Name')} autoComplete="off" />
          </Field>
          <Field label={m.structure_field_slug()} {...at('Slug', m.structure_slug_hint())}>
            <input {...bind('Slug')} autoCapitalize="off" spellCheck={false} autoComplete="off" />
          </Field>
          <Field label={m.structure_field_network()} {...at('NetworkId')}>
            {/* Where the program may go: the places its user may create a program in (the server
                refuses a move anywhere else), and where it is now. */}
            <select {...bind('NetworkId')}>
              {(places.includes(null) || program.NetworkId == null) && <option value="">{m.structure_network_none()}</option>}
              {networks
                .filter((n) => places.includes(n.Id) || n.Id === program.NetworkId)
                .map((n) => (
                  <option key={n.Id} value={n.Id}>{n.Name}</option>
                ))}
              {v.NetworkId !== '' && !networks.some((n) => n.Id === v.NetworkId) && <option value={v.NetworkId}>{v.NetworkId}</option>}
            </select>
          </Field>
          <Field label={m.structure_field_description()} {...at('Description')}>
            <textarea {...bind('Description')} rows={4} />
          </Field>
        </section>

        <section className="card form" aria-labelledby="podcast-settings">
          <h2 id="podcast-settings">{m.structure_podcast_settings()}</h2>
          <p className="muted">{m.structure_podcast_settings_text()}</p>
          <div className="field-row">
            <Field label={m.structure_field_author()} {...at('Author')}>
              <input {...bind('Author')} autoComplete="off" />
            </Field>
            <Field label={m.structure_field_link()} {...at('Link')}>
              <input {...bind('Link')} type="url" inputMode="url" autoComplete="url" placeholder="https://" />
            </Field>
            <Field label={m.structure_field_owner_name()} {...at('OwnerName')}>
              <input {...bind('OwnerName')} autoComplete="off" />
            </Field>
            <Field label={m.structure_field_owner_email()} {...at('OwnerEmail')}>
              <input {...bind('OwnerEmail')} type="email" inputMode="email" autoComplete="off" />
            </Field>
            <Field label={m.structure_field_language()} {...at('Language', languages ? undefined : m.structure_reference_missing())}>
              <select {...bind('Language')}>
                <option value="">{m.structure_not_set()}</option>
                {(languages ?? []).map((l) => (
                  <option key={l.Code} value={l.Code}>{`${l.Name} (${l.Code})`}</option>
                ))}
                {!languages && v.Language !== '' && <option value={v.Language}>{v.Language}</option>}
              </select>
            </Field>
            <Field label={m.structure_field_itunes_type()} {...at('ItunesType')}>
              <select {...bind('ItunesType')}>
                <option value="">{m.structure_not_set()}</option>
                <option value="episodic">{m.structure_itunes_episodic()}</option>
                <option value="serial">{m.structure_itunes_serial()}</option>
              </select>
            </Field>
            <Field label={m.structure_field_category()} {...at('Category', categories ? undefined : m.structure_reference_missing())}>
              <select
                {...bind('Category')}
                onChange={(e) => {
                  form.set('Category', e.target.value);
                  form.set('Subcategory', '');
                }}
              >
                <option value="">{m.structure_not_set()}</option>
                {(categories ?? []).map((c) => (
                  <option key={c.Id} value={c.Id}>{c.Name}</option>
                ))}
                {!categories && v.Category !== '' && <option value={v.Category}>{v.Category}</option>}
              </select>
            </Field>
            <Field label={m.structure_field_subcategory()} {...at('Subcategory')}>
              <select {...bind('Subcategory')} disabled={!editable || (category?.Subcategories.length ?? 0) === 0}>
                <option value="">{m.structure_not_set()}</option>
                {(category?.Subcategories ?? []).map((s) => (
                  <option key={s.Id} value={s.Id}>{s.Name}</option>
                ))}
                {!category && v.Subcategory !== '' && <option value={v.Subcategory}>{v.Subcategory}</option>}
              </select>
            </Field>
            <Field label={m.structure_field_copyright()} {...at('Copyright')}>
              <input {...bind('Copyright')} autoComplete="off" />
            </Field>
            <Field label={m.structure_field_funding_url()} {...at('FundingUrl')}>
              <input {...bind('FundingUrl')} type="url" inputMode="url" autoComplete="off" placeholder="https://" />
            </Field>
            <Field label={m.structure_field_funding_text()} {...at('FundingText')}>
              <input {...bind('FundingText')} autoComplete="off" />
            </Field>
          </div>
          <fieldset className="checkbox-group" disabled={!editable}>
            <CheckboxField label={m.structure_field_explicit()} checked={v.Explicit} onChange={(c) => form.set('Explicit', c)} />
            <CheckboxField label={m.structure_field_locked()} checked={v.Locked} onChange={(c) => form.set('Locked', c)} />
          </fieldset>

          <fieldset className="persons" disabled={!editable}>
            <legend>{m.structure_persons()}</legend>
            {err('Persons') && <p className="field-error">{err('Persons')}</p>}
            <datalist id={rolesId}>
              {COMMON_PERSON_ROLES.map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
            {v.Persons.map((p, i) => (
              <div key={i} className="person-row">
                <Field label={m.structure_person_name()} {...at(personField(i, 'Name'))}>
                  <input value={p.Name} onChange={(e) => setPerson(i, 'Name', e.target.value)} autoComplete="off" />
                </Field>
                <Field label={m.structure_person_role()} {...at(personField(i, 'Role'))}>
                  <input value={p.Role} list={rolesId} onChange={(e) => setPerson(i, 'Role', e.target.value)} autoComplete="off" autoCapitalize="off" />
                </Field>
                <Field label={m.structure_person_href()} {...at(personField(i, 'Href'))}>
                  <input value={p.Href} type="url" inputMode="url" onChange={(e) => setPerson(i, 'Href', e.target.value)} autoComplete="off" placeholder="https://" />
                </Field>
                <button type="button" className="button" onClick={() => setPersons(v.Persons.filter((_, j) => j !== i))}>
                  {m.structure_person_remove({ name: p.Name.trim() || m.structure_person_unnamed() })}
                </button>
              </div>
            ))}
            <button type="button" className="button" onClick={() => setPersons([...v.Persons, { Name: '', Role: 'host', Href: '' }])}>
              {m.structure_person_add()}
            </button>
          </fieldset>
        </section>

        {editable && (
          <div className="form-actions structure-save">
            <button type="button" className="button" disabled={!form.dirty} onClick={() => { form.reset(); setErrors({}); }}>
              {m.app_form_reset()}
            </button>
            <button type="submit" className="button primary" disabled={!form.dirty}>
              {m.structure_save()}
            </button>
          </div>
        )}
      </form>

      <ProgramNormalization program={program} organizationId={organizationId} editable={editable} />
      <ProgramRecording program={program} organizationId={organizationId} editable={editable} />
      <ProgramIntroOutro program={program} organizationId={organizationId} />

      <ProgramMonetization program={program} organizationId={organizationId} editable={editable} />

      {editable && <ProgramMembers programId={program.Id} />}

      {extras?.(program)}

      {editable && (
        <section className="card form danger-zone" aria-labelledby="program-delete">
          <h2 id="program-delete">{m.structure_danger_zone()}</h2>
          <div>
            <button type="button" className="button danger-outline" onClick={() => setConfirmDelete(true)}>
              {m.structure_program_delete()}
            </button>
          </div>
        </section>
      )}
      <ConfirmDialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        danger
        prompt
        title={m.structure_program_delete_title()}
        description={m.structure_program_delete_text({ name: program.Name })}
        actionLabel={m.app_dialog_delete()}
        onConfirm={() => deleteProgram(program.Id)}
        successToast={m.structure_program_deleted()}
        failureDescription={m.structure_program_delete_failed()}
        failureReason={localWriteFailureText}
        onDone={() => navigate(`/${organizationId}/programs`, { replace: true })}
      />
    </>
  );
}

/** A change of this program the server refused: why, which fields, and what to do. */
function RefusedChange({ item, onEditAgain }: { item: NeedsAttentionEntry; onEditAgain: () => void }) {
  if (mutationDef(item.mutation.name)?.kind !== 'update') return null;
  return (
    <div role="alert" className="alert alert-danger">
      <p>
        <strong>{m.structure_refused()}</strong> {attentionReason(item.httpStatus)}
      </p>
      <RefusedErrorList item={item} />
      <div className="form-actions">
        <button type="button" className="button" onClick={() => void savedLocally(dismissNeedsAttention(item.id))}>{m.app_attention_dismiss()}</button>
        <button type="button" className="button" onClick={() => void savedLocally(retryNeedsAttention(item.id))}>{m.app_attention_retry()}</button>
        <button type="button" className="button primary" onClick={onEditAgain}>{m.structure_edit_again()}</button>
      </div>
    </div>
  );
}
