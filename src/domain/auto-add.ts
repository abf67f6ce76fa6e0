// A playlist's auto-add rule (section 7: /v1/playlists/{playlistId}/settings/auto-add): the playlist
// takes every new clip of its program, optionally only clips with any of the rule's tags and/or of
// its episode type. The server applies it when a clip is created in the program and when a clip
// becomes Published (sync-server/mutations/playlists.ts applyAutoAdd); screens use the same
// functions to say what the rule will do.
import type { AutoAddRule } from '../protocol/entities.ts';

/** The rule of a playlist that has none: off, no conditions. */
export const AUTO_ADD_OFF: AutoAddRule = { Enabled: false, Tags: [], EpisodeType: null };

const tagKey = (tag: string) => tag.trim().toLocaleLowerCase('en-US');

/** The rule as it is stored: tags trimmed, empty ones and repeats (case aside) dropped, first
 * spelling kept. */
export function normaliseAutoAddRule(rule: AutoAddRule): AutoAddRule {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of rule.Tags) {
    const tag = raw.trim();
    const key = tagKey(tag);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return { Enabled: rule.Enabled, Tags: tags, EpisodeType: rule.EpisodeType };
}

/** A playlist row's rule (rows made before rules were kept have none: off). */
export function autoAddRuleOf(row: { AutoAdd?: AutoAddRule | null | undefined }): AutoAddRule {
  return row.AutoAdd ?? AUTO_ADD_OFF;
}

export type AutoAddClip = { Deleted?: boolean; Tags?: readonly string[] | null; EpisodeType?: string | null };

/**
 * Whether the rule takes the clip: the rule is on, the clip is live, the clip has one of the
 * rule's tags (compared without case and surrounding spaces; no tags in the rule: any clip), and
 * its episode type is the rule's (a clip with none is a Full episode, as feeds read it).
 */
export function autoAddMatches(rule: AutoAddRule | null | undefined, clip: AutoAddClip): boolean {
  if (!rule?.Enabled || clip.Deleted) return false;
  if (rule.EpisodeType !== null && (clip.EpisodeType ?? 'Full') !== rule.EpisodeType) return false;
  const wanted = rule.Tags.map(tagKey).filter((t) => t !== '');
  if (wanted.length === 0) return true;
  const has = new Set((clip.Tags ?? []).map(tagKey));
  return wanted.some((t) => has.has(t));
}
