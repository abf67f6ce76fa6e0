// The app root (/_app of section 2): sets the page title (then each screen its own), loads the
// session and shows the login screen or the signed-in studio (its own chunk); '?' lists the keys.
// A crash anywhere below (login screen, navigation bar, dialogs, toaster, update prompt) shows the
// full-page error screen.
import { lazy, Suspense, useEffect } from 'react';
import { m } from '../paraglide/messages.js';
import { Provider, appStore } from '../lib/store.ts';
import { Route, Router, Switch, useGuardedLocation } from '../lib/router.ts';
import { loadSession, useSession } from '../lib/session.ts';
import { Toaster } from '../ui/Toaster.tsx';
import { refreshDocumentTitle } from '../ui/useDocumentTitle.ts';
import { ShortcutListKey } from '../ui/ShortcutListKey.tsx';
import { LoadingBar, LoadingFallback } from '../ui/LoadingBar.tsx';
import { LoginScreen } from '../features/session/LoginScreen.tsx';
import { PageLayout } from './Layout.tsx';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';

const SignedIn = lazy(() => import('./SignedIn.tsx').then((mod) => ({ default: mod.SignedIn })));
// Creating an account: its own chunk, so the login screen stays light.
const SignUpScreen = lazy(() => import('../features/session/SignUpScreen.tsx').then((mod) => ({ default: mod.SignUpScreen })));
// A forgotten password: asking for the link, and the screen the link opens (one chunk of their own).
const ForgotPasswordScreen = lazy(() => import('../features/session/PasswordResetScreens.tsx').then((mod) => ({ default: mod.ForgotPasswordScreen })));
const ResetPasswordScreen = lazy(() => import('../features/session/PasswordResetScreens.tsx').then((mod) => ({ default: mod.ResetPasswordScreen })));
// An invitation link's accept screen (its own chunk).
const InvitationScreen = lazy(() => import('../features/session/InvitationScreen.tsx').then((mod) => ({ default: mod.InvitationScreen })));

export function App() {
  useEffect(() => {
    // The product's name in the user's language until a screen names the tab (useDocumentTitle);
    // a screen mounted in this same commit has registered its title already and keeps it.
    refreshDocumentTitle();
    void loadSession();
  }, []);
  return (
    <Provider store={appStore}>
      <Router hook={useGuardedLocation}>
        <AppErrorBoundary>
          <LoadingBar />
          <Root />
          <Toaster />
          <ShortcutListKey />
        </AppErrorBoundary>
      </Router>
    </Provider>
  );
}

function Booting() {
  return (
    <main className="boot">
      <h1 className="visually-hidden">{m.app_title()}</h1>
      <p role="status">{m.app_loading()}</p>
    </main>
  );
}

function Root() {
  const state = useSession();
  if (!state) return <Booting />;
  if (state.session.Type === 'loggedOut') {
    return (
      <PageLayout mode="none">
        <Switch>
          <Route path="/account/new">
            <Suspense fallback={<LoadingFallback><Booting /></LoadingFallback>}>
              <SignUpScreen />
            </Suspense>
          </Route>
          <Route path="/account/forgot-password">
            <Suspense fallback={<LoadingFallback><Booting /></LoadingFallback>}>
              <ForgotPasswordScreen />
            </Suspense>
          </Route>
          <Route path="/account/reset-password">
            <Suspense fallback={<LoadingFallback><Booting /></LoadingFallback>}>
              <ResetPasswordScreen />
            </Suspense>
          </Route>
          <Route path="/internal/invitations/:invitationId">
            {(params) => (
              <Suspense fallback={<LoadingFallback><Booting /></LoadingFallback>}>
                <InvitationScreen invitationId={params.invitationId} />
              </Suspense>
            )}
          </Route>
          {/* A confirmation link opened signed out: sign in first, then the link's screen confirms. */}
          <Route path="/account/confirm">
            <LoginScreen notice={m.signup_confirm_sign_in()} />
          </Route>
          <Route>
            <LoginScreen />
          </Route>
        </Switch>
      </PageLayout>
    );
  }
  return (
    <Suspense fallback={<LoadingFallback><Booting /></LoadingFallback>}>
      <SignedIn session={state.session} />
    </Suspense>
  );
}
