// Errors that are pages, not faults: an unknown or bad id in the address (RouteParamError), or a
// 403/404/451 answer (HttpError). React reports every error a boundary catches; these are not
// worth a console error. Recognised by name so the entry chunk imports neither class (their
// modules pull in the domain messages, which the login screen does not need).
export function isExpectedPageError(error: unknown): boolean {
  const e = error as { name?: unknown; status?: unknown } | null;
  if (e?.name === 'RouteParamError') return true;
  return e?.name === 'HttpError' && (e.status === 403 || e.status === 404 || e.status === 451);
}
