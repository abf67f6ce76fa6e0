// What `zod` means in the browser build (vite.config.ts aliases the bare specifier here; the
// server and the tests import zod itself). zod 4 compiles fast object parsers with
// `new Function`, after probing once that eval works. The studio's Content-Security-Policy forbids
// eval (no 'unsafe-eval', issue 35): the probe can only fail, and Chromium reports each failure as a
// policy violation. jitless skips the probe for the interpreted parsers the policy forces anyway.
// It must be set before the first schema is built, in every realm (the page and each worker), and
// a bundler's chunks may run a schema module before any entry's own code: so the setting is the
// first import of zod itself.
import './jitless.ts';

export * from 'zod/v4';
export { default } from 'zod/v4';
