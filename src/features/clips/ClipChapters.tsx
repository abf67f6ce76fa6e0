// A clip's chapters on the clip screen (issue 34): added, moved, renamed and removed on a marker
// strip over the clip's timeline (WaveformMarkers: pointer and keyboard, M adds one at the
// player's position) and in a list of chapters (start time typed as h:mm:ss or m:ss, title, link,
// image). Chapters are part of the clip, so Save queues clip.update { Chapters } through the outbox
// like the clip's other fields: it works offline, a conflict is shown by the clip screen, and a
// change the server refused is shown here at the chapter it names (Chapters.<i>.<Field>), with
// Edit again putting the refused chapters back to correct. Uploading a chapter's image needs the
// server (POST /v1/chapters/images): offline the section says so.
// The player plays the published audio, which may begin with the program's intro; chapters are on
// the episode's timeline, so the playhead, a chapter added at it and a seek to a chapter go through
// markerTimeline (src/domain/intro-outro.ts), as the Ad markers section's do.
//
//   saved ──add / move / edit / remove──> draft (unsaved: leaving asks first) ──Save──> queued ──> saved
//                                               └──Discard──> saved
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useLiveQuery } from 'dexie-react-hooks';
import { chapterErrors, normaliseChapters, type Chapter, type ChapterField } from '../../domain/chapters.ts';
import { markerTimeline } from '../../domain/intro-outro.ts';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { formatPreciseTime, readPreciseTime } from '../../domain/time.ts';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { updateClip } from '../../db/writes.ts';
import { mutationDef } from '../../mutations/registry.ts';
import { m } from '../../paraglide/messages.js';
import type { Clip } from '../../protocol/entities.ts';
import { postChapterImage } from '../../protocol/api/images.ts';
import { routeUrl, setXsrfToken, xsrfToken } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { showToast } from '../../lib/toast.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { isMarkerAddKey, WaveformMarkers } from '../../ui/audio/WaveformMarkers.tsx';
import './chapters.css';

type Draft = { key: string; seconds: number; start: string; title: string; url: string; image: string };
type RowErrors = Partial<Record<'start' | 'title' | 'url' | 'image', string>>;
const FIELD_OF: Record<ChapterField, keyof RowErrors> = { StartSeconds: 'start', Title: 'title', Url: 'url', ImageUrl: 'image' };

let keys = 0;
const newKey = () => `chapter-${++keys}`;
const toDraft = (chapters: readonly Chapter[]): Draft[] =>
  chapters.map((ch) => ({ key: newKey(), seconds: ch.StartSeconds, start: formatPreciseTime(ch.StartSeconds), title: ch.Title, url: ch.Url ?? '', image: ch.ImageUrl ?? '' }));
const toChapter = (d: Draft, seconds: number): Chapter => ({ StartSeconds: seconds, Title: d.title, Url: d.url.trim() || null, ImageUrl: d.image.trim() || null });
/** What a draft would store, for comparing with the clip's chapters (keys and typing aside). */
const stored = (chapters: readonly Chapter[]) => JSON.stringify(normaliseChapters(chapters));

/** The chapters a refused clip.update tried to save, or null when it did not set them. */
function triedChapters(item: NeedsAttentionEntry): Chapter[] | null {
  const def = mutationDef(item.mutation.name);
  if (def?.kind !== 'update' || def.entity !== 'clips') return null;
  const chapters = def.fields(item.mutation.args)['Chapters'];
  return Array.isArray(chapters) ? (chapters as Chapter[]) : null;
}

/** Errors of the server or the rules keyed Chapters.<i>.<Field>, as errors at each draft row. */
function errorsByRow(entries: ReadonlyArray<[string, string]>): { rows: Record<number, RowErrors>; form?: string } {
  const out: { rows: Record<number, RowErrors>; form?: string } = { rows: {} };
  for (const [field, text] of entries) {
    const at = /^Chapters\.(\d+)\.(StartSeconds|Title|Url|ImageUrl)$/.exec(field);
    if (at) (out.rows[Number(at[1])] ??= {})[FIELD_OF[at[2] as ChapterField]] ??= text;
    else out.form ??= text;
  }
  return out;
}

export function ClipChapters({ clip, organizationId }: { clip: Clip; organizationId: string }) {
  const id = useId();
  const online = useOnline();
  // The episode's timeline: the published audio's length less the intro it starts with.
  const timeline = markerTimeline(clip, clip.DurationSeconds != null && clip.DurationSeconds > 0 ? clip.DurationSeconds : null);
  const duration = timeline.episodeSeconds !== null && timeline.episodeSeconds > 0 ? timeline.episodeSeconds : null;
  const player = useRef<HTMLAudioElement>(null);
  const savedJson = stored(clip.Chapters);
  const [draft, setDraft] = useState<Draft[]>(() => toDraft(clip.Chapters));
  const [errors, setErrors] = useState<{ rows: Record<number, RowErrors>; form?: string }>({ rows: {} });
  const [selected, setSelected] = useState<string | null>(null);
  const [playhead, setPlayhead] = useState(0);
  const [uploading, setUploading] = useState<string | null>(null);

  const draftChapters = draft.map((d) => toChapter(d, d.seconds));
  const dirty = stored(draftChapters) !== savedJson || draft.some((d) => d.start !== formatPreciseTime(d.seconds));
  useUnsavedGuard('form', dirty);

  // The clip's chapters changed (saved here, or arriving from the server): an untouched list follows.
  const opened = useRef(savedJson);
  useEffect(() => {
    if (opened.current === savedJson) return;
    opened.current = savedJson;
    if (!dirty) setDraft(toDraft(clip.Chapters));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new saved list resets the draft; dirty is read at that moment
  }, [savedJson]);

  const refused = useLiveQuery(() => db.needsAttention.where('entityId').equals(clip.Id).sortBy('createdAt'), [clip.Id]);
  // The latest refused change of the chapters, if any.
  const refusal = useMemo(() => [...(refused ?? [])].reverse().find((item) => triedChapters(item) !== null && item.errors.some((e) => e.Field.startsWith('Chapters'))), [refused]);

  const edit = (key: string, change: Partial<Draft>) => setDraft((ds) => ds.map((d) => (d.key === key ? { ...d, ...change } : d)));
  const add = (seconds: number) => {
    const key = newKey();
    // Rendered now, so the new chapter's title, what the user types next, can take the focus here.
    // (A ref read by an effect lost it: the pending effects of an earlier render ran first, found
    // no row yet and cleared the ref; seen under load in CI.)
    flushSync(() => {
      setDraft((ds) => [...ds, { key, seconds, start: formatPreciseTime(seconds), title: '', url: '', image: '' }].sort((a, b) => a.seconds - b.seconds));
      setSelected(key);
    });
    document.getElementById(`${id}-${key}-title`)?.focus();
  };
  const remove = (key: string) => {
    setDraft((ds) => ds.filter((d) => d.key !== key));
    setErrors({ rows: {} });
  };
  const move = (key: string, seconds: number) => edit(key, { seconds, start: formatPreciseTime(seconds) });
  const typeStart = (key: string, text: string) => {
    const r = readPreciseTime(text);
    edit(key, r.ok ? { start: text, seconds: r.seconds } : { start: text });
  };

  const save = async () => {
    const rows: Record<number, RowErrors> = {};
    const chapters: Chapter[] = [];
    draft.forEach((d, i) => {
      const r = readPreciseTime(d.start);
      if (!r.ok) rows[i] = { start: r.problem === 'shape' ? m.clips_chapters_time_invalid() : formatFormError(r.error) };
      chapters.push(toChapter(d, r.ok ? r.seconds : d.seconds));
    });
    const ruled = errorsByRow(Object.entries(chapterErrors(chapters, duration)).map(([f, e]) => [f, formatFormError(e)]));
    for (const [i, e] of Object.entries(ruled.rows)) rows[Number(i)] = { ...e, ...rows[Number(i)] };
    setErrors({ rows, ...(ruled.form ? { form: ruled.form } : {}) });
    if (Object.keys(rows).length > 0 || ruled.form) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${CSS.escape(id)}-list [aria-invalid="true"]`)?.focus());
      return;
    }
    const next = normaliseChapters(chapters);
    if (!(await savedLocally(updateClip(clip.Id, { Chapters: next })))) return;
    if (refusal) void savedLocally(dismissNeedsAttention(refusal.id));
    opened.current = stored(next);
    setDraft(toDraft(next));
    showToast({ type: 'success', title: m.clips_chapters_saved() });
  };

  /** The refused chapters back in the list, each of the server's reasons at the field it names. */
  const editAgain = async (item: NeedsAttentionEntry) => {
    setDraft(toDraft(triedChapters(item) ?? []));
    setErrors(errorsByRow(item.errors.map((e) => [e.Field, fieldErrorText(e)])));
    await savedLocally(dismissNeedsAttention(item.id));
  };

  const upload = async (key: string, file: File) => {
    const row = draft.findIndex((d) => d.key === key);
    const setImageError = (text: string | undefined) =>
      setErrors((e) => {
        const { image: _old, ...rest } = e.rows[row] ?? {};
        return { ...e, rows: { ...e.rows, [row]: text === undefined ? rest : { ...rest, image: text } } };
      });
    if (!online) return setImageError(m.clips_chapters_image_offline());
    setUploading(key);
    setImageError(undefined);
    try {
      const res = await fetch(routeUrl(postChapterImage), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': file.type || 'application/octet-stream', 'x-organization-id': organizationId, 'x-xsrf-token': await xsrfToken() },
        body: file,
      });
      if (res.status === 403) setXsrfToken(null);
      if (res.ok) {
        // The studio's own path: the published chapters make it absolute on the public origin.
        const { Path } = (await res.json()) as { Path: string };
        edit(key, { image: Path });
      } else {
        const body = (await res.json().catch(() => null)) as { Errors?: Array<{ Field: string; Code: string; Message: string; MessageKey?: string }> } | null;
        const first = body?.Errors?.[0];
        setImageError(res.status === 415 ? m.clips_chapters_image_type() : first ? fieldErrorText(first) : m.clips_chapters_image_failed({ status: res.status }));
      }
    } catch {
      setImageError(m.clips_chapters_image_offline());
    } finally {
      setUploading(null);
    }
  };

  const field = (d: Draft, i: number, which: keyof RowErrors, label: string, input: React.ReactNode) => {
    const error = errors.rows[i]?.[which];
    return (
      <div className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor={`${id}-${d.key}-${which}`}>{label}</label>
        {input}
        {error && <p id={`${id}-${d.key}-${which}-error`} role="alert" className="field-error">{error}</p>}
      </div>
    );
  };
  const aria = (d: Draft, i: number, which: keyof RowErrors) => {
    const error = errors.rows[i]?.[which];
    return { id: `${id}-${d.key}-${which}`, 'aria-invalid': error !== undefined, ...(error ? { 'aria-describedby': `${id}-${d.key}-${which}-error` } : {}) };
  };

  return (
    <section className="card clip-chapters" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m.clips_chapters_title()}</h2>
      {refusal && (
        <div role="alert" className="alert alert-danger">
          <p><strong>{m.clips_chapters_refused()}</strong></p>
          <ul>
            {refusal.errors.map((e, k) => {
              const at = /^Chapters\.(\d+)\./.exec(e.Field);
              return <li key={k}>{at ? m.clips_chapters_refused_at({ n: Number(at[1]) + 1, reason: fieldErrorText(e) }) : fieldErrorText(e)}</li>;
            })}
          </ul>
          <button type="button" className="button primary" onClick={() => void editAgain(refusal)}>{m.clips_chapters_edit_again()}</button>
        </div>
      )}
      {duration !== null && clip.Urls.AudioPrivateUrl ? (
        <audio
          ref={player}
          controls
          preload="metadata"
          src={clip.Urls.AudioPrivateUrl}
          aria-label={m.clips_chapters_player()}
          onTimeUpdate={(e) => setPlayhead(timeline.fromPlayer(e.currentTarget.currentTime))}
          onSeeked={(e) => setPlayhead(timeline.fromPlayer(e.currentTarget.currentTime))}
          onKeyDown={(e) => {
            // M on the player adds a chapter where it is, as on the strip.
            if (isMarkerAddKey(e)) {
              e.preventDefault();
              add(Math.round(timeline.fromPlayer(e.currentTarget.currentTime) * 10) / 10);
            }
          }}
        />
      ) : (
        <p className="muted">{m.clips_chapters_no_audio()}</p>
      )}
      {duration !== null && (
        <>
          <WaveformMarkers
            durationSeconds={duration}
            markers={draft.map((d) => ({ id: d.key, seconds: d.seconds, label: d.title, kind: 'chapter' as const }))}
            selectedId={selected}
            onSelect={(key) => {
              setSelected(key);
              // The player goes to the chapter chosen on the strip: play listens from its start.
              const at = draft.find((d) => d.key === key);
              if (at && player.current) player.current.currentTime = timeline.toPlayer(at.seconds);
            }}
            onMove={move}
            onAdd={add}
            onRemove={remove}
            playheadSeconds={playhead}
            label={m.clips_chapters_strip()}
          />
          <p className="muted">{m.clips_chapters_keys_hint()}</p>
        </>
      )}
      {errors.form && <p role="alert" className="field-error">{errors.form}</p>}
      {draft.length === 0 ? (
        <p className="muted">{m.clips_chapters_none()}</p>
      ) : (
        <ol id={`${id}-list`} className="chapter-list">
          {draft.map((d, i) => (
            <li key={d.key} className={`chapter-row${d.key === selected ? ' is-selected' : ''}`}>
              <fieldset>
                <legend>{m.clips_chapters_chapter({ n: i + 1 })}</legend>
                {field(d, i, 'start', m.clips_chapters_start(), (
                  <input {...aria(d, i, 'start')} className="chapter-time" value={d.start} autoComplete="off" onChange={(e) => typeStart(d.key, e.target.value)} onFocus={() => setSelected(d.key)} />
                ))}
                {field(d, i, 'title', m.clips_chapters_chapter_title(), (
                  <input {...aria(d, i, 'title')} value={d.title} onChange={(e) => edit(d.key, { title: e.target.value })} onFocus={() => setSelected(d.key)} />
                ))}
                {field(d, i, 'url', m.clips_chapters_url(), (
                  <input {...aria(d, i, 'url')} type="url" inputMode="url" value={d.url} placeholder="https://" onChange={(e) => edit(d.key, { url: e.target.value })} />
                ))}
                {field(d, i, 'image', m.clips_chapters_image(), (
                  <>
                    <input {...aria(d, i, 'image')} type="url" inputMode="url" value={d.image} placeholder="https://" onChange={(e) => edit(d.key, { image: e.target.value })} />
                    <input
                      type="file"
                      accept="image/jpeg,image/png"
                      aria-label={m.clips_chapters_image_upload({ n: i + 1 })}
                      disabled={uploading !== null || !online}
                      onChange={(e) => {
                        const file = e.target.files?.[0];
                        e.target.value = '';
                        if (file) void upload(d.key, file);
                      }}
                    />
                    {!online && <p className="muted">{m.clips_chapters_image_offline()}</p>}
                    {uploading === d.key && <p role="status">{m.clips_chapters_image_uploading()}</p>}
                    {d.image && <img className="chapter-image" src={d.image} alt="" width={64} height={64} />}
                  </>
                ))}
                <button type="button" className="button small danger-outline" onClick={() => remove(d.key)} aria-label={m.clips_chapters_remove_named({ n: i + 1 })}>
                  {m.clips_chapters_remove()}
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => add(duration !== null ? Math.min(Math.round(playhead * 10) / 10, duration) : 0)}>{m.clips_chapters_add()}</button>
        <button type="button" className="button" disabled={!dirty} onClick={() => { setDraft(toDraft(clip.Chapters)); setErrors({ rows: {} }); }}>{m.clips_chapters_discard()}</button>
        <button type="button" className="button primary" disabled={!dirty} onClick={() => void save()}>{m.clips_chapters_save()}</button>
      </div>
    </section>
  );
}
