// The server runs of the ad-marker mutations of src/mutations/ad-markers.ts. Section 6: a clip's
// markers are content (content access on its program); rules, the program's and a clip's override
// of them, are settings (content and manage-settings access). Each marker or rule refused at its
// own field by src/domain/ad-markers.ts, the rule the screen ran before queuing.
import { adMarkerErrors, adMarkerRulesErrors, normaliseAdMarkers } from '../../src/domain/ad-markers.ts';
import { clipOverrideAdMarkerRules, clipSetAdMarkers, programSetAdMarkerRules } from '../../src/mutations/ad-markers.ts';
import { assertValid } from '../errors.ts';
import { checkPrecondition } from '../http.ts';
import { serverMutation } from './run.ts';
import { lockContent, lockRow, programAccess, requireFlags } from './store.ts';
import { episodeSecondsOf } from '../../src/domain/intro-outro.ts';

export const AD_MARKER_RUNS = [
  serverMutation(clipSetAdMarkers, async (s, a, expected) => {
    const { current, flags } = await lockContent(s, 'clip', a.clipId);
    requireFlags(flags, 'HasContentAccess');
    checkPrecondition(expected, current);
    // The episode's length: behind a program intro the published audio is longer by it.
    assertValid(Object.entries(adMarkerErrors(a.AdMarkers, episodeSecondsOf(current))));
    return s.update('clip', current, { ...current, AdMarkers: normaliseAdMarkers(a.AdMarkers) });
  }),
  serverMutation(programSetAdMarkerRules, async (s, a, expected) => {
    const { flags } = await programAccess(s, a.programId);
    const current = await lockRow(s, 'program', a.programId);
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    if (a.AdMarkerRules) assertValid(Object.entries(adMarkerRulesErrors(a.AdMarkerRules, 'AdMarkerRules')));
    return s.update('program', current, { ...current, AdMarkerRules: a.AdMarkerRules });
  }),
  serverMutation(clipOverrideAdMarkerRules, async (s, a, expected) => {
    const { current, flags } = await lockContent(s, 'clip', a.clipId);
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    if (a.Rules) assertValid(Object.entries(adMarkerRulesErrors(a.Rules, 'Rules')));
    return s.update('clip', current, { ...current, AdMarkerRulesOverride: a.Rules });
  }),
];
