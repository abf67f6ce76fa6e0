// /{organizationId}/programs/{programId}/playlists/new — a new playlist of the program: Title
// (required), a Slug made from the title until the user edits it, Description and Visibility. The
// playlist is created on the device (a client-made Id queued through the outbox, playlist.create),
// so this works offline as well; its screen opens at once.
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { slugFromTitle } from '../../domain/slugs.ts';
import { m } from '../../paraglide/messages.js';
import { createPlaylist } from '../../db/writes.ts';
import { asProgram, useRow } from '../../lib/rows.ts';
import { Link, navigate } from '../../lib/router.ts';
import { useIdParams } from '../../lib/params.ts';
import { withLoading } from '../../lib/loading.ts';
import { reportLocalWriteFailure } from '../../lib/local-write.ts';
import { showToast } from '../../lib/toast.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { PlaylistFields } from './PlaylistFields.tsx';
import { playlistFormErrors, playlistFormValues, playlistPatch, slugsHeldLocally, type PlaylistFormErrors, type PlaylistFormValues } from './playlist-form.ts';

export function NewPlaylistScreen() {
  const { organizationId, programId } = useIdParams('organizationId', 'programId');
  const program = useRow('programs', programId);
  const [values, setValues] = useState<PlaylistFormValues>(playlistFormValues(null));
  /** Whether the user typed the slug; until then it follows the title. */
  const [slugTyped, setSlugTyped] = useState(false);
  const [errors, setErrors] = useState<PlaylistFormErrors>({});
  const [busy, setBusy] = useState(false);
  const held = useLiveQuery(() => slugsHeldLocally(organizationId, null), [organizationId]);
  useUnsavedGuard('form', !busy && (values.Title.trim() !== '' || values.Description.trim() !== ''));
  if (program.state === 'missing') return <NotFoundPage kind="program" />;
  if (program.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const back = `/${organizationId}/programs/${programId}?tab=playlists`;
  const slug = slugTyped ? values.Slug : (slugFromTitle(values.Title, held) ?? '');
  const shown = { ...values, Slug: slug };

  const change = (key: keyof PlaylistFormValues, value: string) => {
    if (key === 'Slug') setSlugTyped(true);
    setValues((v) => ({ ...v, [key]: value }));
  };
  const submit = async () => {
    const found = await playlistFormErrors(shown, { organizationId, selfId: null, savedSlug: null });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    if (busy) return;
    setBusy(true);
    // A failed local write keeps the form with its values and says why in a toast.
    await withLoading(createPlaylist(programId, playlistPatch(shown))).then(
      (playlistId) => {
        showToast({ type: 'success', title: m.playlists_created() });
        navigate(`/${organizationId}/programs/${programId}/playlists/${playlistId}`, { replace: true });
      },
      (failure: unknown) => {
        setBusy(false);
        reportLocalWriteFailure(failure, m.playlists_create_failed());
      },
    );
  };
  return (
    <>
      <PageHeader eyebrow={asProgram(program.row).Name} title={m.playlists_new()} link={<Link href={back}>{m.app_back()}</Link>} />
      <form
        className="card form"
        noValidate
        aria-label={m.playlists_new()}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <PlaylistFields values={shown} errors={errors} notes={!slugTyped && slug !== '' ? { Slug: { hint: m.playlists_slug_from_title() } } : {}} onChange={change} autoFocus />
        <div className="form-actions">
          <Link href={back} className="button">{m.app_dialog_cancel()}</Link>
          <button type="submit" className="button primary" disabled={busy}>{m.playlists_create()}</button>
        </div>
      </form>
    </>
  );
}
