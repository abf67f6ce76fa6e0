// The error boundary around the whole app (App.tsx): a crash in the login screen, the navigation
// bar, the global dialogs, the toaster or the update prompt shows the full-page error screen
// instead of a blank page. It ships with the first screen, so it holds no error pages itself: the
// screen (ErrorBoundary.tsx, shared with page content) loads when a crash happens, from the
// service worker's precache; should even that fail, a bare 'Reload page' is left.
//
//   children ──throws──> error screen (centred logo) ──navigation (Home, back)──> children again
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { useLocation } from '../lib/router.ts';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { PageLayout } from './Layout.tsx';

type State = { error: unknown; key: string };
type Props = { children: ReactNode; resetKey: string; fallback: (error: unknown) => ReactNode };

/** Shows `fallback(error)` once a child has thrown, until `resetKey` changes. */
export class CrashBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey };
  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }
  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

const ErrorScreen = lazy(() => import('./ErrorBoundary.tsx').then((mod) => ({ default: ({ error }: { error: unknown }) => mod.errorScreen(error) })));

function ReloadOnly() {
  useDocumentTitle([m.app_error_500_title()]);
  return (
    <section className="error-page">
      <h1>{m.app_error_500_title()}</h1>
      <div className="error-actions">
        <button type="button" className="button primary" onClick={() => location.reload()}>{m.app_error_reload()}</button>
      </div>
    </section>
  );
}

export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const screen = (error: unknown) => (
    <PageLayout mode="logo">
      <CrashBoundary resetKey={location} fallback={() => <ReloadOnly />}>
        <Suspense fallback={null}>
          <ErrorScreen error={error} />
        </Suspense>
      </CrashBoundary>
    </PageLayout>
  );
  return (
    <CrashBoundary resetKey={location} fallback={screen}>
      {children}
    </CrashBoundary>
  );
}
