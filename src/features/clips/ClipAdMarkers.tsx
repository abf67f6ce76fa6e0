// A clip's ad markers on the clip screen (issue 34): a pre-roll and a post-roll (on or off), and
// mid-rolls placed on a marker strip over the clip's timeline (WaveformMarkers: M adds one at the
// player's position, arrows move it, Delete removes it, a pointer drags it) and typed in a list,
// each with the most ads its break holds. The rules the clip is held to (its program's, or its own
// override, both synced rows) are applied on the device by src/domain/ad-markers.ts as markers move,
// each violation shown at the marker it names; which rules they are, and the clip's own in place of
// the program's, is ClipAdMarkerRules at the top of the section. Save refuses what can never be stored at its field,
// then queues clip.setAdMarkers through the outbox: edits work offline. CSV export and import are
// made on the device. Suggested mid-rolls and chapters come from the server (GET …/suggested/…):
// offline the section says they need the connection. A suggested mid-roll joins the draft; a
// suggested chapter is added to the clip's chapters at once (clip.update { Chapters }, the path the
// Chapters section saves through).
// The player plays the published audio, which may begin with the program's intro; markers are on
// the episode's timeline, so the playhead, a mid-roll added at it and a seek to a mid-roll go
// through markerTimeline (src/domain/intro-outro.ts), as the Chapters section's do.
//
//   saved ──add / move / edit / import / accept──> draft (unsaved: leaving asks first) ──Save──> queued ──> saved
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  AD_MAX_ADS,
  adMarkerErrors,
  adMarkersToCsv,
  adMarkerViolations,
  effectiveAdMarkerRules,
  normaliseAdMarkers,
  readAdMarkersCsv,
  type AdMarker,
  type AdMarkerRules,
} from '../../domain/ad-markers.ts';
import { normaliseChapters } from '../../domain/chapters.ts';
import { markerTimeline } from '../../domain/intro-outro.ts';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { formatPreciseTime, readPreciseTime } from '../../domain/time.ts';
import { db } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { setClipAdMarkers, updateClip } from '../../db/writes.ts';
import { m } from '../../paraglide/messages.js';
import type { Clip } from '../../protocol/entities.ts';
import { getSuggestedAdMarkers, getSuggestedChapters, type SuggestedAdMarkers, type SuggestedChapters } from '../../protocol/api/ad-markers.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { asProgram, useRow } from '../../lib/rows.ts';
import { showToast } from '../../lib/toast.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { isMarkerAddKey, WaveformMarkers } from '../../ui/audio/WaveformMarkers.tsx';
import { ClipAdMarkerRules } from './ClipAdMarkerRules.tsx';
import './chapters.css';
import './ad-markers.css';

type Mid = { key: string; seconds: number; time: string; maxAds: string };
type Draft = { pre: string | null; post: string | null; mids: Mid[] };
/** Problems at a field: key 'pre', 'post', `${key}:time`, `${key}:ads`, or 'all' for the whole clip. */
type Problems = Record<string, string[]>;

let keys = 0;
const newKey = () => `ad-${++keys}`;
const adsText = (n: number) => String(n);

function toDraft(markers: readonly AdMarker[]): Draft {
  const pre = markers.find((k) => k.Type === 'PreRoll');
  const post = markers.find((k) => k.Type === 'PostRoll');
  return {
    pre: pre ? adsText(pre.MaxAds) : null,
    post: post ? adsText(post.MaxAds) : null,
    mids: markers.filter((k) => k.Type === 'MidRoll' && k.Seconds !== null).map((k) => ({ key: newKey(), seconds: k.Seconds!, time: formatPreciseTime(k.Seconds!), maxAds: adsText(k.MaxAds) })),
  };
}

const count = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

/** The draft as markers (in the list's order: pre-roll, mid-rolls, post-roll) and, per marker index, the key of its fields. */
function fromDraft(d: Draft): { markers: AdMarker[]; keyOf: string[] } {
  const markers: AdMarker[] = [];
  const keyOf: string[] = [];
  const put = (key: string, marker: AdMarker) => {
    markers.push(marker);
    keyOf.push(key);
  };
  if (d.pre !== null) put('pre', { Type: 'PreRoll', Seconds: null, MaxAds: count(d.pre) });
  for (const k of d.mids) put(k.key, { Type: 'MidRoll', Seconds: k.seconds, MaxAds: count(k.maxAds) });
  if (d.post !== null) put('post', { Type: 'PostRoll', Seconds: null, MaxAds: count(d.post) });
  return { markers, keyOf };
}

/** Errors keyed AdMarkers.<i>.<Field> (or AdMarkers) as problems at the draft's fields. */
function problemsAt(entries: ReadonlyArray<[string, string]>, keyOf: readonly string[]): Problems {
  const out: Problems = {};
  for (const [field, text] of entries) {
    const at = /^AdMarkers\.(\d+)\.(Type|Seconds|MaxAds)$/.exec(field);
    const key = at ? keyOf[Number(at[1])] : undefined;
    const where = key === undefined ? 'all' : key === 'pre' || key === 'post' ? key : `${key}:${at![2] === 'MaxAds' ? 'ads' : 'time'}`;
    (out[where] ??= []).push(text);
  }
  return out;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

type Suggestions = { ads: SuggestedAdMarkers | null; chapters: SuggestedChapters | null; state: 'idle' | 'asking' | 'failed' };

export function ClipAdMarkers({ clip }: { clip: Clip }) {
  const id = useId();
  const online = useOnline();
  // The episode's timeline: the published audio's length less the intro it starts with.
  const timeline = markerTimeline(clip, clip.DurationSeconds != null && clip.DurationSeconds > 0 ? clip.DurationSeconds : null);
  const duration = timeline.episodeSeconds !== null && timeline.episodeSeconds > 0 ? timeline.episodeSeconds : null;
  const player = useRef<HTMLAudioElement>(null);
  const saved = useMemo(() => normaliseAdMarkers(clip.AdMarkers ?? []), [clip.AdMarkers]);
  const savedJson = JSON.stringify(saved);
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [refusals, setRefusals] = useState<Problems>({});
  const [selected, setSelected] = useState<string | null>(null);
  const [playhead, setPlayhead] = useState(0);
  const [importErrors, setImportErrors] = useState<string[]>([]);
  const [suggested, setSuggested] = useState<Suggestions>({ ads: null, chapters: null, state: 'idle' });
  const asking = useRef<AbortController | null>(null);
  useEffect(() => () => asking.current?.abort(), []);

  const program = useRow('programs', clip.ProgramId);
  const programRow = program.state === 'ok' ? (asProgram(program.row) as { Id: string; NetworkId?: string | null; AdMarkerRules?: AdMarkerRules | null }) : null;
  const { Rules } = effectiveAdMarkerRules(programRow?.AdMarkerRules ?? null, clip.AdMarkerRulesOverride ?? null);

  const { markers, keyOf } = fromDraft(draft);
  const draftJson = JSON.stringify(normaliseAdMarkers(markers.filter((k) => !Number.isNaN(k.MaxAds))));
  const dirty = draftJson !== savedJson || draft.mids.some((k) => k.time !== formatPreciseTime(k.seconds)) || markers.some((k) => Number.isNaN(k.MaxAds));
  useUnsavedGuard('form', dirty);

  // The clip's markers changed (saved here, or arriving from the server): an untouched draft follows.
  const opened = useRef(savedJson);
  useEffect(() => {
    if (opened.current === savedJson) return;
    opened.current = savedJson;
    if (!dirty) setDraft(toDraft(saved));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new saved list resets the draft; dirty is read at that moment
  }, [savedJson]);

  const violations = problemsAt(adMarkerViolations(markers, Rules, duration).map((v) => [v.field, formatFormError(v.error)]), keyOf);
  const refused = useLiveQuery(() => db.needsAttention.where('entityId').equals(clip.Id).filter((item) => item.mutation.name === 'clip.setAdMarkers').toArray(), [clip.Id]);

  const editMid = (key: string, change: Partial<Mid>) => setDraft((d) => ({ ...d, mids: d.mids.map((k) => (k.key === key ? { ...k, ...change } : k)) }));
  const addMid = (seconds: number) => {
    const key = newKey();
    setDraft((d) => ({ ...d, mids: [...d.mids, { key, seconds, time: formatPreciseTime(seconds), maxAds: '1' }].sort((a, b) => a.seconds - b.seconds) }));
    setSelected(key);
  };
  const removeMid = (key: string) => setDraft((d) => ({ ...d, mids: d.mids.filter((k) => k.key !== key) }));
  const moveMid = (key: string, seconds: number) => editMid(key, { seconds, time: formatPreciseTime(seconds) });
  const typeTime = (key: string, text: string) => {
    const r = readPreciseTime(text);
    editMid(key, r.ok ? { time: text, seconds: r.seconds } : { time: text });
  };

  const save = async () => {
    const own: Problems = {};
    draft.mids.forEach((k) => {
      const r = readPreciseTime(k.time);
      if (!r.ok) own[`${k.key}:time`] = [r.problem === 'shape' ? m.clips_chapters_time_invalid() : formatFormError(r.error)];
    });
    const ruled = problemsAt(Object.entries(adMarkerErrors(markers, duration)).map(([f, e]) => [f, formatFormError(e)]), keyOf);
    const all = { ...ruled, ...own };
    setRefusals(all);
    if (Object.keys(all).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-ad-markers="${CSS.escape(id)}"] [aria-invalid="true"]`)?.focus());
      return;
    }
    const next = normaliseAdMarkers(markers);
    if (!(await savedLocally(setClipAdMarkers(clip.Id, next)))) return;
    for (const item of refused ?? []) void savedLocally(dismissNeedsAttention(item.id));
    opened.current = JSON.stringify(next);
    setDraft(toDraft(next));
    showToast({ type: 'success', title: m.clips_ad_saved() });
  };

  const importCsv = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const read = readAdMarkersCsv(await file.text(), duration);
    if (!read.ok) {
      setImportErrors(read.errors.map((x) => m.clips_ad_import_line({ line: x.line, reason: formatFormError(x.error) })));
      return;
    }
    setImportErrors([]);
    setRefusals({});
    setDraft(toDraft(read.markers));
    showToast({ type: 'success', title: m.clips_ad_imported({ count: read.markers.length }) });
  };

  /** Asks the server for both kinds of suggestion, again every 2 s while it is making them (at most a minute). */
  const suggest = async () => {
    asking.current?.abort();
    const controller = new AbortController();
    asking.current = controller;
    setSuggested((s) => ({ ...s, state: 'asking' }));
    for (let i = 0; i < 30 && !controller.signal.aborted; i++) {
      const [ads, chapters] = await Promise.all([
        call(getSuggestedAdMarkers, { params: { clipId: clip.Id }, signal: controller.signal }),
        call(getSuggestedChapters, { params: { clipId: clip.Id }, signal: controller.signal }),
      ]);
      if (controller.signal.aborted) return;
      if (ads.kind !== 'ok' || chapters.kind !== 'ok') return setSuggested({ ads: null, chapters: null, state: 'failed' });
      if (ads.data.Status !== 'Pending' && chapters.data.Status !== 'Pending') return setSuggested({ ads: ads.data, chapters: chapters.data, state: 'idle' });
      await new Promise((r) => setTimeout(r, 2000));
    }
    if (!controller.signal.aborted) setSuggested({ ads: null, chapters: null, state: 'failed' });
  };

  const near = (a: number, b: number) => Math.abs(a - b) < 0.5;
  const openAds = (suggested.ads?.Items ?? []).filter((s) => !draft.mids.some((k) => near(k.seconds, s.Seconds)));
  const openChapters = (suggested.chapters?.Items ?? []).filter((s) => !clip.Chapters.some((c) => near(c.StartSeconds, s.StartSeconds)));
  const acceptChapter = async (s: { StartSeconds: number; Title: string | null }) => {
    const title = s.Title ?? m.clips_ad_suggested_chapter_title({ time: formatPreciseTime(s.StartSeconds) });
    if (await savedLocally(updateClip(clip.Id, { Chapters: normaliseChapters([...clip.Chapters, { StartSeconds: s.StartSeconds, Title: title }]) }))) {
      showToast({ type: 'success', title: m.clips_ad_chapter_added({ title }) });
    }
  };

  // At a field: why it cannot be saved (an error), and what the rules say against it (a warning).
  const notes = (where: string) => (
    <>
      {refusals[where] && <p id={`${id}-${where}-error`} role="alert" className="field-error">{refusals[where].join(' ')}</p>}
      {violations[where] && <p id={`${id}-${where}-rules`} className="ad-violation">{violations[where].map((t) => m.clips_ad_rule_note({ reason: t })).join(' ')}</p>}
    </>
  );
  const aria = (where: string) => {
    const described = [refusals[where] ? `${id}-${where}-error` : null, violations[where] ? `${id}-${where}-rules` : null].filter(Boolean).join(' ');
    return { id: `${id}-${where}`, 'aria-invalid': refusals[where] !== undefined, ...(described ? { 'aria-describedby': described } : {}) };
  };
  const breakRow = (which: 'pre' | 'post') => {
    const value = draft[which];
    const label = which === 'pre' ? m.clips_ad_preroll() : m.clips_ad_postroll();
    return (
      <fieldset className="ad-break">
        <legend>{label}</legend>
        <label>
          <input type="checkbox" checked={value !== null} onChange={(e) => setDraft((d) => ({ ...d, [which]: e.target.checked ? '1' : null }))} /> {which === 'pre' ? m.clips_ad_preroll_on() : m.clips_ad_postroll_on()}
        </label>
        {value !== null && (
          <div className="field">
            <label htmlFor={`${id}-${which}`}>{m.clips_ad_max_ads({ max: AD_MAX_ADS })}</label>
            <input {...aria(which)} inputMode="numeric" value={value} onChange={(e) => setDraft((d) => ({ ...d, [which]: e.target.value }))} />
          </div>
        )}
        {notes(which)}
      </fieldset>
    );
  };

  return (
    <section className="card clip-chapters clip-ad-markers" aria-labelledby={`${id}-title`} data-ad-markers={id}>
      <h2 id={`${id}-title`}>{m.clips_ad_title()}</h2>
      <ClipAdMarkerRules clip={clip} program={programRow} />
      {(refused ?? []).map((item) => (
        <div key={item.id} role="alert" className="alert alert-danger">
          <p><strong>{m.clips_ad_refused()}</strong></p>
          <ul>{item.errors.map((e, i) => <li key={i}>{fieldErrorText(e)}</li>)}</ul>
        </div>
      ))}
      {violations['all']?.map((t, i) => <p key={i} className="alert alert-warning">{m.clips_ad_rule_note({ reason: t })}</p>)}
      {refusals['all']?.map((t, i) => <p key={i} role="alert" className="field-error">{t}</p>)}
      {duration !== null && clip.Urls.AudioPrivateUrl && (
        <audio
          ref={player}
          controls
          preload="metadata"
          src={clip.Urls.AudioPrivateUrl}
          aria-label={m.clips_ad_player()}
          onTimeUpdate={(e) => setPlayhead(timeline.fromPlayer(e.currentTarget.currentTime))}
          onSeeked={(e) => setPlayhead(timeline.fromPlayer(e.currentTarget.currentTime))}
          onKeyDown={(e) => {
            if (isMarkerAddKey(e)) {
              e.preventDefault();
              addMid(Math.round(timeline.fromPlayer(e.currentTarget.currentTime) * 10) / 10);
            }
          }}
        />
      )}
      {duration !== null ? (
        <>
          <WaveformMarkers
            durationSeconds={duration}
            markers={draft.mids.map((k) => ({ id: k.key, seconds: k.seconds, label: m.clips_ad_midroll_label({ ads: k.maxAds }), kind: 'ad' as const }))}
            selectedId={selected}
            onSelect={(key) => {
              setSelected(key);
              // The player goes to the mid-roll chosen on the strip: play listens from the break.
              const at = draft.mids.find((k) => k.key === key);
              if (at && player.current) player.current.currentTime = timeline.toPlayer(at.seconds);
            }}
            onMove={moveMid}
            onAdd={addMid}
            onRemove={removeMid}
            playheadSeconds={playhead}
            label={m.clips_ad_strip()}
          />
          <p className="muted">{m.clips_ad_keys_hint()}</p>
        </>
      ) : (
        <p className="muted">{m.clips_ad_no_audio()}</p>
      )}
      <div className="ad-breaks">
        {breakRow('pre')}
        {breakRow('post')}
      </div>
      {draft.mids.length === 0 ? (
        <p className="muted">{m.clips_ad_no_midrolls()}</p>
      ) : (
        <ol className="chapter-list">
          {draft.mids.map((k, i) => (
            <li key={k.key} className={`chapter-row${k.key === selected ? ' is-selected' : ''}`}>
              <fieldset>
                <legend>{m.clips_ad_midroll({ n: i + 1 })}</legend>
                <div className="field">
                  <label htmlFor={`${id}-${k.key}:time`}>{m.clips_ad_time()}</label>
                  <input {...aria(`${k.key}:time`)} className="chapter-time" value={k.time} autoComplete="off" onChange={(e) => typeTime(k.key, e.target.value)} onFocus={() => setSelected(k.key)} />
                  {notes(`${k.key}:time`)}
                </div>
                <div className="field">
                  <label htmlFor={`${id}-${k.key}:ads`}>{m.clips_ad_max_ads({ max: AD_MAX_ADS })}</label>
                  <input {...aria(`${k.key}:ads`)} inputMode="numeric" value={k.maxAds} onChange={(e) => editMid(k.key, { maxAds: e.target.value })} />
                  {notes(`${k.key}:ads`)}
                </div>
                <button type="button" className="button small danger-outline" onClick={() => removeMid(k.key)} aria-label={m.clips_ad_remove_named({ n: i + 1 })}>
                  {m.clips_chapters_remove()}
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => addMid(duration !== null ? Math.min(Math.round(playhead * 10) / 10, duration) : 0)}>{m.clips_ad_add()}</button>
        <button type="button" className="button" disabled={!dirty} onClick={() => { setDraft(toDraft(saved)); setRefusals({}); }}>{m.clips_chapters_discard()}</button>
        <button type="button" className="button primary" disabled={!dirty} onClick={() => void save()}>{m.clips_ad_save()}</button>
      </div>
      <div className="field">
        <button type="button" className="button" onClick={() => download(`${clip.Slug ?? clip.Id}-ad-markers.csv`, adMarkersToCsv(markers.filter((k) => !Number.isNaN(k.MaxAds))))}>{m.clips_ad_export()}</button>{' '}
        <label htmlFor={`${id}-import`}>{m.clips_ad_import()}</label>
        <input id={`${id}-import`} type="file" accept=".csv,text/csv" aria-invalid={importErrors.length > 0} aria-describedby={importErrors.length > 0 ? `${id}-import-errors` : undefined} onChange={(e) => void importCsv(e)} />
        {importErrors.length > 0 && (
          <ul id={`${id}-import-errors`} role="alert" className="field-error">
            {importErrors.map((t, i) => <li key={i}>{t}</li>)}
          </ul>
        )}
      </div>
      <h3>{m.clips_ad_suggestions()}</h3>
      {!online ? (
        <p className="muted">{m.clips_ad_suggestions_offline()}</p>
      ) : (
        <>
          <button type="button" className="button" disabled={suggested.state === 'asking'} onClick={() => void suggest()}>{m.clips_ad_suggest()}</button>
          {suggested.state === 'asking' && <p role="status">{m.clips_ad_suggesting()}</p>}
          {suggested.state === 'failed' && <p role="alert" className="field-error">{m.clips_ad_suggest_failed()}</p>}
          {suggested.ads?.Status === 'NoAudio' && <p className="muted">{m.clips_ad_suggest_no_audio()}</p>}
          {suggested.ads && suggested.ads.Status !== 'NoAudio' && (
            <ul className="ad-suggestions" aria-label={m.clips_ad_suggested_midrolls()}>
              {openAds.length === 0 && <li className="muted">{m.clips_ad_suggest_none()}</li>}
              {openAds.map((s) => (
                <li key={`a${s.Seconds}`}>
                  {m.clips_ad_suggested_midroll({ time: formatPreciseTime(s.Seconds) })}{' '}
                  <button type="button" className="button small" onClick={() => addMid(s.Seconds)}>{m.clips_ad_accept_midroll({ time: formatPreciseTime(s.Seconds) })}</button>
                </li>
              ))}
            </ul>
          )}
          {suggested.chapters && suggested.chapters.Status !== 'NoAudio' && (
            <ul className="ad-suggestions" aria-label={m.clips_ad_suggested_chapters()}>
              {openChapters.length === 0 && <li className="muted">{m.clips_ad_suggest_none()}</li>}
              {openChapters.map((s) => (
                <li key={`c${s.StartSeconds}`}>
                  {m.clips_ad_suggested_chapter({ time: formatPreciseTime(s.StartSeconds), title: s.Title ?? '—' })}{' '}
                  <button type="button" className="button small" onClick={() => void acceptChapter(s)}>{m.clips_ad_accept_chapter({ time: formatPreciseTime(s.StartSeconds) })}</button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
