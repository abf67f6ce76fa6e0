// A clip's loudness (issue 34; src/protocol/api/loudness.ts): the figures before and after its
// normalization, the preset it targets and the one in effect now, and the job's state. Read by
// whoever may read the clip (guard.row); "normalize again" is the named mutation
// clip.normalizeLoudness (sync-server/audio/loudness-record.ts), through the outbox.
import * as routes from '../../src/protocol/api/loudness.ts';
import { loadLoudnessRow, loudnessToWire, presetInEffect } from '../audio/loudness-record.ts';
import { getAuth } from '../auth.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

export function loudnessRoutes() {
  return resourceApp().openapi(guarded(routes.getClipLoudness, guard.row('clips', 'clipId')), async (c) => {
    const store = c.get('deps').store;
    const clip = c.var.row;
    const [row, effective] = await Promise.all([loadLoudnessRow(store, clip.Id), presetInEffect(store, getAuth(c).organizationId, String(clip['ProgramId']))]);
    return c.json(loudnessToWire(clip.Id, row, effective), 200);
  });
}
