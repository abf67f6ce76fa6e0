// A page crash shows the full-page error screen, with the HTTP status when the error carries one.
// Two boundaries: one around page content (SignedIn.tsx, the navigation bar stays usable) and one
// around the whole app (App.tsx), for a crash in the login screen, the navigation bar, the global
// dialogs, the toaster or the update prompt, which would otherwise leave a blank page.
import { Component, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { HttpError } from '../lib/api.ts';
import { NotFoundPage, StatusErrorPage, type NotFoundKind } from '../features/errors/ErrorPage.tsx';
import { RouteParamError } from './params.ts';
import { EntityKind, entityLabel } from '../domain/entities.ts';
import { useLocation } from '../lib/router.ts';
import { PageLayout } from './Layout.tsx';

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

type State = { error: unknown; key: string };

export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string; fallback?: (screen: ReactNode) => ReactNode }, State> {
  override state: State = { error: null, key: this.props.resetKey };
  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }
  override render() {
    if (!this.state.error) return this.props.children;
    const screen = errorScreen(this.state.error);
    return this.props.fallback ? this.props.fallback(screen) : screen;
  }
}

/** Around the whole app: the error screen takes the page, with the centred logo; navigating away
 *  (Home, or the browser's back button) tries again. */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <ErrorBoundary resetKey={location} fallback={(screen) => <PageLayout mode="logo">{screen}</PageLayout>}>
      {children}
    </ErrorBoundary>
  );
}
