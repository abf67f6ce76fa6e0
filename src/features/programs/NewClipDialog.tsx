// "New clip": asks for the title first, so a click that goes no further leaves no empty draft
// behind. The clip is created on the device (a client-made Id, queued through the sync outbox),
// so this works offline as well; the clip screen opens at once.
import { useId, useState } from 'react';
import { validateTitle } from '../../domain/validators.ts';
import { formatFormError } from '../../domain/messages.ts';
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

function NewClipForm({ formId, programId, onCreated }: { formId: string; programId: string; onCreated: (clipId: string) => void }) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDialogVeto(title.trim() !== '' && !busy);
  return (
    <form
      id={formId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const problem = validateTitle(title);
        setError(problem ? formatFormError(problem) : null);
        if (problem || busy) return;
        setBusy(true);
        // A failed local write keeps the dialog open with its title, and says why in a toast (the
        // title itself is fine: no error under the field).
        void withLoading(createClip(programId, { Title: title.trim() })).then(onCreated, (failure: unknown) => {
          setBusy(false);
          reportLocalWriteFailure(failure, m.app_new_clip_failed());
        });
      }}
    >
      <Field label={m.app_clip_field_title()} error={error}>
        <input value={title} onChange={(e) => setTitle(e.target.value)} autoFocus autoComplete="off" />
      </Field>
    </form>
  );
}
