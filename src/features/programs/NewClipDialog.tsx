// "New clip": asks for the title first, so a click that goes no further leaves no empty draft
// behind, and its visibility (Private unless chosen). A visibility that needs a slug (section 4)
// shows the Slug field filled from the title (section 5's normaliser), following the title until
// the user edits it. The clip rules the server runs (src/domain/clip-rules.ts) are checked here
// first. The clip is created on the device (a client-made Id, queued through the sync outbox), so
// this works offline as well; the clip screen opens at once.
import { useId, useState } from 'react';
import { clipDefaults } from '../../domain/clip-defaults.ts';
import { holdsClipSlug, visibilityNeeds, VISIBILITIES } from '../../domain/clip.ts';
import { clipFieldErrors, clipSlugToCheck, normaliseClipPatch, type ClipFieldErrors } from '../../domain/clip-rules.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { formatFormError } from '../../domain/messages.ts';
import { slugServerError } from '../../domain/server-errors.ts';
import { slugFromTitle } from '../../domain/slugs.ts';
import { validateTitle } from '../../domain/validators.ts';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { visibilityLabel } from '../../lib/labels.ts';
import { m } from '../../paraglide/messages.js';
import { createClip } from '../../db/writes.ts';
import { withLoading } from '../../lib/loading.ts';
import { reportLocalWriteFailure } from '../../lib/local-write.ts';
import { Dialog, useDialogVeto } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';

export function NewClipDialog({ open, programId, onClose, onCreated }: { open: boolean; programId: string; onClose: () => void; onCreated: (clipId: string) => void }) {
  const formId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      width="compactNarrow"
      title={m.app_new_clip_title()}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>{m.app_dialog_cancel()}</button>
          <button type="submit" form={formId} className="button primary">{m.app_new_clip_create()}</button>
        </>
      }
    >
      <NewClipForm formId={formId} programId={programId} onCreated={onCreated} />
    </Dialog>
  );
}

/** The program's clips on this device that hold a slug, as a test of a slug (the server makes the
 * final check). */
async function slugsHeldLocally(programId: string): Promise<(slug: string) => boolean> {
  const others = await db.clips.where('ProgramId').equals(programId).toArray();
  const clip = { Id: '', ProgramId: programId };
  return (slug) => others.some((other) => holdsClipSlug(other, clip, slug));
}

function NewClipForm({ formId, programId, onCreated }: { formId: string; programId: string; onCreated: (clipId: string) => void }) {
  const [title, setTitle] = useState('');
  const [visibility, setVisibility] = useState<string>('Private');
  /** The slug the user typed; null while it follows the title. */
  const [typedSlug, setTypedSlug] = useState<string | null>(null);
  const [errors, setErrors] = useState<ClipFieldErrors>({});
  const [busy, setBusy] = useState(false);
  useDialogVeto(title.trim() !== '' && !busy);
  const needsSlug = visibilityNeeds(visibility, 'Slug');
  // Read once a slug is needed: a title whose slug another clip holds gets the next number.
  const held = useLiveQuery(() => (needsSlug ? slugsHeldLocally(programId) : undefined), [needsSlug, programId]);
  const slug = typedSlug ?? slugFromTitle(title, held) ?? '';
  const text = (e: FormError | undefined) => (e === undefined ? null : formatFormError(e));
  const submit = async () => {
    const fields = normaliseClipPatch({ Title: title.trim(), ...(needsSlug ? { Visibility: visibility, Slug: slug } : {}) });
    // The dialog asks for a title (that is what it is for); the rest are the rules of any clip.
    const titleMissing = validateTitle(title);
    const found: ClipFieldErrors = { ...(titleMissing ? { Title: titleMissing } : {}), ...clipFieldErrors(clipDefaults(), fields, { isNew: true }) };
    const toCheck = clipSlugToCheck(clipDefaults(), fields, { isNew: true });
    if (found.Slug === undefined && toCheck !== null && (await slugsHeldLocally(programId))(toCheck)) found.Slug = slugServerError('SlugExists', 'clip')!;
    setErrors(found);
    if (Object.keys(found).length > 0 || busy) return;
    setBusy(true);
    // A failed local write keeps the dialog open with its values, and says why in a toast (the
    // values themselves are fine: no error under a field).
    await withLoading(createClip(programId, fields)).then(onCreated, (failure: unknown) => {
      setBusy(false);
      reportLocalWriteFailure(failure, m.app_new_clip_failed());
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
      <Field label={m.app_clip_field_title()} error={text(errors.Title)}>
        <input value={title} onChange={(e) => setTitle(e.target.value)} autoFocus autoComplete="off" />
      </Field>
      <Field label={m.app_clip_field_visibility()}>
        <select value={visibility} onChange={(e) => setVisibility(e.target.value)}>
          {VISIBILITIES.map((x) => (
            <option key={x} value={x}>{visibilityLabel(x)}</option>
          ))}
        </select>
      </Field>
      {needsSlug && (
        <Field label={m.app_clip_field_slug()} error={text(errors.Slug)} {...(typedSlug === null && slug !== '' ? { hint: m.app_clip_slug_from_title() } : {})}>
          <input value={slug} onChange={(e) => setTypedSlug(e.target.value)} autoCapitalize="off" spellCheck={false} autoComplete="off" />
        </Field>
      )}
    </form>
  );
}
