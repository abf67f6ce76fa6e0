// The app root (/_app of section 2): sets the page title, loads the session, lays out the shell
// by header mode and maps the content routes. A crash below shows the full-page error screen.
import { useEffect, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { Provider, appStore } from '../lib/store.ts';
import { Route, Router, Switch, useGuardedLocation, useLocation, useRoute } from '../lib/router.ts';
import { loadSession, useSession } from '../lib/session.ts';
import { closeDialog, useGlobalDialog } from '../lib/dialogs.ts';
import { resolvePendingLeave, usePendingLeave } from '../lib/unsaved.ts';
import { isGuid } from '../domain/validators.ts';
import { Toaster } from '../components/Toaster.tsx';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { UnsavedChangesDialog } from '../components/Dialog.tsx';
import { LoginScreen } from '../features/session/LoginScreen.tsx';
import { LogoutDialog } from '../features/session/LogoutDialog.tsx';
import { ContactDialog } from '../features/support/ContactDialog.tsx';
import { StatusErrorPage } from '../features/errors/ErrorPage.tsx';
import { OrganizationsScreen } from '../features/organizations/OrganizationsScreen.tsx';
import { OrganizationHome } from '../features/organizations/OrganizationHome.tsx';
import { ProgramsScreen } from '../features/programs/ProgramsScreen.tsx';
import { ProgramScreen } from '../features/programs/ProgramScreen.tsx';
import { ClipScreen } from '../features/clips/ClipScreen.tsx';
import { PlaylistScreen } from '../features/playlists/PlaylistScreen.tsx';
import { RecordingScreen } from '../features/recordings/RecordingScreen.tsx';
import { SyncScreen } from '../features/sync/SyncScreen.tsx';
import { UpdatePrompt } from '../features/sync/UpdatePrompt.tsx';
import { OrganizationScope } from './OrganizationScope.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { PageLayout, type ContentWidth } from './Shell.tsx';

export function App() {
  useEffect(() => {
    document.title = m.app_title();
    void loadSession();
  }, []);
  return (
    <Provider store={appStore}>
      <Router hook={useGuardedLocation}>
        <LoadingBar />
        <Root />
        <GlobalDialogs />
        <Toaster />
        <UpdatePrompt />
      </Router>
    </Provider>
  );
}

function Root() {
  const state = useSession();
  const [location] = useLocation();
  const [, orgParams] = useRoute<{ organizationId: string }>('/:organizationId/*?');
  const organizationId = orgParams && isGuid(orgParams.organizationId) ? orgParams.organizationId.toLowerCase() : null;
  if (!state) {
    return (
      <div className="boot" role="status">
        {m.app_loading()}
      </div>
    );
  }
  const { session } = state;
  if (session.Type === 'loggedOut') {
    return (
      <PageLayout mode="none" session={null} organizationId={null}>
        <LoginScreen />
      </PageLayout>
    );
  }
  const layout = (width: ContentWidth, children: ReactNode) => (
    <PageLayout mode="navigation" width={width} session={session} organizationId={organizationId}>
      {session.Type === 'unactivated' && <p className="alert alert-info">{m.app_unactivated_notice()}</p>}
      <ErrorBoundary resetKey={location}>{children}</ErrorBoundary>
    </PageLayout>
  );
  return (
    <Switch>
      <Route path="/">{layout('narrow', <OrganizationsScreen />)}</Route>
      <Route path="/logout">{layout('narrow', <LogoutRoute />)}</Route>
      <Route path="/:organizationId/programs/:programId/clips/:clipId">{layout('default', <OrganizationScope><ClipScreen /></OrganizationScope>)}</Route>
      <Route path="/:organizationId/programs/:programId/playlists/:playlistId">{layout('default', <OrganizationScope><PlaylistScreen /></OrganizationScope>)}</Route>
      <Route path="/:organizationId/programs/:programId/recordings/:recordingId">{layout('default', <OrganizationScope><RecordingScreen /></OrganizationScope>)}</Route>
      <Route path="/:organizationId/programs/:programId">{layout('wide', <OrganizationScope><ProgramScreen /></OrganizationScope>)}</Route>
      <Route path="/:organizationId/programs">{layout('default', <OrganizationScope><ProgramsScreen /></OrganizationScope>)}</Route>
      <Route path="/:organizationId/sync">{layout('default', <OrganizationScope><SyncScreen /></OrganizationScope>)}</Route>
      <Route path="/:organizationId">{layout('default', <OrganizationScope><OrganizationHome /></OrganizationScope>)}</Route>
      <Route>{layout('narrow', <StatusErrorPage status={404} />)}</Route>
    </Switch>
  );
}

function LogoutRoute() {
  const [, navigate] = useLocation();
  return <LogoutDialog open onClose={() => (history.length > 1 ? history.back() : navigate('/'))} />;
}

function GlobalDialogs() {
  const dialog = useGlobalDialog();
  const pending = usePendingLeave();
  return (
    <>
      <ContactDialog
        open={dialog?.kind === 'contact'}
        onClose={closeDialog}
        {...(dialog?.kind === 'contact' && dialog.organizationId ? { organizationId: dialog.organizationId } : {})}
        {...(dialog?.kind === 'contact' && dialog.defaultMessage ? { defaultMessage: dialog.defaultMessage } : {})}
      />
      <LogoutDialog open={dialog?.kind === 'logout'} onClose={closeDialog} />
      <UnsavedChangesDialog open={pending !== null} entity={pending?.entity ?? 'form'} onCancel={() => resolvePendingLeave(false)} onConfirm={() => resolvePendingLeave(true)} />
    </>
  );
}
