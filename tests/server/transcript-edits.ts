// What the clip and recording transcript suites (transcript-mutation, recording-transcript-mutation)
// both write: a cue, and the refusal of an edit made on a transcript changed meanwhile.

/** A two-second cue from `start`. */
export const cue = (text: string, start = 0, speaker: string | null = null) => ({ StartSeconds: start, EndSeconds: start + 2, Text: text, Speaker: speaker });

/** The 409 at Cues for an edit made on an earlier transcript (the same for a clip's and a recording's). */
export const CHANGED_ELSEWHERE = 'The transcript was changed elsewhere after this edit began, so the edit was not saved. It is kept here: save it over the other version, or discard it to see that one.';
