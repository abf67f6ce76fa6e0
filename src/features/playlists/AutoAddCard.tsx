// The playlist's auto-add rule (src/domain/auto-add.ts): on or off, the tags a new clip must have
// one of (none: any clip) and the episode type it must be. Saved on the device through
// playlist.setAutoAdd (offline too); changing it needs manage-settings access on the program
// (section 6), which the card says instead of offering a form the server would refuse.
import { useMemo } from 'react';
import { autoAddRuleOf, normaliseAutoAddRule } from '../../domain/auto-add.ts';
import { splitLines } from '../../domain/validators.ts';
import { m } from '../../paraglide/messages.js';
import { setPlaylistAutoAdd } from '../../db/writes.ts';
import { useEditState } from '../../lib/form.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { showToast } from '../../lib/toast.ts';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import type { AutoAddRule, Playlist } from '../../protocol/entities.ts';

type Values = { Enabled: boolean; Tags: string; EpisodeType: string };

const toValues = (rule: AutoAddRule): Values => ({ Enabled: rule.Enabled, Tags: rule.Tags.join('\n'), EpisodeType: rule.EpisodeType ?? '' });

export function AutoAddCard({ playlist, mayChange, refusal }: { playlist: Playlist; mayChange: boolean; refusal?: string | undefined }) {
  // The form's baseline changes only when the rule does (a pulled row is a new object every time).
  const ruleKey = JSON.stringify(autoAddRuleOf(playlist));
  const baseline = useMemo(() => toValues(JSON.parse(ruleKey) as AutoAddRule), [ruleKey]);
  const form = useEditState(baseline);
  const v = form.values;
  const save = async () => {
    const next = normaliseAutoAddRule({ Enabled: v.Enabled, Tags: splitLines(v.Tags), EpisodeType: v.EpisodeType === '' ? null : (v.EpisodeType as AutoAddRule['EpisodeType']) });
    if (!(await withLoading(savedLocally(setPlaylistAutoAdd(playlist.Id, next))))) return;
    form.reset();
    showToast({ type: 'success', title: m.playlists_auto_add_saved() });
  };
  const disabled = !mayChange;
  return (
    <form
      className="card form"
      aria-labelledby="playlist-auto-add"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="playlist-auto-add">{m.playlists_auto_add()}</h2>
      {!mayChange && <p className="muted">{m.playlists_auto_add_no_access()}</p>}
      {refusal && <p role="alert" className="field-error">{refusal}</p>}
      <fieldset className="plain-fieldset" disabled={disabled}>
        <CheckboxField label={m.playlists_auto_add_enabled()} checked={v.Enabled} onChange={(on) => form.set('Enabled', on)} />
        <p className="field-hint auto-add-help">{m.playlists_auto_add_help()}</p>
        {v.Enabled && (
          <div className="field-row">
            <Field label={m.playlists_auto_add_tags()} hint={m.playlists_auto_add_tags_hint()}>
              <textarea rows={3} value={v.Tags} onChange={(e) => form.set('Tags', e.target.value)} />
            </Field>
            <Field label={m.playlists_auto_add_episode_type()}>
              <select value={v.EpisodeType} onChange={(e) => form.set('EpisodeType', e.target.value)}>
                <option value="">{m.playlists_auto_add_any_type()}</option>
                <option value="Full">{m.app_episode_type_full()}</option>
                <option value="Trailer">{m.app_episode_type_trailer()}</option>
                <option value="Bonus">{m.app_episode_type_bonus()}</option>
              </select>
            </Field>
          </div>
        )}
        {form.dirty && (
          <div className="form-actions">
            <button type="button" className="button" onClick={form.reset}>{m.app_form_reset()}</button>
            <button type="submit" className="button primary">{m.app_form_apply()}</button>
          </div>
        )}
      </fieldset>
    </form>
  );
}
