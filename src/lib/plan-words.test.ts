import { afterEach, describe, expect, it } from 'vitest';
import { baseLocale, setLocale } from './i18n.ts';
import { planRefusalText } from './plan-words.ts';

afterEach(() => setLocale(baseLocale, { reload: false }));

describe('a plan’s refusal in the user’s words', () => {
  it('names the feature and the add-on as Billing & features does, with the figures in the locale’s numbers', async () => {
    expect(planRefusalText({ kind: 'feature', feature: 'apple-premium' }, 'en-US')).toBe(
      'Your plan does not include Apple Podcasts Subscriptions. An admin of the studio can add it under Billing & features.',
    );
    expect(planRefusalText({ kind: 'cap', addOn: 'TranscriptionMinutes', cap: 3000, used: 2999.5 }, 'en-US')).toBe(
      'This month’s cap for Transcription minutes is 3,000 and 2,999.5 are used: this would go past it. An admin can raise the cap under Billing & features.',
    );
    await setLocale('de-DE', { reload: false });
    expect(planRefusalText({ kind: 'cap', addOn: 'TranscriptionMinutes', cap: 3000, used: 3000 }, 'de-DE')).toBe(
      'Die Obergrenze für Transkriptionsminuten liegt diesen Monat bei 3.000, 3.000 sind verbraucht: Damit würde sie überschritten. Ein Admin kann sie unter Abrechnung & Funktionen erhöhen.',
    );
  });
});
