// The names of the search types: the tabs of the search screen, and the sections of its 'all' tab.
import { m } from '../../paraglide/messages.js';
import type { SearchType } from '../../domain/search.ts';

export const TYPE_LABEL: Record<SearchType, () => string> = {
  all: m.search_type_all,
  clip: m.search_type_clip,
  program: m.search_type_program,
  playlist: m.search_type_playlist,
  recording: m.search_type_recording,
};
