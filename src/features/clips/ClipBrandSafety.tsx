// A clip's brand safety on the clip screen (issue 33): its risk in each GARM category and, per
// category, the words that made it with where they are (title, description, or the transcript at a
// time), the matched term marked in the words around it. The server makes the analysis
// (src/domain/brand-safety.ts says what it is and is not); reading it asks for a new one when the
// clip's texts changed, so the section says when what it shows is being made again.
//
//   offline, nothing loaded ──> "shows when the connection returns"
//   loaded ──Queued (or Stale)──> asked again every POLL_MS ──> Completed | Failed (why)
//
// Nothing here is edited: the analysis follows the clip's own texts. Staff can run it again from
// Object search.
import { useCallback, useEffect, useId, useState } from 'react';
import type { BrandSafetyCategory, BrandSafetyRisk } from '../../domain/brand-safety.ts';
import { formatDuration } from '../../domain/time.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { m } from '../../paraglide/messages.js';
import { getClipBrandSafety, type BrandSafety } from '../../protocol/api/brand-safety.ts';
import './brand-safety.css';

/** How often the analysis is asked for while it is being made. */
const POLL_MS = 3000;

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ok'; safety: BrandSafety };
type Match = BrandSafety['Categories'][number]['Matches'][number];

const RISK: Record<BrandSafetyRisk, () => string> = {
  None: () => m.clips_brand_safety_risk_none(),
  Low: () => m.clips_brand_safety_risk_low(),
  Medium: () => m.clips_brand_safety_risk_medium(),
  High: () => m.clips_brand_safety_risk_high(),
  Floor: () => m.clips_brand_safety_risk_floor(),
};

const CATEGORY: Record<BrandSafetyCategory, () => string> = {
  AdultExplicitSexualContent: () => m.clips_brand_safety_cat_adult_explicit_sexual_content(),
  ArmsAmmunition: () => m.clips_brand_safety_cat_arms_ammunition(),
  CrimeHarmfulActs: () => m.clips_brand_safety_cat_crime_harmful_acts(),
  DeathInjuryMilitaryConflict: () => m.clips_brand_safety_cat_death_injury_military_conflict(),
  OnlinePiracy: () => m.clips_brand_safety_cat_online_piracy(),
  HateSpeechAggression: () => m.clips_brand_safety_cat_hate_speech_aggression(),
  ObscenityProfanity: () => m.clips_brand_safety_cat_obscenity_profanity(),
  IllegalDrugsTobaccoAlcohol: () => m.clips_brand_safety_cat_illegal_drugs_tobacco_alcohol(),
  SpamHarmfulContent: () => m.clips_brand_safety_cat_spam_harmful_content(),
  Terrorism: () => m.clips_brand_safety_cat_terrorism(),
  DebatedSocialIssues: () => m.clips_brand_safety_cat_debated_social_issues(),
};

const busy = (s: BrandSafety) => s.Status === 'Queued';

export function ClipBrandSafety({ clipId }: { clipId: string }) {
  const online = useOnline();
  const id = useId();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });

  const load = useCallback(async () => {
    const res = await call(getClipBrandSafety, { params: { clipId } });
    setLoaded(res.kind === 'ok' ? { kind: 'ok', safety: res.data } : { kind: 'failed' });
  }, [clipId]);

  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  useEffect(() => {
    if (!online || loaded.kind !== 'ok' || !busy(loaded.safety)) return;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [online, loaded, load]);

  const titleId = `${id}-title`;
  return (
    <section className="card brand-safety" aria-labelledby={titleId}>
      <h2 id={titleId}>{m.clips_brand_safety_title()}</h2>
      <p className="muted">{m.clips_brand_safety_intro()}</p>
      {loaded.kind === 'loading' && (
        <p className="muted" role="status">
          {online ? m.clips_brand_safety_loading() : m.clips_brand_safety_offline()}
        </p>
      )}
      {loaded.kind === 'failed' && (
        <p className="field-error" role="alert">
          {m.clips_brand_safety_load_failed()}{' '}
          <button type="button" className="button" onClick={() => void load()}>
            {m.clips_brand_safety_retry_load()}
          </button>
        </p>
      )}
      {loaded.kind === 'ok' && <Analysis safety={loaded.safety} />}
    </section>
  );
}

function Analysis({ safety }: { safety: BrandSafety }) {
  const number = new Intl.NumberFormat(getLocale());
  const date = new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <>
      <p className={safety.Status === 'Failed' ? 'field-error' : 'muted'} role={safety.Status === 'Failed' ? 'alert' : 'status'} aria-busy={busy(safety)}>
        {safety.Status === 'Failed'
          ? m.clips_brand_safety_failed()
          : safety.Stale
            ? m.clips_brand_safety_stale()
            : busy(safety)
              ? m.clips_brand_safety_queued()
              : ''}
      </p>
      {safety.Risk !== null && (
        <>
          <p className={`brand-safety-risk risk-${safety.Risk.toLowerCase()}`}>{m.clips_brand_safety_risk({ risk: RISK[safety.Risk]() })}</p>
          {safety.Categories.length === 0 ? (
            <p>{m.clips_brand_safety_nothing({ words: number.format(safety.WordsRead) })}</p>
          ) : (
            <ul className="brand-safety-categories">
              {safety.Categories.map((c) => (
                <li key={c.Category}>
                  <span className="brand-safety-category">{CATEGORY[c.Category]()}</span>{' '}
                  <span className={`brand-safety-badge risk-${c.Risk.toLowerCase()}`}>{RISK[c.Risk]()}</span>
                  <details>
                    <summary>{m.clips_brand_safety_matches({ count: number.format(c.MatchCount) })}</summary>
                    <ul className="brand-safety-matches">
                      {c.Matches.map((match, i) => (
                        <li key={i}>
                          <span className="muted">{whereText(match)}</span>: <Excerpt match={match} />
                        </li>
                      ))}
                      {c.MatchCount > c.Matches.length && <li className="muted">{m.clips_brand_safety_more({ count: number.format(c.MatchCount - c.Matches.length) })}</li>}
                    </ul>
                  </details>
                </li>
              ))}
            </ul>
          )}
          {safety.AnalyzedAtUtc && (
            <p className="muted">
              {(safety.ReadTranscript ? m.clips_brand_safety_read : m.clips_brand_safety_read_no_transcript)({ words: number.format(safety.WordsRead), date: date.format(new Date(safety.AnalyzedAtUtc)) })}
            </p>
          )}
        </>
      )}
    </>
  );
}

function whereText(match: Match): string {
  if (match.Source === 'Title') return m.clips_brand_safety_in_title();
  if (match.Source === 'Description') return m.clips_brand_safety_in_description();
  return m.clips_brand_safety_at({ time: formatDuration(match.StartSeconds ?? 0) });
}

/** The words around the match with the matched words marked: the first word that starts like the
 *  term's first (the server matched stems, so the text may say "robberies" for "robbery"), to the
 *  end of as many words as the term has. */
function Excerpt({ match }: { match: Match }) {
  const text = match.Excerpt;
  const termWords = match.Term.toLowerCase().split(' ');
  const first = termWords[0]!;
  const stemLike = first.slice(0, Math.max(3, first.length - 2));
  const words = [...text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)];
  const at = words.findIndex((w) => w[0].toLowerCase().startsWith(stemLike));
  if (at < 0) return <q>{text}</q>;
  const startAt = words[at]!.index;
  const last = words[Math.min(words.length - 1, at + termWords.length - 1)]!;
  const endAt = last.index + last[0].length;
  return (
    <q>
      {text.slice(0, startAt)}
      <mark>{text.slice(startAt, endAt)}</mark>
      {text.slice(endAt)}
    </q>
  );
}
