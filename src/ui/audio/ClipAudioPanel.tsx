// What the clip and recording screens mount: the waveform and cut editor of one audio. Waveform
// data comes, in this order, from the waveform cache (so a clip opened offline draws at once),
// from the server's files (WaveformHighResUrl / WaveformLowResUrl, audiowaveform .dat), or from
// the decode worker (a file just picked, or the audio URL when the server made no waveform).
//   <ClipAudioPanel audio={{ key: clip.Id, durationSeconds: clip.DurationSeconds, urls: clip.Urls }}
//                   savedCut={{ clipId: clip.Id, pending: clip.PendingCut }}
//                   onSaveCut={(edit) => queue clip.saveCut} />
// A clip's saved cut comes from saved-cut.ts (the outbox, the server, else this device's copy), so
// offline the editor opens with the regions last saved here; when the network returns the server's
// cut replaces an untouched editor's. A cut saved offline is queued like every other edit.
// A recording mounts it with saveLabel "Make a clip of the kept audio" (features/recordings).
import { useEffect, useRef, useState } from 'react';
import { defaultAudioKeeper } from '../../media/audio-keep.ts';
import { isMediaError, MediaErrorCode } from '../../media/errors.ts';
import { mediaFailureText } from '../../media/messages.ts';
import type { Waveform } from '../../media/peaks.ts';
import { fetchMedia } from '../../media/source.ts';
import { waveformFromDat } from '../../media/waveform-format.ts';
import { useOnline } from '../../lib/connectivity.ts';
import type { CutEdit } from '../../protocol/media.ts';
import { m } from '../../paraglide/messages.js';
import { renderPreviewWav, waveformFor } from '../../../workers/audio/client.ts';
import { defaultWaveformCache } from '../../../workers/audio/waveform-cache.ts';
import { CutEditor } from './CutEditor.tsx';
import type { WaveformMarker } from './WaveformView.tsx';
import { createPlainPlayer } from './plain-player.ts';
import { rememberSavedCut, savedClipCut, type OpeningCut } from './saved-cut.ts';
import { createPreviewPlayer } from './preview-player.ts';

export type PanelAudio = {
  /** Identifies this audio in the cache (the clip or recording Id plus its file name, for example). */
  key: string;
  durationSeconds?: number | null;
  urls?: { AudioPrivateUrl?: string | null; AudioUrl?: string | null; WaveformHighResUrl?: string | null; WaveformLowResUrl?: string | null };
  /** A file just picked (decoded in the worker). */
  file?: File | null;
};

type Loaded = { waveforms: Waveform[]; durationSeconds: number };

async function fetchDat(url: string, signal: AbortSignal): Promise<Waveform> {
  const res = await fetchMedia(url, { credentials: 'same-origin', signal });
  return waveformFromDat(new Uint8Array(await res.arrayBuffer()));
}

/** A failure that the network coming back may cure (tried again by itself when it does). */
function isNetworkFailure(e: unknown): boolean {
  return isMediaError(e) && (e.code === MediaErrorCode.Offline || e.code === MediaErrorCode.Unreachable);
}

/** The waveform cache's key: the audio's key plus where its files are and how long it is, so a
 *  clip given new audio (new Urls, new duration) is not drawn from the old audio's entry. */
export function panelCacheKey(audio: PanelAudio): string {
  const u = audio.urls;
  return [audio.key, u?.WaveformHighResUrl ?? u?.AudioPrivateUrl ?? u?.AudioUrl ?? '', audio.durationSeconds ?? ''].join('|');
}

export async function loadWaveforms(audio: PanelAudio, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<Loaded> {
  const cache = await defaultWaveformCache();
  const key = panelCacheKey(audio);
  const cached = await cache?.get(key);
  if (cached) return cached;
  const high = audio.urls?.WaveformHighResUrl;
  const low = audio.urls?.WaveformLowResUrl;
  if (high && low && !audio.file) {
    const waveforms = [await fetchDat(high, signal), await fetchDat(low, signal)];
    const durationSeconds = audio.durationSeconds ?? (waveforms[0]!.length * waveforms[0]!.samplesPerPixel) / waveforms[0]!.sampleRate;
    const loaded = { waveforms, durationSeconds };
    await cache?.put(key, { ...loaded, sampleRate: waveforms[0]!.sampleRate });
    return loaded;
  }
  const url = audio.urls?.AudioPrivateUrl ?? audio.urls?.AudioUrl;
  const input = audio.file ? { kind: 'blob' as const, blob: audio.file } : url ? { kind: 'url' as const, url } : null;
  if (!input) throw new Error('no audio to draw');
  const r = await waveformFor(input, { signal, onProgress: (p) => onProgress(p.fraction), cache, cacheKey: key });
  return { waveforms: r.waveforms, durationSeconds: r.durationSeconds };
}

export type ClipAudioPanelProps = {
  audio: PanelAudio;
  initialCut?: CutEdit | null;
  /** A clip's: opens with its saved cut (saved-cut.ts), loaded beside the waveform; a failure opens it uncut. */
  savedCut?: { clipId: string; pending?: unknown };
  onSaveCut: (edit: CutEdit) => void;
  /** The save button's words (default "Save cut"). */
  saveLabel?: string;
  /** Points named on the waveform (a recording's annotations), each seeking the player to its time. */
  markers?: readonly WaveformMarker[] | undefined;
  /** Points on the cut's output (a clip's chapters and mid-rolls), placed under the cut being edited (CutEditor). */
  outputMarkers?: readonly WaveformMarker[] | undefined;
};

export function ClipAudioPanel(props: ClipAudioPanelProps) {
  const { audio } = props;
  const [loaded, setLoaded] = useState<(Loaded & { cut: CutEdit | null; cutFrom: OpeningCut['from'] | null }) | null>(null);
  const [progress, setProgress] = useState(0);
  const [problem, setProblem] = useState<{ text: string; network: boolean } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const online = useOnline();
  const onlineNow = useRef(online);
  onlineNow.current = online;

  useEffect(() => {
    const controller = new AbortController();
    setLoaded(null);
    setProblem(null);
    const saved = props.savedCut;
    const cut: Promise<{ cut: CutEdit | null; from: OpeningCut['from'] | null }> = saved
      ? savedClipCut(saved.clipId, saved.pending, { online: onlineNow.current }).catch(() => ({ cut: null, from: 'unknown' as const }))
      : Promise.resolve({ cut: props.initialCut ?? null, from: null });
    Promise.all([loadWaveforms(audio, controller.signal, setProgress), cut]).then(([waveforms, edit]) => setLoaded({ ...waveforms, cut: edit.cut, cutFrom: edit.from }), (e: unknown) => {
      if (controller.signal.aborted) return;
      setProblem({ text: mediaFailureText(e, undefined, { deviceOffline: !onlineNow.current }), network: isNetworkFailure(e) });
    });
    return () => controller.abort();
    // The cache key names everything loadWaveforms reads; the cut is read once per load.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new audio object with the same key is the same load
  }, [panelCacheKey(audio), audio.file, attempt]);

  // Offline or unreachable: try again once the network is back.
  useEffect(() => {
    if (online && problem?.network) setAttempt((a) => a + 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the return of the network retries, not the problem itself
  }, [online]);

  // Opened from this device's copy (or none): once online, the server's cut (the editor takes it
  // while the user has not changed anything).
  const cutFrom = loaded?.cutFrom ?? null;
  useEffect(() => {
    const saved = props.savedCut;
    if (!online || !saved || (cutFrom !== 'device' && cutFrom !== 'unknown')) return;
    let live = true;
    void savedClipCut(saved.clipId, saved.pending, { online: true }).then(
      (fresh) => {
        if (live && fresh.from !== 'device' && fresh.from !== 'unknown') setLoaded((l) => l && { ...l, cut: fresh.cut, cutFrom: fresh.from });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the saved cut's identity is read when the network returns or the source changes
  }, [online, cutFrom]);

  const saveCut = (edit: CutEdit) => {
    if (props.savedCut) void rememberSavedCut(props.savedCut.clipId, edit);
    props.onSaveCut(edit);
  };

  const [fileUrl, setFileUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!audio.file) return setFileUrl(null);
    const u = URL.createObjectURL(audio.file);
    setFileUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [audio.file]);

  if (problem) {
    return (
      <div className="audio-problem">
        <p role="alert">{problem.text}</p>
        <button type="button" className="button" onClick={() => setAttempt((a) => a + 1)}>{m.media_retry()}</button>
      </div>
    );
  }
  if (!loaded) return <p role="status">{m.media_waveform_loading({ percent: Math.round(progress * 100) })}</p>;
  const audioUrl = audio.urls?.AudioPrivateUrl ?? audio.urls?.AudioUrl ?? null;
  const src = fileUrl ?? audioUrl;
  const wavInput = audio.file ? { kind: 'blob' as const, blob: audio.file } : audioUrl ? { kind: 'url' as const, url: audioUrl } : null;
  return (
    <CutEditor
      waveforms={loaded.waveforms}
      durationSeconds={loaded.durationSeconds}
      initialEdit={loaded.cut}
      onSave={saveCut}
      {...(props.savedCut && !online ? { saveNote: loaded.cutFrom === 'unknown' ? m.clips_cut_offline_none() : m.clips_cut_from_device() } : {})}
      {...(props.saveLabel ? { saveLabel: props.saveLabel } : {})}
      createPlayer={src ? (events) => createPreviewPlayer(src, undefined, events) : undefined}
      // A file just picked is on the device already; audio from the server is kept once played online.
      createPlainPlayer={src ? (events) => createPlainPlayer(src, { ...events, isOffline: () => !onlineNow.current, keeper: fileUrl ? null : defaultAudioKeeper() }) : undefined}
      offline={!online}
      // A clip's panel is the one given its saved cut; the recording screen's makes a clip of a recording.
      audioOf={props.savedCut ? 'clip' : 'recording'}
      markers={props.markers}
      outputMarkers={props.outputMarkers}
      renderWav={wavInput ? (kept, crossfadeMs, onProgress) => renderPreviewWav(wavInput, kept, crossfadeMs, { onProgress: (p) => onProgress(p.fraction) }) : undefined}
    />
  );
}
