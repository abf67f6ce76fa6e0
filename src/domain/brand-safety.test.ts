import { describe, expect, it } from 'vitest';
import { analyzeBrandSafety, brandSafetyFingerprint, ESCALATE_AT, EVIDENCE_PER_CATEGORY } from './brand-safety.ts';

describe('analyzeBrandSafety', () => {
  it('finds nothing in a harmless episode', () => {
    const result = analyzeBrandSafety([
      { source: 'Title', text: 'Gardening in small spaces' },
      { source: 'Transcript', text: 'Today we talk about tomatoes, balconies and how much sun basil needs.', startSeconds: 0 },
    ]);
    expect(result).toEqual({ Risk: 'None', Categories: [], WordsRead: 16 });
  });

  it('matches stems, keeps where and the words around, and ranks categories by risk', () => {
    const result = analyzeBrandSafety([
      { source: 'Title', text: 'The mayor and the war' },
      { source: 'Transcript', text: 'Police said the robbery happened at night and two men were arrested near the station later on.', startSeconds: 754.5 },
    ]);
    expect(result.Risk).toBe('Medium');
    expect(result.Categories.map((c) => [c.Category, c.Risk, c.MatchCount])).toEqual([
      ['CrimeHarmfulActs', 'Medium', 2],
      ['DeathInjuryMilitaryConflict', 'Low', 1],
    ]);
    const crime = result.Categories[0]!;
    expect(crime.Matches[0]).toEqual({ Term: 'robbery', Source: 'Transcript', StartSeconds: 754.5, Excerpt: 'Police said the robbery happened at night and two men…' });
    // "arrested" is matched through its stem: the lexicon's "arrested" and the text's word meet as "arrest".
    expect(crime.Matches[1]!.Term).toBe('arrested');
    expect(result.Categories[1]!.Matches[0]).toMatchObject({ Term: 'war', Source: 'Title', StartSeconds: null, Excerpt: 'The mayor and the war' });
  });

  it('matches a phrase only as a phrase, and a German term in German text', () => {
    expect(analyzeBrandSafety([{ source: 'Description', text: 'A machine that makes guns of ice' }]).Categories.map((c) => c.Category)).toEqual(['ArmsAmmunition']);
    const phrase = analyzeBrandSafety([{ source: 'Description', text: 'He carried a machine gun.' }]);
    expect(phrase.Categories[0]).toMatchObject({ Category: 'ArmsAmmunition', Risk: 'High', MatchCount: 1 });
    const german = analyzeBrandSafety([{ source: 'Transcript', text: 'Nach dem Terroranschlag sprach der Bürgermeister.', startSeconds: 12 }]);
    expect(german.Categories[0]).toMatchObject({ Category: 'Terrorism', Risk: 'High' });
  });

  it('counts a word both languages list once', () => {
    const result = analyzeBrandSafety([{ source: 'Transcript', text: 'cannabis', startSeconds: 1 }]);
    expect(result.Categories[0]).toMatchObject({ Category: 'IllegalDrugsTobaccoAlcohol', MatchCount: 1 });
  });

  it('raises a category heard often by one level, never to Floor, and keeps a bounded evidence list', () => {
    const often = analyzeBrandSafety([{ source: 'Transcript', text: Array.from({ length: ESCALATE_AT }, () => 'damn').join(' '), startSeconds: 0 }]);
    expect(often.Categories[0]).toMatchObject({ Category: 'ObscenityProfanity', Risk: 'Medium', MatchCount: ESCALATE_AT });
    const once = analyzeBrandSafety([{ source: 'Transcript', text: Array.from({ length: ESCALATE_AT - 1 }, () => 'damn').join(' '), startSeconds: 0 }]);
    expect(once.Categories[0]!.Risk).toBe('Low');
    const high = analyzeBrandSafety([{ source: 'Transcript', text: Array.from({ length: 30 }, () => 'cocaine').join(' '), startSeconds: 0 }]);
    expect(high.Categories[0]).toMatchObject({ Risk: 'High', MatchCount: 30 });
    expect(high.Categories[0]!.Matches).toHaveLength(EVIDENCE_PER_CATEGORY);
    expect(analyzeBrandSafety([{ source: 'Title', text: 'white power' }]).Risk).toBe('Floor');
  });
});

describe('brandSafetyFingerprint', () => {
  it('changes with the text, its place and its time, and only then', () => {
    const base = [{ source: 'Title' as const, text: 'A' }, { source: 'Transcript' as const, text: 'b', startSeconds: 1 }];
    const fp = brandSafetyFingerprint(base);
    expect(brandSafetyFingerprint(base.map((p) => ({ ...p })))).toBe(fp);
    expect(brandSafetyFingerprint([{ source: 'Title', text: 'A!' }, base[1]!])).not.toBe(fp);
    expect(brandSafetyFingerprint([{ source: 'Description', text: 'A' }, base[1]!])).not.toBe(fp);
    expect(brandSafetyFingerprint([base[0]!, { ...base[1]!, startSeconds: 2 }])).not.toBe(fp);
  });
});
