// Evaluated before zod itself in the browser build (see index.ts): zod 4 reads its settings from
// this global when its core module loads and keeps the object it finds.
const g = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true };
