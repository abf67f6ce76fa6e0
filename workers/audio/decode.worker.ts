// The audio decode worker (started by workers/audio/client.ts); its API is decode-worker-api.ts.
import '../policy-violations.ts';
import * as Comlink from 'comlink';
import { decodeWorkerApi } from './decode-worker-api.ts';

Comlink.expose(decodeWorkerApi);
