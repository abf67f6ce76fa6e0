import { afterEach, describe, expect, it } from 'vitest';
import { baseLocale, setLocale } from './i18n.ts';
import { planRefusalText, seatsFullText, storageFullText } from './plan-words.ts';

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

  it('says a full organization to the person invited in seats, and a full store where a file was picked in hours', async () => {
    expect(seatsFullText({ kind: 'cap', addOn: 'ExtraSeats', cap: 3, used: 3 }, 'Castaway Podcasts', 'en-US')).toBe(
      'Castaway Podcasts has no free seat for you: its plan’s cap is 3 seats and 3 are taken. Ask whoever invited you to have an admin raise the cap under Billing & features; this invitation stays open until it expires.',
    );
    expect(storageFullText({ kind: 'cap', addOn: 'ExtraStorage', cap: 1050, used: 1050.25 }, 'en-US')).toBe(
      'Not uploaded: this month’s cap for stored audio is 1,050 hours and 1,050.25 hours are stored. An admin can raise the cap under Billing & features; then pick the file again.',
    );
    await setLocale('de-DE', { reload: false });
    expect(storageFullText({ kind: 'cap', addOn: 'ExtraStorage', cap: 50, used: 50 }, 'de-DE')).toBe(
      'Nicht hochgeladen: Die Obergrenze für gespeichertes Audio liegt diesen Monat bei 50 Stunden, 50 Stunden sind gespeichert. Ein Admin kann sie unter Abrechnung & Funktionen erhöhen; wählen Sie die Datei danach erneut.',
    );
  });
});
