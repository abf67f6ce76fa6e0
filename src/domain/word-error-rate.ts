// Word error rate: how far a transcript is from what was said, as ASR evaluations count it —
// (substitutions + deletions + insertions) / words said, from the word-level edit distance
// (Levenshtein over words). Both texts are normalized first so only words count: lower case,
// punctuation gone (an apostrophe inside a word is kept: "that's"), a hyphen splits ("battle-field"
// is two words, as an engine hears it). Used by the transcription test and benchmark to compare
// engines on the same reading.

/** The words of a text as WER compares them. */
export function werWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .split(' ')
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length > 0);
}

/** Word-level edit distance: the fewest substitutions, deletions and insertions turning `reference` into `hypothesis`. */
export function wordEditDistance(reference: readonly string[], hypothesis: readonly string[]): number {
  // One row of the dynamic-programming table at a time: memory O(hypothesis), time O(both).
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const same = reference[i - 1] === hypothesis[j - 1];
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (same ? 0 : 1));
    }
    previous = current;
  }
  return previous[hypothesis.length]!;
}

/**
 * The word error rate of `hypothesis` against `reference`, after normalizing both (werWords).
 * 0 is perfect; it exceeds 1 when the hypothesis inserts more words than were said. An empty
 * reference: 0 for an empty hypothesis, else 1 per inserted word, so it is never NaN.
 */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = werWords(reference);
  const hyp = werWords(hypothesis);
  const edits = wordEditDistance(ref, hyp);
  return ref.length === 0 ? hyp.length : edits / ref.length;
}
