// A clip's chapters and mid-rolls as read-only points on the cut editor's waveform (issue 34): they
// are on the episode's timeline (the cut's output), and the cut editor places them on the original
// under the cut being edited (CutEditor outputMarkers), so a producer cutting sees where they fall
// and which a cut would move or drop. Each flag seeks the player there; editing them stays in the
// Chapters and Ad markers sections.
import { m } from '../../paraglide/messages.js';
import type { Clip } from '../../protocol/entities.ts';
import type { WaveformMarker } from '../../ui/audio/WaveformView.tsx';

export function episodeMarkers(clip: Pick<Clip, 'Chapters' | 'AdMarkers'>): WaveformMarker[] {
  const chapters = clip.Chapters.map((ch, i) => ({
    id: `chapter-${i}`,
    seconds: ch.StartSeconds,
    label: ch.Title.trim() ? m.markers_cut_chapter({ title: ch.Title.trim() }) : m.markers_cut_chapter_untitled(),
  }));
  const mids = (clip.AdMarkers ?? [])
    .filter((k) => k.Type === 'MidRoll' && k.Seconds !== null)
    .map((k, i) => ({ id: `midroll-${i}`, seconds: k.Seconds!, label: m.markers_cut_midroll({ what: m.clips_ad_midroll_label({ ads: k.MaxAds }) }) }));
  return [...chapters, ...mids];
}
