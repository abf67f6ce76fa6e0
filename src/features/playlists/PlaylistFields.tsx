// The playlist's own fields, for the new-playlist screen and the playlist screen: Title, Slug,
// Description, and Visibility as a choice of four, each saying in plain words what it means for
// the playlist's feed.
import { useId } from 'react';
import { formatFormError } from '../../domain/messages.ts';
import { m } from '../../paraglide/messages.js';
import { visibilityLabel } from '../../lib/labels.ts';
import { Field } from '../../ui/Field.tsx';
import { PLAYLIST_VISIBILITIES, type PlaylistFormErrors, type PlaylistFormValues } from './playlist-form.ts';

const VISIBILITY_HELP: Record<string, () => string> = {
  Private: m.playlists_visibility_private_help,
  Public: m.playlists_visibility_public_help,
  Unlisted: m.playlists_visibility_unlisted_help,
  Restricted: m.playlists_visibility_restricted_help,
};

export type FieldNotes = Partial<Record<keyof PlaylistFormValues, { error?: string | undefined; hint?: string | undefined }>>;

export function PlaylistFields({
  values,
  errors,
  notes = {},
  onChange,
  autoFocus = false,
}: {
  values: PlaylistFormValues;
  errors: PlaylistFormErrors;
  /** Errors and hints from elsewhere (a refused change), under this form's own. */
  notes?: FieldNotes;
  onChange: (key: keyof PlaylistFormValues, value: string) => void;
  autoFocus?: boolean;
}) {
  const groupId = useId();
  const at = (k: keyof PlaylistFormValues, ownHint?: string) => {
    const e = errors[k];
    const error = e === undefined ? notes[k]?.error : typeof e === 'string' ? e : formatFormError(e);
    const hint = notes[k]?.hint ?? ownHint;
    return { error, ...(hint === undefined ? {} : { hint }) };
  };
  const bind = (k: keyof PlaylistFormValues) => ({ value: values[k], onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(k, e.target.value) });
  return (
    <>
      <Field label={m.playlists_field_title()} {...at('Title')}>
        <input {...bind('Title')} autoComplete="off" autoFocus={autoFocus} />
      </Field>
      <Field label={m.playlists_field_slug()} {...at('Slug', m.playlists_slug_hint())}>
        <input {...bind('Slug')} autoCapitalize="off" spellCheck={false} autoComplete="off" />
      </Field>
      <Field label={m.playlists_field_description()} {...at('Description')}>
        <textarea rows={3} {...bind('Description')} />
      </Field>
      <fieldset className="field choice-group" aria-describedby={notes.Visibility?.error ? `${groupId}-error` : undefined}>
        <legend>{m.playlists_field_visibility()}</legend>
        {PLAYLIST_VISIBILITIES.map((v) => (
          <label key={v} className="choice">
            <input type="radio" name={`${groupId}-visibility`} value={v} checked={values.Visibility === v} onChange={() => onChange('Visibility', v)} aria-describedby={`${groupId}-${v}`} />
            <span>
              <span className="choice-label">{visibilityLabel(v)}</span>
              <span id={`${groupId}-${v}`} className="field-hint">{VISIBILITY_HELP[v]?.()}</span>
            </span>
          </label>
        ))}
        {notes.Visibility?.error && <p id={`${groupId}-error`} className="field-error">{notes.Visibility.error}</p>}
      </fieldset>
    </>
  );
}
