// Reference data (GET /v1/reference-data/*: languages, podcast categories, time zones, normalization presets) as forms choose from it,
// offline too: each list is fetched once per page load when online and kept in localStorage, the
// same for every user and organization, so a device that fetched it once still offers it offline.
// Until a copy exists (a device that never fetched it, offline) the hook answers null and forms
// leave the membership check to the server (src/domain/program-rules.ts ProgramReference).
import { useEffect, useState } from 'react';
import * as z from 'zod';
import { call } from './api.ts';
import { listLanguages, listNormalizationPresets, listPodcastCategories, listTimeZones } from '../protocol/api/reference.ts';
import {
  LanguagesResponseSchema,
  NormalizationPresetsResponseSchema,
  PodcastCategoriesResponseSchema,
  TimeZonesResponseSchema,
  type Language,
  type NormalizationPreset,
  type PodcastCategory,
  type TimeZone,
} from '../protocol/reference.ts';

const LISTS = {
  languages: { route: listLanguages, schema: LanguagesResponseSchema },
  'podcast-categories': { route: listPodcastCategories, schema: PodcastCategoriesResponseSchema },
  'time-zones': { route: listTimeZones, schema: TimeZonesResponseSchema },
  'normalization-presets': { route: listNormalizationPresets, schema: NormalizationPresetsResponseSchema },
} as const;
type ListName = keyof typeof LISTS;
type ListOf<N extends ListName> = z.infer<(typeof LISTS)[N]['schema']>;

const storageKey = (name: ListName) => `castaway-reference-v1:${name}`;
const fetched = new Map<ListName, Promise<unknown>>();

function kept<N extends ListName>(name: N): ListOf<N> | null {
  try {
    const text = localStorage.getItem(storageKey(name));
    if (text === null) return null;
    const parsed = LISTS[name].schema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as ListOf<N>) : null;
  } catch {
    return null; // no storage (private mode) or a damaged copy: fetched again
  }
}

/** Fetches the list once per page load; keeps it for offline use. Resolves null when it cannot. */
function refresh<N extends ListName>(name: N): Promise<ListOf<N> | null> {
  let work = fetched.get(name) as Promise<ListOf<N> | null> | undefined;
  if (!work) {
    work = call(LISTS[name].route).then((result) => {
      if (result.kind !== 'ok') {
        fetched.delete(name); // try again next time
        return null;
      }
      const parsed = LISTS[name].schema.safeParse(result.data);
      if (!parsed.success) return null;
      try {
        localStorage.setItem(storageKey(name), JSON.stringify(parsed.data));
      } catch {
        // Storage full or unavailable: the list still serves this page.
      }
      return parsed.data as ListOf<N>;
    });
    fetched.set(name, work);
  }
  return work;
}

function useReferenceList<N extends ListName>(name: N): ListOf<N> | null {
  const [list, setList] = useState<ListOf<N> | null>(() => kept(name));
  useEffect(() => {
    let live = true;
    void refresh(name).then((fresh) => {
      if (live && fresh) setList(fresh);
    });
    return () => void (live = false);
  }, [name]);
  return list;
}

export const useLanguages = (): Language[] | null => useReferenceList('languages');
export const usePodcastCategories = (): PodcastCategory[] | null => useReferenceList('podcast-categories');
export const useTimeZones = (): TimeZone[] | null => useReferenceList('time-zones');
export const useNormalizationPresets = (): NormalizationPreset[] | null => useReferenceList('normalization-presets');
