// A clip's loudness on the clip screen (issue 34): the preset its published audio is normalized to
// (and the one in effect now, when a later change made them differ), its integrated loudness, true
// peak and loudness range before and after normalization against the preset's targets, where the
// server's job is, and "Normalize again to the current preset".
//
//   offline, nothing loaded ──> "shows when the connection returns"
//   loaded ──Waiting / Running──> asked again every POLL_MS ──> Done | Failed (why)
//   Normalize again ──> the outbox (clip.normalizeLoudness) ──waiting for the connection──> sent
//                        └── refused: the reason under the button          └──> loaded again
//
// The figures are the server's (clip_loudness), not synced to the device; the action is a named
// mutation, so it may be asked offline and says it waits for the connection.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { loudnessBusy, type LoudnessFigures, type LoudnessProblem, type LoudnessState } from '../../domain/loudness.ts';
import { normalizeClipLoudness } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { normalizationLabel, useQueuedSetting } from '../../lib/normalization.ts';
import { useNormalizationPresets } from '../../lib/reference-data.ts';
import { clipNormalizeLoudness } from '../../mutations/loudness.ts';
import { m } from '../../paraglide/messages.js';
import { getClipLoudness, type ClipLoudness as Loudness } from '../../protocol/api/loudness.ts';
import type { NormalizationPreset } from '../../protocol/reference.ts';
import './loudness.css';

/** How often the state is asked for while the job waits or runs. */
const POLL_MS = 3000;

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ok'; loudness: Loudness };

const PROBLEM: Record<LoudnessProblem, () => string> = {
  TooQuiet: () => m.clips_loudness_problem_too_quiet(),
  Video: () => m.clips_loudness_problem_video(),
  Unreadable: () => m.clips_loudness_problem_unreadable(),
  Missed: () => m.clips_loudness_problem_missed(),
  Error: () => m.clips_loudness_problem_error(),
};

function stateText(state: LoudnessState, problem: LoudnessProblem | null): string {
  switch (state) {
    case 'NotMeasured':
      return m.clips_loudness_state_not_measured();
    case 'NotNormalized':
      return m.clips_loudness_state_not_normalized();
    case 'Waiting':
      return m.clips_loudness_state_waiting();
    case 'Running':
      return m.clips_loudness_state_running();
    case 'Done':
      return m.clips_loudness_state_done();
    case 'Failed':
      return m.clips_loudness_state_failed({ why: problem ? PROBLEM[problem]() : m.clips_loudness_problem_error() });
  }
}

export function ClipLoudness({ clipId }: { clipId: string }) {
  const online = useOnline();
  const id = useId();
  const queued = useQueuedSetting('clips', clipId, clipNormalizeLoudness.name);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });

  const load = useCallback(async () => {
    const res = await call(getClipLoudness, { params: { clipId } });
    setLoaded(res.kind === 'ok' ? { kind: 'ok', loudness: res.data } : { kind: 'failed' });
  }, [clipId]);

  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  // While the job waits or runs, and once the queued request has gone out, ask again.
  const state = loaded.kind === 'ok' ? loaded.loudness.State : null;
  useEffect(() => {
    if (!online || state === null || !loudnessBusy(state)) return;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [online, state, loaded, load]);
  const wasPending = useRef(queued.pending);
  useEffect(() => {
    if (wasPending.current && !queued.pending && online) void load();
    wasPending.current = queued.pending;
  }, [queued.pending, online, load]);

  const ask = async () => {
    if (!(await savedLocally(normalizeClipLoudness(clipId)))) return;
    // A refused earlier request is answered by this one.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
  };

  const titleId = `${id}-title`;
  const again: AgainProps = { id, queued, online, onAsk: () => void ask() };
  return (
    <section className="card loudness" aria-labelledby={titleId}>
      <h2 id={titleId}>{m.clips_loudness_title()}</h2>
      <p className="muted">{m.clips_loudness_intro()}</p>
      {loaded.kind === 'loading' && (
        <p className="muted" role="status">
          {online ? m.clips_loudness_loading() : m.clips_loudness_offline()}
        </p>
      )}
      {loaded.kind === 'failed' && (
        <p className="field-error" role="alert">
          {m.clips_loudness_load_failed()}{' '}
          <button type="button" className="button" onClick={() => void load()}>
            {m.clips_loudness_retry()}
          </button>
        </p>
      )}
      {loaded.kind === 'ok' ? (
        <LoadedLoudness loudness={loaded.loudness} titleId={titleId} online={online} again={again} />
      ) : (
        <Again {...again} presetLabel={m.clips_loudness_current_preset()} blocked={false} />
      )}
    </section>
  );
}

type AgainProps = { id: string; queued: ReturnType<typeof useQueuedSetting>; online: boolean; onAsk: () => void };

/** "Normalize again to the current preset", with where the request is: waiting for the connection, sent, or refused. */
function Again({ id, queued, online, onAsk, presetLabel, blocked, noPreset = false }: AgainProps & { presetLabel: string; blocked: boolean; noPreset?: boolean }) {
  return (
    <div className="loudness-again">
      <button
        type="button"
        className="button"
        aria-describedby={`${id}-again-hint${queued.refusal ? ` ${id}-again-error` : ''}`}
        disabled={queued.pending || blocked}
        onClick={onAsk}
      >
        {m.clips_loudness_again()}
      </button>
      <p className="field-hint" id={`${id}-again-hint`}>
        {noPreset ? m.clips_loudness_again_no_preset() : m.clips_loudness_again_hint({ preset: presetLabel })}
      </p>
      {queued.pending && (
        <p className="muted" role="status">
          {online ? m.clips_loudness_again_sending() : m.clips_loudness_again_waiting()}
        </p>
      )}
      {queued.refusal && (
        <p className="field-error" id={`${id}-again-error`} role="alert">
          {queued.refusal}
        </p>
      )}
    </div>
  );
}

/** The figures and the action once the server has answered (the reference presets are asked for only then, never offline first). */
function LoadedLoudness({ loudness, titleId, online, again }: { loudness: Loudness; titleId: string; online: boolean; again: AgainProps }) {
  const presets = useNormalizationPresets();
  const noPreset = loudness.EffectivePresetId === null;
  return (
    <>
      <Figures loudness={loudness} presets={presets} titleId={titleId} />
      {!online && <p className="muted">{m.clips_loudness_offline_stale()}</p>}
      <Again {...again} presetLabel={normalizationLabel(loudness.EffectivePresetId, presets)} blocked={noPreset || loudnessBusy(loudness.State)} noPreset={noPreset} />
    </>
  );
}

function Figures({ loudness, presets, titleId }: { loudness: Loudness; presets: readonly NormalizationPreset[] | null; titleId: string }) {
  const preset = presets?.find((p) => p.Id === loudness.PresetId) ?? null;
  const number = new Intl.NumberFormat(getLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const show = (value: number | null | undefined, unit: (v: { value: string }) => string) => (value === null || value === undefined ? m.clips_loudness_unavailable() : unit({ value: number.format(value) }));
  const lufs = (v: { value: string }) => m.clips_loudness_lufs(v);
  const dbtp = (v: { value: string }) => m.clips_loudness_dbtp(v);
  const lu = (v: { value: string }) => m.clips_loudness_lu(v);
  const rows: Array<[string, keyof LoudnessFigures, (v: { value: string }) => string, string]> = [
    [m.clips_loudness_integrated(), 'IntegratedLoudness', lufs, preset ? lufs({ value: number.format(preset.IntegratedLoudness) }) : ''],
    [m.clips_loudness_true_peak(), 'TruePeak', dbtp, preset ? m.clips_loudness_at_most({ value: dbtp({ value: number.format(preset.TruePeak) }) }) : ''],
    [m.clips_loudness_range(), 'LoudnessRange', lu, preset ? m.clips_loudness_at_most({ value: lu({ value: number.format(preset.LoudnessRange) }) }) : ''],
  ];
  const changed = loudness.EffectivePresetId !== loudness.PresetId && loudness.State !== 'NotMeasured';
  const busy = loudnessBusy(loudness.State);
  return (
    <>
      <p>
        {loudness.PresetId === null ? m.clips_loudness_no_preset() : m.clips_loudness_preset({ preset: normalizationLabel(loudness.PresetId, presets) })}
      </p>
      {changed && (
        <p className="muted">
          {m.clips_loudness_preset_changed({
            preset: normalizationLabel(loudness.EffectivePresetId, presets),
            source: loudness.EffectiveSource === 'Program' ? m.clips_loudness_source_program() : m.clips_loudness_source_organization(),
          })}
        </p>
      )}
      <p className={loudness.State === 'Failed' ? 'field-error' : 'muted'} role={loudness.State === 'Failed' ? 'alert' : 'status'} aria-busy={busy}>
        {stateText(loudness.State, loudness.Problem)}
      </p>
      {loudness.Before && (
        // Focusable: on a narrow phone the table scrolls inside its box, and a keyboard must reach it.
        <div className="loudness-table-wrap" tabIndex={0} role="group" aria-labelledby={`${titleId}-table`}>
          <table className="loudness-table" aria-describedby={titleId}>
            <caption id={`${titleId}-table`}>{m.clips_loudness_table()}</caption>
            <thead>
              <tr>
                <th scope="col">{m.clips_loudness_measure()}</th>
                <th scope="col">{m.clips_loudness_before()}</th>
                <th scope="col">{m.clips_loudness_after()}</th>
                {preset && <th scope="col">{m.clips_loudness_target()}</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map(([label, key, unit, target]) => (
                <tr key={key}>
                  <th scope="row">{label}</th>
                  <td>{show(loudness.Before?.[key], unit)}</td>
                  <td>{loudness.After ? show(loudness.After[key], unit) : m.clips_loudness_not_yet()}</td>
                  {preset && <td>{target}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loudness.GainDb !== null && loudness.State === 'Done' && <p className="muted">{m.clips_loudness_gain({ value: new Intl.NumberFormat(getLocale(), { maximumFractionDigits: 1, signDisplay: 'always' }).format(loudness.GainDb) })}</p>}
    </>
  );
}
