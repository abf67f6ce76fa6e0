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
});
