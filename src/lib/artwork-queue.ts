// Sends the artwork kept in 'castaway-artwork' (src/db/artwork-db.ts) to the server: PUT …/image
// with the file as the body (XMLHttpRequest, for its upload progress), or DELETE …/image.
//
//   choose / remove ──kept──> kick: now, on every 'online' event, after a backoff (1 s doubling,
//   at most 30 s: section 9's retry delays, never given up: the user chose this image)
//      ├─ 204 ───────────────> record removed (the row's new Urls arrive by sync)
//      ├─ 400/403/404/413/415 ─> failed, with the status (shown at the field)
//      └─ offline / other ───> queued, retried
// One tab sends a record (a Web Lock per owner).
import { validateImageFile, type ImageOwnerKind } from '../domain/artwork.ts';
import type { FormError } from '../domain/form-errors.ts';
import { retryDelayMs } from '../domain/timing.ts';
import { artworkDb, artworkKey, type ArtworkRecord } from '../db/artwork-db.ts';
import * as images from '../protocol/api/images.ts';
import { routeUrl, setXsrfToken, xsrfToken } from './api.ts';
import { setShared, sharedState, useShared } from './store.ts';

const ROUTES = {
  network: { put: images.putNetworkImage, remove: images.deleteNetworkImage, param: 'networkId' },
  program: { put: images.putProgramImage, remove: images.deleteProgramImage, param: 'programId' },
  playlist: { put: images.putPlaylistImage, remove: images.deletePlaylistImage, param: 'playlistId' },
  clip: { put: images.putClipImage, remove: images.deleteClipImage, param: 'clipId' },
} as const;

/** Statuses that sending again will not change. */
const REFUSALS = new Set([400, 403, 404, 413, 415]);

// ── Progress of the records being sent (0..1), for the pickers that show them ──────────────────
const progress = sharedState<ReadonlyMap<string, number>>(new Map());
function setProgress(key: string, value: number | null): void {
  setShared(progress, (before) => {
    const next = new Map(before);
    if (value === null) next.delete(key);
    else next.set(key, value);
    return next;
  });
}
/** The share of the record's file the server has, while it is being sent; null otherwise. */
export function useArtworkProgress(kind: ImageOwnerKind, ownerId: string): number | null {
  const key = artworkKey(kind, ownerId);
  return useShared(progress).get(key) ?? null;
}

/** One request; resolves with its status (0: the network failed). */
async function sendRecord(record: ArtworkRecord): Promise<number> {
  const route = ROUTES[record.kind];
  const url = routeUrl(record.action === 'put' ? route.put : route.remove, { params: { [route.param]: record.ownerId } });
  const token = await xsrfToken();
  return new Promise<number>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(record.action === 'put' ? 'PUT' : 'DELETE', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('x-organization-id', record.organizationId);
    xhr.setRequestHeader('x-xsrf-token', token);
    if (record.action === 'put' && record.blob) {
      xhr.setRequestHeader('content-type', record.blob.type || 'application/octet-stream');
      xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(record.key, e.loaded / e.total);
    }
    xhr.onload = () => resolve(xhr.status);
    xhr.onerror = () => resolve(0);
    xhr.onabort = () => resolve(0);
    xhr.send(record.action === 'put' ? record.blob : null);
  });
}

const failures = new Map<string, number>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
const running = new Set<string>();

async function settle(record: ArtworkRecord, status: number): Promise<void> {
  // Only if the record is still the one sent: a newer choice made meanwhile is sent next.
  const current = await artworkDb.pending.get(record.key);
  const same = current?.createdAt === record.createdAt;
  if (status >= 200 && status < 300) {
    failures.delete(record.key);
    if (same) await artworkDb.pending.delete(record.key);
    return;
  }
  if (status === 403) setXsrfToken(null);
  if (REFUSALS.has(status)) {
    if (same) await artworkDb.pending.update(record.key, { state: 'failed', refusedStatus: status });
    return;
  }
  if (same) await artworkDb.pending.update(record.key, { state: 'queued' });
  const attempt = failures.get(record.key) ?? 0;
  failures.set(record.key, attempt + 1);
  if (navigator.onLine) timers.set(record.key, setTimeout(() => (timers.delete(record.key), void kickArtwork()), retryDelayMs(attempt)));
}

async function run(record: ArtworkRecord): Promise<void> {
  running.add(record.key);
  try {
    await artworkDb.pending.update(record.key, { state: 'sending' });
    const status = await sendRecord(record).catch(() => 0);
    setProgress(record.key, null);
    await settle(record, status);
  } finally {
    running.delete(record.key);
  }
  // A choice made while this one was on its way.
  const next = await artworkDb.pending.get(record.key);
  if (next && next.createdAt !== record.createdAt && next.state === 'queued') void kickArtwork();
}

/** Sends every waiting record of the user (no-op offline). */
export async function kickArtwork(userId?: string): Promise<void> {
  listen();
  if (!navigator.onLine) return;
  const waiting = await artworkDb.pending.filter((r) => (r.state === 'queued' || r.state === 'sending') && (userId === undefined || r.userId === userId)).toArray();
  for (const record of waiting) {
    if (running.has(record.key) || timers.has(record.key)) continue;
    if ('locks' in navigator) void navigator.locks.request(`castaway-artwork:${record.key}`, { ifAvailable: true }, (lock) => (lock ? run(record) : undefined));
    else void run(record);
  }
}

let listening = false;
function listen(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('online', () => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    void kickArtwork();
  });
}

type Owner = { kind: ImageOwnerKind; ownerId: string; userId: string; organizationId: string };

/** Keeps the chosen file and queues it; the file rules' error instead when it cannot be artwork. */
export async function chooseArtwork(owner: Owner, file: File): Promise<FormError | null> {
  const problem = validateImageFile({ name: file.name, size: file.size });
  if (problem) return problem;
  await artworkDb.pending.put({ key: artworkKey(owner.kind, owner.ownerId), ...owner, action: 'put', blob: file, fileName: file.name, state: 'queued', refusedStatus: null, createdAt: Date.now() });
  void kickArtwork();
  return null;
}

/** Queues the removal of the owner's artwork (replacing a chosen file not yet sent). */
export async function removeArtwork(owner: Owner): Promise<void> {
  await artworkDb.pending.put({ key: artworkKey(owner.kind, owner.ownerId), ...owner, action: 'remove', blob: null, fileName: null, state: 'queued', refusedStatus: null, createdAt: Date.now() });
  void kickArtwork();
}

/** Forgets a refused choice. */
export async function dismissArtwork(kind: ImageOwnerKind, ownerId: string): Promise<void> {
  await artworkDb.pending.delete(artworkKey(kind, ownerId));
}
