// Automatic transcription routes (issue 34; src/protocol/api/transcription.ts): POST …/transcript
// starts the job (sync-server/transcription/job.ts), GET …/transcript/transcription says where it
// is. Content access on the clip's or recording's program to ask (as writing a transcript needs),
// read access to see the state (as reading it). Asking needs the plan's automatic-transcription, and
// is refused when the audio's minutes would take the month's TranscriptionMinutes past its cap
// (sync-server/billing/entitlements.ts; the cap is checked in the request's transaction). A recording
// with no audio to transcribe is a 409 naming why (src/domain/transcription.ts, recordingNoAudio).
import * as routes from '../../src/protocol/api/transcription.ts';
import type { BlobStore } from '../audio/blob-store.ts';
import { getAuth } from '../auth.ts';
import { AppError, fieldError, notFound } from '../errors.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { NO_AUDIO_MESSAGE, recordingNoAudio } from '../../src/domain/transcription.ts';
import type { Recording } from '../../src/protocol/entities.ts';
import type { TranscriptionEngine } from '../transcription/engine.ts';
import { loadTranscription, startTranscription, transcriptionToWire, type TranscriptionOwner } from '../transcription/job.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';
import type { Context } from 'hono';
import { withCap, withFeature } from '../billing/entitlements.ts';

export function transcriptionRoutes(blobs: BlobStore, engine: TranscriptionEngine) {
  const clip = (...need: 'HasContentAccess'[]) => guard.row('clips', 'clipId', ...need);
  const recording = (...need: 'HasContentAccess'[]) => guard.row('recordings', 'recordingId', ...need);
  const asking = (access: ReturnType<typeof clip>) => withCap(withFeature(access, 'automatic-transcription'), 'TranscriptionMinutes', 'automatic-transcription');
  const start = async (c: Context, owner: TranscriptionOwner, query: { language: string; publish?: boolean | undefined }) => {
    const auth = getAuth(c);
    await startTranscription(c.get('deps'), blobs, engine, { organizationId: auth.organizationId, userId: auth.user.Id }, owner, c.var.row.Id, query);
  };
  const state = async (c: Context, owner: TranscriptionOwner) => {
    const row = await loadTranscription(c.get('deps').store, owner, c.var.row.Id);
    if (!row) throw notFound();
    return transcriptionToWire(owner, row);
  };
  return resourceApp()
    .openapi(guarded(routes.startClipTranscription, asking(clip('HasContentAccess'))), async (c) => {
      await start(c, 'clip', c.req.valid('query'));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.startRecordingTranscription, asking(recording('HasContentAccess'))), async (c) => {
      // A recording with no audio to transcribe (still live, being processed, a stream cut off with
      // nothing kept, 0 s, no audio link) is refused saying which, as the screen says it.
      const noAudio = recordingNoAudio(c.var.row as unknown as Recording);
      if (noAudio) throw new AppError(409, { Errors: [fieldError('recordingId', formError('invalid', NO_AUDIO_MESSAGE[noAudio]))] });
      await start(c, 'recording', c.req.valid('query'));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.getClipTranscription, clip()), async (c) => c.json(await state(c, 'clip'), 200))
    .openapi(guarded(routes.getRecordingTranscription, recording()), async (c) => c.json(await state(c, 'recording'), 200));
}
