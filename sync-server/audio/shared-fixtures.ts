// Where the shared audio fixtures are (ENVIRONMENT.md): shared/fixtures/audio beside the
// repository, where CI clones it, or CASTAWAY_FIXTURES_DIR for a clone made elsewhere (.ci/run
// sets it from the clone's origin). The one place the demo's media, the audio tests, the
// end-to-end uploads and the reference maker find them.
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../project-root.ts';

const beside = resolve(PROJECT_ROOT, '..', 'shared/fixtures/audio');

export const SHARED_FIXTURES_DIR = process.env.CASTAWAY_FIXTURES_DIR ? resolve(process.env.CASTAWAY_FIXTURES_DIR) : beside;
