import { afterEach, describe, expect, it } from 'vitest';
import { baseLocale, setLocale } from '../../lib/i18n.ts';
import { syncStatusText } from './SyncStatusBadge.tsx';

const online = { online: true, pendingCount: 0, paused: null } as const;

afterEach(() => setLocale(baseLocale, { reload: false }));

describe('sync status text', () => {
  it('says all changes are saved when nothing waits', () => {
    expect(syncStatusText(online)).toBe('All changes saved');
  });

  it('a sync paused by an expired session asks to sign in again', () => {
    expect(syncStatusText({ ...online, pendingCount: 1, paused: 'auth' })).toBe('1 change waiting to sync · Sign in again to sync');
  });

  it('a sync paused because the device holds another user’s data says so, not that their changes wait for this user', () => {
    expect(syncStatusText({ ...online, pendingCount: 2, paused: 'otherUser' })).toBe('Paused: another user’s data is on this device');
    expect(syncStatusText({ ...online, online: false, pendingCount: 1, paused: 'otherUser' })).toBe('Offline · Paused: another user’s data is on this device');
  });

  it('a full disk is said first; what waits follows, and nothing is called saved', async () => {
    expect(syncStatusText({ ...online, storageFull: true })).toBe('Storage full');
    expect(syncStatusText({ ...online, storageFull: true, pendingCount: 1 })).toBe('Storage full · 1 change waiting to sync');
    expect(syncStatusText({ ...online, online: false, storageFull: true })).toBe('Offline · Storage full');
    await setLocale('de-DE', { reload: false });
    expect(syncStatusText({ ...online, storageFull: true, pendingCount: 2 })).toBe('Speicher voll · 2 Änderungen warten auf Synchronisierung');
  });

  it.each([
    ['de-DE', 'Pausiert: Daten eines anderen Benutzers auf diesem Gerät'],
    ['es-419', 'En pausa: hay datos de otro usuario en este dispositivo'],
    ['fr-FR', 'En pause : données d’un autre utilisateur sur cet appareil'],
    ['it-IT', 'In pausa: dati di un altro utente su questo dispositivo'],
    ['pt-BR', 'Pausado: há dados de outro usuário neste dispositivo'],
  ] as const)('in %s the other user pause reads “%s”', async (locale, text) => {
    await setLocale(locale, { reload: false });
    expect(syncStatusText({ ...online, pendingCount: 3, paused: 'otherUser' })).toBe(text);
  });

  it('a server that fails (5xx) says it is unavailable and counts down to the retry; the edits still wait', () => {
    const at = 1_000_000;
    expect(syncStatusText({ ...online, pendingCount: 1, serverError: 503, retryAt: at + 29_200 }, at)).toBe('Server unavailable · retrying in 30 s · 1 change waiting to sync');
    expect(syncStatusText({ ...online, serverError: 500, retryAt: at + 1 }, at)).toBe('Server unavailable · retrying in 1 s · All changes saved');
    expect(syncStatusText({ ...online, pendingCount: 2, serverError: 502, retryAt: at - 5 }, at)).toBe('Server unavailable · retrying now · 2 changes waiting to sync');
    // Offline says why on its own; a paused sync is not retrying.
    expect(syncStatusText({ ...online, online: false, pendingCount: 1, serverError: 503, retryAt: at + 5_000 }, at)).toBe('Offline · 1 change waiting to sync');
    expect(syncStatusText({ ...online, pendingCount: 1, paused: 'auth', serverError: 503, retryAt: at + 5_000 }, at)).toBe('1 change waiting to sync · Sign in again to sync');
  });

  it.each([
    ['de-DE', 'Server nicht erreichbar · neuer Versuch in 12 s', 'Server nicht erreichbar · neuer Versuch läuft'],
    ['es-419', 'Servidor no disponible · reintento en 12 s', 'Servidor no disponible · reintentando ahora'],
    ['fr-FR', 'Serveur indisponible · nouvel essai dans 12 s', 'Serveur indisponible · nouvel essai en cours'],
    ['it-IT', 'Server non disponibile · nuovo tentativo tra 12 s', 'Server non disponibile · nuovo tentativo in corso'],
    ['pt-BR', 'Servidor indisponível · nova tentativa em 12 s', 'Servidor indisponível · tentando novamente agora'],
  ] as const)('in %s the server retry reads “%s”', async (locale, waiting, now) => {
    await setLocale(locale, { reload: false });
    expect(syncStatusText({ ...online, serverError: 503, retryAt: 12_000 }, 0).startsWith(waiting)).toBe(true);
    expect(syncStatusText({ ...online, serverError: 503, retryAt: null }, 0).startsWith(now)).toBe(true);
  });

  it('every state has words in every locale, none of them the English text', async () => {
    const states = [
      { ...online },
      { ...online, online: false },
      { ...online, pendingCount: 1 },
      { ...online, pendingCount: 4 },
      { ...online, conflictCount: 1 },
      { ...online, online: false, pendingCount: 2 },
      { ...online, storageFull: true },
      { ...online, pendingCount: 1, paused: 'auth' as const },
      { ...online, pendingCount: 1, paused: 'otherUser' as const },
      { ...online, serverError: 503, retryAt: 30_000 },
      { ...online, serverError: 503, retryAt: null },
    ];
    const english = states.map((s) => syncStatusText(s, 0));
    expect(new Set(english).size).toBe(states.length);
    for (const locale of ['de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR'] as const) {
      await setLocale(locale, { reload: false });
      const texts = states.map((s) => syncStatusText(s, 0));
      for (const [i, text] of texts.entries()) {
        expect(text, `${locale}: ${english[i]}`).not.toBe(english[i]);
        expect(text).not.toMatch(/^\s*$|undefined|\{/);
      }
    }
  });
});


describe('sync status text during the first download', () => {
  it('says what is downloading, with counts in the user’s number format, never "All changes saved"; offline too', async () => {
    const firstSync = { received: 1200, total: 2000, done: false };
    expect(syncStatusText({ ...online, firstSync })).toBe('Downloading 1,200 of 2,000');
    expect(syncStatusText({ ...online, pendingCount: 1, firstSync })).toBe('1 change waiting to sync');
    expect(syncStatusText({ ...online, online: false, firstSync })).toBe('Offline · Download not finished');
    // Rows changed while it ran come twice: the count never passes the total.
    expect(syncStatusText({ ...online, firstSync: { received: 2003, total: 2000, done: false } })).toBe('Downloading 2,000 of 2,000');
    expect(syncStatusText({ ...online, firstSync: { received: 40, total: null, done: false } })).toBe('Downloading');
    expect(syncStatusText({ ...online, firstSync: { ...firstSync, received: 2000, done: true } })).toBe('All changes saved');
    await setLocale('de-DE', { reload: false });
    expect(syncStatusText({ ...online, firstSync })).toBe('Download 1.200 von 2.000');
  });
});
