// "New program": a name (required), its slug (made from the name, following it until the user
// edits it; section 5's rules and, against the programs on this device, its uniqueness) and the
// network it belongs to (only the places the user may create a program in: HasCreateProgramAccess,
// section 6). The program is created on the device (program.create, a client-made Id, queued
// through the sync outbox), so this works offline too; its settings open at once. The same dialog
// puts back a new program the server refused, with the server's reasons at their fields.
import { useId, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { formatFormError } from '../../domain/messages.ts';
import { slugFromTitle } from '../../domain/slugs.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { db } from '../../db/db.ts';
import { createProgram } from '../../db/writes.ts';
import { withLoading } from '../../lib/loading.ts';
import { reportLocalWriteFailure } from '../../lib/local-write.ts';
import { m } from '../../paraglide/messages.js';
import type { Network } from '../../protocol/entities.ts';
import { Dialog, useDialogVeto } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { programFormErrors, type ProgramFormErrors } from './program-form.ts';

export type NewProgramStart = { Name: string; Slug: string | null; NetworkId: string | null; errors: ProgramFormErrors };

/** Whether another program on this device holds the slug (the server makes the final check). */
export async function programSlugsHeldLocally(selfId: string | null): Promise<(slug: string) => boolean> {
  const programs = await db.programs.toArray();
  return (slug) => programs.some((p) => p['Id'] !== selfId && !p['Deleted'] && p['Slug'] === slug);
}

type Props = {
  open: boolean;
  onClose: () => void;
  onCreated: (programId: string) => void;
  /** Where a new program may go (null: no network), in the order offered. */
  places: ReadonlyArray<string | null>;
  networks: readonly Network[];
  start?: NewProgramStart | undefined;
};

export function NewProgramDialog({ open, onClose, onCreated, places, networks, start }: Props) {
  const formId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      width="compactNarrow"
      title={m.structure_new_program()}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>{m.app_dialog_cancel()}</button>
          <button type="submit" form={formId} className="button primary">{m.structure_create()}</button>
        </>
      }
    >
      <NewProgramForm formId={formId} onCreated={onCreated} places={places} networks={networks} start={start} />
    </Dialog>
  );
}

function NewProgramForm({ formId, onCreated, places, networks, start }: { formId: string; onCreated: (id: string) => void; places: ReadonlyArray<string | null>; networks: readonly Network[]; start?: NewProgramStart | undefined }) {
  const [name, setName] = useState(start?.Name ?? '');
  /** The slug the user typed; null while it follows the name. */
  const [typedSlug, setTypedSlug] = useState<string | null>(start ? (start.Slug ?? '') : null);
  const [networkId, setNetworkId] = useState<string>(start?.NetworkId ?? (places.includes(null) ? '' : (places[0] ?? '')));
  const [errors, setErrors] = useState<ProgramFormErrors>(start?.errors ?? {});
  const [busy, setBusy] = useState(false);
  useDialogVeto(name.trim() !== '' && !busy);
  const held = useLiveQuery(() => programSlugsHeldLocally(null), []);
  const slug = typedSlug ?? slugFromTitle(name, held) ?? '';
  const text = (e: FormError | string | undefined) => (e === undefined ? null : typeof e === 'string' ? e : formatFormError(e));
  const networkName = (id: string | null) => (id === null ? m.structure_network_none() : (networks.find((n) => n.Id === id)?.Name ?? id));
  const submit = async () => {
    const fields = { Name: name.trim(), Slug: slug === '' ? null : slug, NetworkId: networkId === '' ? null : networkId };
    const found = programFormErrors(null, fields, { languages: null, categories: null }, await programSlugsHeldLocally(null));
    setErrors(found);
    if (Object.keys(found).length > 0 || busy) return;
    setBusy(true);
    await withLoading(createProgram(fields)).then(onCreated, (failure: unknown) => {
      setBusy(false);
      reportLocalWriteFailure(failure, m.structure_program_create_failed());
    });
  };
  return (
    <form
      id={formId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Field label={m.structure_field_name()} error={text(errors['Name'])}>
        <input value={name} onChange={(e) => setName(e.target.value)} autoFocus autoComplete="off" />
      </Field>
      <Field label={m.structure_field_slug()} error={text(errors['Slug'])} hint={typedSlug === null && slug !== '' ? m.structure_slug_from_name() : m.structure_slug_hint()}>
        <input value={slug} onChange={(e) => setTypedSlug(e.target.value)} autoCapitalize="off" spellCheck={false} autoComplete="off" />
      </Field>
      {(places.length > 1 || places[0] !== null) && (
        <Field label={m.structure_field_network()} error={text(errors['NetworkId'])}>
          <select value={networkId} onChange={(e) => setNetworkId(e.target.value)}>
            {places.map((id) => (
              <option key={id ?? ''} value={id ?? ''}>{networkName(id)}</option>
            ))}
          </select>
        </Field>
      )}
    </form>
  );
}
