// A page crash shows the full-page error screen, with the HTTP status when the error carries one.
// Two boundaries: this one around page content (SignedIn.tsx, the navigation bar stays usable) and
// AppErrorBoundary.tsx around the whole app, which loads the screens of this module when it needs
// them.
import type { ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { HttpError } from '../lib/api.ts';
import { NotFoundPage, StatusErrorPage, type NotFoundKind } from '../ui/ErrorPage.tsx';
import { RouteParamError } from '../lib/params.ts';
import { EntityKind, entityLabel } from '../domain/entities.ts';
import { CrashBoundary } from './AppErrorBoundary.tsx';

const isEntityKind = (k: string): k is EntityKind => (Object.values(EntityKind) as string[]).includes(k);

const NOT_FOUND_KIND: Record<string, NotFoundKind> = {
  organization: 'organization', program: 'program', clip: 'clip', playlist: 'playlist', recording: 'recording', network: 'network', enterprise: 'enterprise',
};

export function errorScreen(error: unknown): ReactNode {
  if (error instanceof RouteParamError) {
    const kind = NOT_FOUND_KIND[error.entity] ?? 'organization';
    const entity = isEntityKind(error.entity) ? entityLabel(error.entity) : error.entity;
    const detail = error.reason === 'missing' ? m.app_missing_parameter({ parameter: error.parameter }) : m.app_invalid_id({ value: error.value ?? '', entity });
    return <NotFoundPage kind={kind} detail={detail} />;
  }
  return <StatusErrorPage status={httpStatusOf(error)} />;
}

/** The HTTP status an error carries (HttpError, or any error with an HTTP `status`), else 500. */
export function httpStatusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status;
  const status = error !== null && typeof error === 'object' && 'status' in error ? error.status : undefined;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}

/** Around page content (SignedIn.tsx): the error screen replaces the page, the navigation bar stays. */
export function ErrorBoundary({ children, resetKey }: { children: ReactNode; resetKey: string }) {
  return (
    <CrashBoundary resetKey={resetKey} fallback={errorScreen}>
      {children}
    </CrashBoundary>
  );
}
