// The upload queue: sends the files kept in 'castaway-uploads' to the server's tus endpoint
// (src/protocol/uploads.ts) with tus-js-client, in 8 MiB chunks, resuming from the server's offset.
//
//   app start / 'online' event / backoff timer / every 30 s ──> kick: every queued or interrupted upload of the
//   signed-in user that is not running ──Web Lock per upload (one tab sends it)──> tus-js-client
//      ├─ success ─────────────> done: the blob is deleted, the record kept for the 100 % bar
//      ├─ 400 / 404 at creation ─> failed (shown with the reason; the file stays until dismissed)
//      ├─ 403 naming the ExtraStorage cap ─> failed, with the cap and what is used (trying again
//      │                         changes nothing until an admin raises the cap)
//      ├─ 403 naming another reason (account not activated, …) ─> failed, with the server's reason
//      ├─ 403 without a body (a stale XSRF token) ─> a new token, then as "other failure"
//      ├─ offline ─────────────> queued, waits for 'online'
//      └─ other failure ───────> queued, retried after 1 s, 2 s, 4 s … capped at 30 s
// tus-js-client itself retries quickly ([0, 1, 3] s) and starts over whenever the offset moved.
import { Upload, type DetailedError, type HttpRequest } from 'tus-js-client';
import { RETRY_MAX_DELAY_MS } from '../domain/constants.ts';
import { ClipState } from '../domain/clip.ts';
import { validateFile } from '../domain/file.ts';
import { retryDelayMs } from '../domain/timing.ts';
import type { FormError } from '../domain/form-errors.ts';
import { db } from '../db/db.ts';
import { call } from './api.ts';
import { getXsrf } from '../protocol/api/session.ts';
import { UPLOAD_CHUNK_BYTES, UPLOADS_PATH, UploadMetadataKey } from '../protocol/uploads.ts';
import { uploadsDb, type ServedAudio, type UploadRecord } from '../db/upload-db.ts';
import { readExplained403 } from '../protocol/api/plans.ts';

const PROGRESS_WRITE_MS = 250;

/** The audio the clip row serves, or null when it serves none. */
export function servedAudioOf(clip: Readonly<Record<string, unknown>> | undefined): ServedAudio | null {
  const state = clip?.['State'];
  if (state !== ClipState.Ready && state !== ClipState.Warning) return null;
  const url = (clip?.['Urls'] as Readonly<Record<string, unknown>> | null | undefined)?.['AudioPrivateUrl'];
  if (typeof url !== 'string' || url === '') return null;
  const problem = clip?.['AudioProcessingProblem'];
  return { state, audioUrl: url, problem: typeof problem === 'string' ? problem : null };
}

let currentUser: string | null = null;
const running = new Map<string, { upload: Upload; stop: () => void }>();
const failures = new Map<string, number>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let xsrf: string | null = null;

async function xsrfToken(): Promise<string> {
  if (xsrf) return xsrf;
  const res = await call(getXsrf);
  if (res.kind !== 'ok' || !res.data?.XsrfToken) throw new Error('no XSRF token');
  xsrf = res.data.XsrfToken;
  return xsrf;
}

async function signWrites(req: HttpRequest): Promise<void> {
  if (req.getMethod() !== 'HEAD') req.setHeader('x-xsrf-token', await xsrfToken());
}

function statusOf(err: unknown): number {
  return (err as DetailedError).originalResponse?.getStatus() ?? 0;
}

/** A refusal that trying again will not change (bad file, unknown clip, no access). */
function isRefusal(status: number): boolean {
  return status === 400 || status === 404 || status === 410 || status === 413;
}

/** The next try after a failure, by the client retry delays of section 9 (1 s doubling, at most
 * 30 s); unlike a query, an upload is never given up after 3. */
function schedule(id: string): void {
  const attempt = failures.get(id) ?? 0;
  failures.set(id, attempt + 1);
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => {
      timers.delete(id);
      void kick();
    }, retryDelayMs(attempt)),
  );
}

/** A 403 the server explained (protocol/api/plans.ts readExplained403) as the upload's failure:
 * trying again changes nothing until someone acts. The ExtraStorage cap keeps its figures (problem
 * storageCap, sync-server/billing/entitlements.ts withStorageCap); any other reason is kept as the
 * server's field error (problem refused: an account not activated, …). Null for anything else: a
 * 403 without a body is a stale XSRF token, tried again with a new one. */
export function explainedRefusal(status: number, body: string | null | undefined): Pick<UploadRecord, 'problem' | 'cap' | 'refusal'> | null {
  const explained = readExplained403(status, body);
  if (!explained) return null;
  const { plan } = explained;
  return plan?.kind === 'cap' && plan.addOn === 'ExtraStorage' ? { problem: 'storageCap', cap: { cap: plan.cap, used: plan.used } } : { problem: 'refused', refusal: explained.error };
}

async function settleError(record: UploadRecord, err: unknown): Promise<void> {
  const status = statusOf(err);
  const explained = explainedRefusal(status, (err as DetailedError).originalResponse?.getBody());
  if (explained) {
    await uploadsDb.uploads.update(record.id, { state: 'failed', tusUrl: null, ...explained });
    return;
  }
  if (status === 403) xsrf = null;
  if (isRefusal(status)) {
    await uploadsDb.uploads.update(record.id, { state: 'failed', problem: status === 400 ? 'rejected' : 'clipGone', tusUrl: null });
    return;
  }
  await uploadsDb.uploads.update(record.id, { state: 'queued' });
  // Offline: the 'online' event restarts it; otherwise back off.
  if (navigator.onLine) schedule(record.id);
}

function send(record: UploadRecord): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!record.blob) return resolve();
    let lastWrite = 0;
    const upload = new Upload(record.blob, {
      endpoint: UPLOADS_PATH,
      uploadUrl: record.tusUrl,
      uploadSize: record.size,
      chunkSize: UPLOAD_CHUNK_BYTES,
      metadata: { [UploadMetadataKey.FileName]: record.fileName, [UploadMetadataKey.ClipId]: record.clipId },
      headers: { 'x-organization-id': record.organizationId },
      retryDelays: [0, 1000, 3000],
      storeFingerprintForResuming: false,
      onBeforeRequest: signWrites,
      onShouldRetry: (err) => navigator.onLine && !isRefusal(statusOf(err)) && statusOf(err) !== 403,
      onUploadUrlAvailable: () => void uploadsDb.uploads.update(record.id, { tusUrl: upload.url }),
      onProgress: (sent) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_WRITE_MS) return;
        lastWrite = now;
        void uploadsDb.uploads.update(record.id, { offset: sent });
      },
      onSuccess: () => {
        running.delete(record.id);
        failures.delete(record.id);
        // The server has every byte (and has handed the file to processing): the copy here goes.
        // The clip row read at pick time stays the "before": the row read now may already be the
        // result of this file (a file that is not audio fails in milliseconds, and the pull can
        // land before this callback), which would then read as "still processing" for ever.
        void (async () => {
          const before = record.clipModifiedAtUtc !== undefined ? {} : await clipBefore(record.clipId);
          const done: Partial<UploadRecord> = { state: 'done', blob: null, offset: record.size, tusUrl: null, ...before };
          await uploadsDb.uploads.update(record.id, done);
        })().finally(resolve);
      },
      onError: (err) => {
        running.delete(record.id);
        void settleError(record, err).finally(resolve);
      },
    });
    running.set(record.id, { upload, stop: resolve });
    void uploadsDb.uploads.update(record.id, { state: 'uploading', problem: null });
    upload.start();
  });
}

/** The local clip row's ModifiedAtUtc and the audio it serves (null when the row is not here). */
async function clipBefore(clipId: string): Promise<Pick<UploadRecord, 'clipModifiedAtUtc' | 'clipServedAudio'>> {
  const clip = await db.clips.get(clipId).catch(() => undefined);
  return { clipModifiedAtUtc: typeof clip?.['ModifiedAtUtc'] === 'string' ? clip['ModifiedAtUtc'] : null, clipServedAudio: servedAudioOf(clip) };
}

/** Sends one upload while holding its Web Lock, so two tabs never send the same file. */
async function runExclusive(record: UploadRecord): Promise<void> {
  if (!('locks' in navigator)) return send(record);
  await navigator.locks.request(`castaway-upload:${record.id}`, { ifAvailable: true }, async (lock) => {
    if (lock) await send(record);
  });
}

/** Starts every waiting upload of the signed-in user (no-op offline). */
export async function kick(): Promise<void> {
  if (!currentUser || !navigator.onLine) return;
  const waiting = await uploadsDb.uploads.where('userId').equals(currentUser).filter((r) => r.state === 'queued' || r.state === 'uploading').toArray();
  for (const record of waiting) {
    if (running.has(record.id) || timers.has(record.id)) continue;
    void runExclusive(record);
  }
}

let listening = false;
let sweep: ReturnType<typeof setInterval> | null = null;
const onOnline = () => {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
  void kick();
};

/** Runs the queue for this user: now, on every 'online' event, and after each backoff. */
export function startUploadQueue(userId: string): () => void {
  currentUser = userId;
  if (!listening) {
    window.addEventListener('online', onOnline);
    // Also every 30 s: an upload another tab was sending when it closed is picked up here.
    sweep = setInterval(() => void kick(), RETRY_MAX_DELAY_MS);
    listening = true;
  }
  void kick();
  return () => {
    currentUser = null;
    window.removeEventListener('online', onOnline);
    if (sweep) clearInterval(sweep);
    sweep = null;
    listening = false;
  };
}

/**
 * Keeps the picked file on the device and queues it (replacing any earlier file for the clip).
 * Returns the section-5 file error instead when the file cannot be accepted.
 */
export async function queueUpload(input: { userId: string; organizationId: string; clipId: string; file: File }): Promise<FormError | null> {
  const { file } = input;
  const problem = validateFile({ name: file.name, size: file.size });
  if (problem) return problem;
  const earlier = await uploadsDb.uploads.where('clipId').equals(input.clipId).toArray();
  currentUser ??= input.userId;
  const record: UploadRecord = {
    id: crypto.randomUUID(),
    userId: input.userId,
    organizationId: input.organizationId,
    clipId: input.clipId,
    fileName: file.name,
    size: file.size,
    blob: file,
    tusUrl: null,
    offset: 0,
    state: 'queued',
    problem: null,
    createdAt: Date.now(),
    // Before the server has any of this file: the row's later audio (or, for a clip serving none,
    // a later ModifiedAtUtc) is its outcome.
    ...(await clipBefore(input.clipId)),
  };
  await uploadsDb.uploads.add(record);
  // The earlier file goes only once this one is kept: a full disk refuses the new one (the add
  // rejects) and leaves the earlier upload as it was.
  for (const r of earlier) await cancelUpload(r.id);
  void kick();
  return null;
}

/** Stops the upload, tells the server to drop what it has (when online), and forgets the file. */
export async function cancelUpload(id: string): Promise<void> {
  clearTimeout(timers.get(id));
  timers.delete(id);
  failures.delete(id);
  const active = running.get(id);
  running.delete(id);
  const record = await uploadsDb.uploads.get(id);
  await uploadsDb.uploads.delete(id);
  if (active) {
    // abort(true) also DELETEs the upload on the server; tus-js-client reports nothing after it.
    await active.upload.abort(true).catch(() => undefined);
    active.stop();
  } else if (record?.tusUrl && record.state !== 'done' && navigator.onLine) {
    // Offline, the server's partial copy simply expires.
    await Upload.terminate(record.tusUrl, { headers: { 'x-organization-id': record.organizationId }, onBeforeRequest: signWrites }).catch(() => undefined);
  }
}

/** Removes a finished or refused upload from the list. */
export async function dismissUpload(id: string): Promise<void> {
  await uploadsDb.uploads.delete(id);
}
