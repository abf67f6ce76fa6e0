// A page crash shows the full-page error screen, with the HTTP status when the error carries one.
import { Component, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { HttpError } from '../lib/api.ts';
import { NotFoundPage, StatusErrorPage, type NotFoundKind } from '../features/errors/ErrorPage.tsx';
import { RouteParamError } from './params.ts';
import { EntityKind, entityLabel } from '../domain/entities.ts';

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
  const status = error instanceof HttpError ? error.status : 500;
  return <StatusErrorPage status={status} />;
}

type State = { error: unknown; key: string };

export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null, key: this.props.resetKey };
  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }
  override render() {
    return this.state.error ? errorScreen(this.state.error) : this.props.children;
  }
}
