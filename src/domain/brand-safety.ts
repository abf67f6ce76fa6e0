// A clip's brand safety (GET /v1/clips/{clipId}/brand-safety; the staff tool
// POST /internal/tools/clips/{clipId}/brand-safety/retry): what an advertiser buying its ad breaks
// would want to know before a spot runs beside it. The categories are the GARM Brand Safety Floor
// and Suitability Framework's eleven (the one advertisers and podcast hosts share), each judged at
// GARM's risk levels: Floor (no ad should run), High, Medium, Low, or None.
//
// What the analysis is, plainly: no language model and no listening. The clip's title, description
// and transcript are read word by word; each word is reduced to its stem by the same Snowball
// stemmers search uses (src/domain/search.ts), so "shootings" meets "shooting", and compared with a
// lexicon of English and German terms, each with a category and a risk. A category's risk is the
// highest of its terms heard; heard ESCALATE_AT times or more it is one level higher (never to
// Floor: only a Floor term is the floor). The clip's risk is its highest category's. Every match is
// kept as evidence (where: title, description or a transcript cue with its time; the words around
// it), so a person can judge it: a news show reporting a war is not a war. The lexicon's version is
// part of the text's fingerprint, so a lexicon change makes every clip's analysis stale.
import { lexemeOf, wordsOf, type SearchLanguage } from './search.ts';

export const BRAND_SAFETY_CATEGORIES = [
  'AdultExplicitSexualContent',
  'ArmsAmmunition',
  'CrimeHarmfulActs',
  'DeathInjuryMilitaryConflict',
  'OnlinePiracy',
  'HateSpeechAggression',
  'ObscenityProfanity',
  'IllegalDrugsTobaccoAlcohol',
  'SpamHarmfulContent',
  'Terrorism',
  'DebatedSocialIssues',
] as const;
export type BrandSafetyCategory = (typeof BRAND_SAFETY_CATEGORIES)[number];

/** Lowest first: a risk's index is its rank. */
export const BRAND_SAFETY_RISKS = ['None', 'Low', 'Medium', 'High', 'Floor'] as const;
export type BrandSafetyRisk = (typeof BRAND_SAFETY_RISKS)[number];

export const BRAND_SAFETY_STATUSES = ['NotAnalyzed', 'Queued', 'Completed', 'Failed'] as const;
export type BrandSafetyStatus = (typeof BRAND_SAFETY_STATUSES)[number];

export const BRAND_SAFETY_SOURCES = ['Title', 'Description', 'Transcript'] as const;
export type BrandSafetySource = (typeof BRAND_SAFETY_SOURCES)[number];

/** A category heard this many times or more is one risk level higher (below Floor). */
export const ESCALATE_AT = 5;
/** Evidence kept per category (the count says how many there were in all). */
export const EVIDENCE_PER_CATEGORY = 10;
/** Words either side of a match in its evidence. */
const CONTEXT_WORDS = 6;

/** Bump when the lexicon or the rules change: every stored analysis becomes stale. */
export const BRAND_SAFETY_LEXICON_VERSION = 1;

type Term = { words: string; risk: Exclude<BrandSafetyRisk, 'None'> };
type Lexicon = Record<BrandSafetyCategory, { english: Term[]; german: Term[] }>;

const t = (risk: Term['risk'], ...list: string[]): Term[] => list.map((words) => ({ words, risk }));

/** The terms, per category and language. Kept short and unambiguous: a word with an everyday sense
 *  ("shot" of espresso, "kill" a process) is left out or weighed Low. */
const LEXICON: Lexicon = {
  AdultExplicitSexualContent: {
    english: [...t('High', 'pornography', 'porn', 'explicit sex', 'sex tape', 'nude photos'), ...t('Medium', 'sexual', 'erotic', 'stripper', 'onlyfans'), ...t('Low', 'sex', 'nudity')],
    german: [...t('High', 'pornografie', 'porno', 'nacktfotos'), ...t('Medium', 'sexuell', 'erotisch', 'stripperin'), ...t('Low', 'sex', 'nacktheit')],
  },
  ArmsAmmunition: {
    english: [...t('High', 'assault rifle', 'machine gun', 'ammunition', 'firearms dealer'), ...t('Medium', 'firearm', 'firearms', 'handgun', 'rifle', 'shotgun', 'pistol'), ...t('Low', 'gun', 'guns', 'weapon', 'weapons')],
    german: [...t('High', 'sturmgewehr', 'maschinengewehr', 'munition'), ...t('Medium', 'schusswaffe', 'gewehr', 'pistole', 'revolver'), ...t('Low', 'waffe', 'waffen')],
  },
  CrimeHarmfulActs: {
    english: [...t('High', 'human trafficking', 'child abuse'), ...t('Medium', 'murder', 'murdered', 'robbery', 'kidnapping', 'assault', 'burglary', 'fraud', 'arson'), ...t('Low', 'crime', 'criminal', 'theft', 'arrested')],
    german: [...t('High', 'menschenhandel', 'kindesmissbrauch'), ...t('Medium', 'mord', 'ermordet', 'raub', 'entführung', 'einbruch', 'betrug', 'brandstiftung'), ...t('Low', 'verbrechen', 'kriminell', 'diebstahl', 'festgenommen')],
  },
  DeathInjuryMilitaryConflict: {
    english: [...t('High', 'massacre', 'war crimes', 'mass shooting', 'genocide'), ...t('Medium', 'killed', 'casualties', 'airstrike', 'bombing', 'invasion'), ...t('Low', 'shooting', 'war', 'death', 'died', 'injured', 'military', 'soldiers')],
    german: [...t('High', 'massaker', 'kriegsverbrechen', 'amoklauf', 'völkermord'), ...t('Medium', 'getötet', 'todesopfer', 'luftangriff', 'schießerei', 'bombenanschlag', 'invasion'), ...t('Low', 'krieg', 'tod', 'gestorben', 'verletzt', 'militär', 'soldaten')],
  },
  OnlinePiracy: {
    english: [...t('High', 'pirated', 'torrent site', 'cracked software'), ...t('Medium', 'piracy', 'torrent', 'warez'), ...t('Low', 'bootleg')],
    german: [...t('High', 'raubkopie', 'raubkopien'), ...t('Medium', 'piraterie', 'torrent'), ...t('Low', 'schwarzkopie')],
  },
  HateSpeechAggression: {
    english: [...t('Floor', 'ethnic cleansing', 'white power'), ...t('High', 'hate speech', 'racist slur', 'supremacist'), ...t('Medium', 'racist', 'racism', 'bigot', 'harassment'), ...t('Low', 'hate', 'hatred')],
    german: [...t('Floor', 'ethnische säuberung'), ...t('High', 'hassrede', 'volksverhetzung', 'rassistische beleidigung'), ...t('Medium', 'rassist', 'rassismus', 'belästigung', 'hetze'), ...t('Low', 'hass')],
  },
  ObscenityProfanity: {
    english: [...t('High', 'motherfucker', 'cunt'), ...t('Medium', 'fuck', 'fucking', 'shit', 'bullshit', 'bitch', 'asshole'), ...t('Low', 'damn', 'crap', 'hell', 'bastard')],
    german: [...t('High', 'hurensohn', 'fotze'), ...t('Medium', 'scheiße', 'scheisse', 'arschloch', 'fick', 'wichser'), ...t('Low', 'verdammt', 'mist', 'mistkerl')],
  },
  IllegalDrugsTobaccoAlcohol: {
    english: [...t('High', 'heroin', 'cocaine', 'methamphetamine', 'fentanyl', 'drug dealer'), ...t('Medium', 'cannabis', 'marijuana', 'vaping', 'cigarettes', 'overdose'), ...t('Low', 'alcohol', 'beer', 'wine', 'whisky', 'tobacco', 'drunk')],
    german: [...t('High', 'heroin', 'kokain', 'crystal meth', 'fentanyl', 'drogendealer'), ...t('Medium', 'cannabis', 'marihuana', 'zigaretten', 'überdosis'), ...t('Low', 'alkohol', 'bier', 'wein', 'tabak', 'betrunken')],
  },
  SpamHarmfulContent: {
    english: [...t('High', 'malware', 'phishing'), ...t('Medium', 'get rich quick', 'pyramid scheme', 'miracle cure'), ...t('Low', 'giveaway scam')],
    german: [...t('High', 'schadsoftware', 'phishing'), ...t('Medium', 'schneeballsystem', 'wundermittel'), ...t('Low', 'gewinnspielbetrug')],
  },
  Terrorism: {
    english: [...t('Floor', 'terrorist propaganda', 'join the jihad'), ...t('High', 'terrorist attack', 'suicide bomber', 'beheading'), ...t('Medium', 'terrorism', 'terrorist', 'extremist'), ...t('Low', 'radicalization')],
    german: [...t('Floor', 'terrorpropaganda'), ...t('High', 'terroranschlag', 'selbstmordattentäter', 'enthauptung'), ...t('Medium', 'terrorismus', 'terrorist', 'extremist'), ...t('Low', 'radikalisierung')],
  },
  DebatedSocialIssues: {
    english: [...t('Medium', 'abortion', 'euthanasia', 'death penalty', 'suicide'), ...t('Low', 'immigration', 'gun control', 'climate denial', 'election fraud')],
    german: [...t('Medium', 'abtreibung', 'sterbehilfe', 'todesstrafe', 'suizid', 'selbstmord'), ...t('Low', 'einwanderung', 'waffenrecht', 'wahlbetrug')],
  },
};

type CompiledTerm = { stems: string[]; words: string; risk: Term['risk']; category: BrandSafetyCategory };

const compiled = new Map<'english' | 'german', Map<string, CompiledTerm[]>>();
/** The lexicon per language as stems, indexed by each term's first stem. */
function termsOf(language: 'english' | 'german'): Map<string, CompiledTerm[]> {
  let byFirst = compiled.get(language);
  if (byFirst) return byFirst;
  byFirst = new Map();
  for (const category of BRAND_SAFETY_CATEGORIES) {
    for (const term of LEXICON[category][language]) {
      // Stop words are kept inside a phrase ("join the jihad"): only the phrase's own words count.
      const stems = wordsOf(term.words).map((w) => lexemeOf(w.word, language) ?? w.word);
      const list = byFirst.get(stems[0]!) ?? [];
      list.push({ stems, words: term.words, risk: term.risk, category });
      byFirst.set(stems[0]!, list);
    }
  }
  compiled.set(language, byFirst);
  return byFirst;
}

/** A piece of the clip's text: its title, its description, or one transcript cue (with its start). */
export type BrandSafetyText = { source: BrandSafetySource; text: string; startSeconds?: number | null };

export type BrandSafetyMatch = { Term: string; Source: BrandSafetySource; StartSeconds: number | null; Excerpt: string };
export type BrandSafetyCategoryResult = { Category: BrandSafetyCategory; Risk: Exclude<BrandSafetyRisk, 'None'>; MatchCount: number; Matches: BrandSafetyMatch[] };
export type BrandSafetyAnalysis = { Risk: BrandSafetyRisk; Categories: BrandSafetyCategoryResult[]; WordsRead: number };

const rank = (risk: BrandSafetyRisk) => BRAND_SAFETY_RISKS.indexOf(risk);
const higher = (a: BrandSafetyRisk, b: BrandSafetyRisk) => (rank(a) >= rank(b) ? a : b);

/** The words around a match, from the text itself (its own spelling and case). */
function excerptOf(text: string, words: ReturnType<typeof wordsOf>, from: number, to: number): string {
  const first = Math.max(0, from - CONTEXT_WORDS);
  const last = Math.min(words.length - 1, to + CONTEXT_WORDS);
  // From the text's start when no word is left out before, to its end (punctuation too) when none after.
  const start = first === 0 ? 0 : words[first]!.start;
  const end = last === words.length - 1 ? text.length : words[last]!.end;
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${first > 0 ? '…' : ''}${body}${last < words.length - 1 ? '…' : ''}`;
}

/** The analysis of the clip's texts (pure: the same texts always give the same result). */
export function analyzeBrandSafety(texts: readonly BrandSafetyText[]): BrandSafetyAnalysis {
  const found = new Map<BrandSafetyCategory, { risk: Term['risk']; count: number; matches: BrandSafetyMatch[] }>();
  let wordsRead = 0;
  for (const piece of texts) {
    const words = wordsOf(piece.text);
    wordsRead += words.length;
    // One match per word and category: a word both languages list (cannabis, heroin) counts once,
    // and the longest term wins ("machine gun", not also "gun").
    const taken = new Set<string>();
    const stemsIn = { english: words.map((w) => lexemeOf(w.word, 'english') ?? w.word), german: words.map((w) => lexemeOf(w.word, 'german') ?? w.word) };
    for (let i = 0; i < words.length; i++) {
      const here: CompiledTerm[] = [];
      for (const language of ['english', 'german'] as const satisfies readonly SearchLanguage[]) {
        const stems = stemsIn[language];
        for (const term of termsOf(language).get(stems[i]!) ?? []) if (term.stems.every((s, k) => stems[i + k] === s)) here.push(term);
      }
      here.sort((a, b) => b.stems.length - a.stems.length);
      for (const term of here) {
        const span = term.stems.map((_, k) => `${term.category}:${i + k}`);
        if (span.some((at) => taken.has(at))) continue;
        for (const at of span) taken.add(at);
        const entry = found.get(term.category) ?? { risk: term.risk, count: 0, matches: [] };
        entry.risk = higher(entry.risk, term.risk) as Term['risk'];
        entry.count++;
        if (entry.matches.length < EVIDENCE_PER_CATEGORY) {
          entry.matches.push({ Term: term.words, Source: piece.source, StartSeconds: piece.startSeconds ?? null, Excerpt: excerptOf(piece.text, words, i, i + term.stems.length - 1) });
        }
        found.set(term.category, entry);
      }
    }
  }
  const categories: BrandSafetyCategoryResult[] = [];
  for (const category of BRAND_SAFETY_CATEGORIES) {
    const entry = found.get(category);
    if (!entry) continue;
    let risk = entry.risk;
    if (entry.count >= ESCALATE_AT && rank(risk) < rank('High')) risk = BRAND_SAFETY_RISKS[rank(risk) + 1] as Term['risk'];
    categories.push({ Category: category, Risk: risk, MatchCount: entry.count, Matches: entry.matches });
  }
  // Highest risk first; the framework's order among equals.
  categories.sort((a, b) => rank(b.Risk) - rank(a.Risk));
  const risk = categories.reduce<BrandSafetyRisk>((r, c) => higher(r, c.Risk), 'None');
  return { Risk: risk, Categories: categories, WordsRead: wordsRead };
}

/**
 * A fingerprint of what the analysis reads (and of the lexicon's version): when the clip's texts
 * change, its stored analysis is stale. FNV-1a over the texts, 32-bit, in hex: a change detector,
 * not a security measure.
 */
export function brandSafetyFingerprint(texts: readonly BrandSafetyText[]): string {
  let h = 0x811c9dc5;
  const feed = (s: string) => {
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  };
  feed(`v${BRAND_SAFETY_LEXICON_VERSION}`);
  for (const p of texts) feed(`\u0000${p.source}\u0000${p.startSeconds ?? ''}\u0000${p.text}`);
  return h.toString(16).padStart(8, '0');
}
