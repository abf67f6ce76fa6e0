// Imported first by every worker. A worker runs under the Content-Security-Policy its own script
// came with (sync-server/security-headers.ts), and Chromium tells the page nothing of what that
// policy refuses inside a worker: no console message, no DevTools issue. The worker hears it
// itself (securitypolicyviolation fires on the worker's global scope) and says so in its console,
// so a refusal never passes silently (the CSP journey, tests/e2e/csp.spec.ts, listens there).
self.addEventListener('securitypolicyviolation', (e) => {
  console.error(`Content Security Policy refused ${e.violatedDirective} (${e.blockedURI || 'inline'}) in ${e.sourceFile || 'the worker'}:${e.lineNumber}`);
});

export {};
