// Everything a signed-in user sees: the navigation shell, the content routes and the app-wide
// dialogs. Loaded as its own chunk so the login screen stays light.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { Redirect, Route, Switch, useLocation, useRoute } from '../lib/router.ts';
import type { Session } from '../lib/session.ts';
import { useGlobalDialog } from '../lib/dialogs.ts';
import { usePendingLeave } from '../lib/unsaved.ts';
import { isGuid } from '../domain/validators.ts';
import { mayReadAudit } from '../domain/audit.ts';
import { showsAccountSettings } from '../domain/permissions.ts';
import { mayUseEnterprises } from '../domain/enterprises.ts';
import { TranslationWarning } from '../features/session/TranslationWarning.tsx';
import { UnactivatedNotice } from '../features/session/UnactivatedNotice.tsx';
import { StatusErrorPage } from '../ui/ErrorPage.tsx';
import { OrganizationsScreen } from '../features/organizations/OrganizationsScreen.tsx';
import { OrganizationHome } from '../features/organizations/OrganizationHome.tsx';
import { UpdatePrompt } from '../features/sync/UpdatePrompt.tsx';
import { StoreOwnerGate, storeIsReady, useStoreOwnerCheck } from '../features/sync/StoreOwnerGate.tsx';
import { useUploadQueue } from '../lib/upload-runner.ts';
import { useSyncAnywhere } from '../lib/sync-runner.ts';
import { OrganizationScope } from './OrganizationScope.tsx';
import { GoRedirect } from './GoRedirect.tsx';
import { InstallPrompt } from '../ui/InstallPrompt.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { PageLayout, type ContentWidth } from './Layout.tsx';
import { NavigationBar } from './Shell.tsx';
import { LoadingFallback } from '../ui/LoadingBar.tsx';

// Content screens load on demand (all chunks are precached by the service worker, so this costs
// nothing offline) to keep the JS of the first screen small.
const ProgramsScreen = lazy(() => import('../features/programs/ProgramsScreen.tsx').then((mod) => ({ default: mod.ProgramsScreen })));
const ProgramScreen = lazy(() => import('../features/programs/ProgramScreen.tsx').then((mod) => ({ default: mod.ProgramScreen })));
const ProgramSettingsScreen = lazy(() => import('../features/programs/ProgramSettingsScreen.tsx').then((mod) => ({ default: mod.ProgramSettingsScreen })));
const NetworksScreen = lazy(() => import('../features/networks/NetworksScreen.tsx').then((mod) => ({ default: mod.NetworksScreen })));
const ClipScreen = lazy(() => import('../features/clips/ClipScreen.tsx').then((mod) => ({ default: mod.ClipScreen })));
const PlaylistScreen = lazy(() => import('../features/playlists/PlaylistScreen.tsx').then((mod) => ({ default: mod.PlaylistScreen })));
const NewPlaylistScreen = lazy(() => import('../features/playlists/NewPlaylistScreen.tsx').then((mod) => ({ default: mod.NewPlaylistScreen })));
const RecordingScreen = lazy(() => import('../features/recordings/RecordingScreen.tsx').then((mod) => ({ default: mod.RecordingScreen })));
const GlobalDialogs = lazy(() => import('./GlobalDialogs.tsx').then((mod) => ({ default: mod.GlobalDialogs })));
const LogoutRoute = lazy(() => import('./GlobalDialogs.tsx').then((mod) => ({ default: mod.LogoutRoute })));
const SyncScreen = lazy(() => import('../features/sync/SyncScreen.tsx').then((mod) => ({ default: mod.SyncScreen })));
const ImportsScreen = lazy(() => import('../features/imports/ImportsScreen.tsx').then((mod) => ({ default: mod.ImportsScreen })));
const EnterprisesScreen = lazy(() => import('../features/enterprises/EnterprisesScreen.tsx').then((mod) => ({ default: mod.EnterprisesScreen })));
const EnterpriseScreen = lazy(() => import('../features/enterprises/EnterpriseScreen.tsx').then((mod) => ({ default: mod.EnterpriseScreen })));
const EnterpriseOrganizationScreen = lazy(() => import('../features/enterprises/EnterpriseOrganizationScreen.tsx').then((mod) => ({ default: mod.EnterpriseOrganizationScreen })));
const AccountScreen = lazy(() => import('../features/account/AccountScreen.tsx').then((mod) => ({ default: mod.AccountScreen })));
const ProfileScreen = lazy(() => import('../features/account/AccountScreen.tsx').then((mod) => ({ default: mod.ProfileScreen })));
const OrganizationAnalyticsScreen = lazy(() => import('../features/analytics/AnalyticsScreens.tsx').then((mod) => ({ default: mod.OrganizationAnalyticsScreen })));
const ProgramAnalyticsScreen = lazy(() => import('../features/analytics/AnalyticsScreens.tsx').then((mod) => ({ default: mod.ProgramAnalyticsScreen })));
const ClipAnalyticsScreen = lazy(() => import('../features/analytics/AnalyticsScreens.tsx').then((mod) => ({ default: mod.ClipAnalyticsScreen })));
const ReportsScreen = lazy(() => import('../features/reports/ReportsScreen.tsx').then((mod) => ({ default: mod.ReportsScreen })));
const OrganizationSettingsScreen = lazy(() => import('../features/settings/OrganizationSettingsScreen.tsx').then((mod) => ({ default: mod.OrganizationSettingsScreen })));
const WebhooksSettings = lazy(() => import('../features/webhooks/WebhooksSettings.tsx').then((mod) => ({ default: mod.WebhooksSettings })));
const UsersScreen = lazy(() => import('../features/users/UsersScreen.tsx').then((mod) => ({ default: mod.UsersScreen })));
const AuditTrail = lazy(() => import('../features/audit/AuditTrail.tsx').then((mod) => ({ default: mod.AuditTrail })));
const ProgramPeople = lazy(() => import('../features/users/ObjectPeople.tsx').then((mod) => ({ default: mod.ProgramPeople })));
const NetworkPeople = lazy(() => import('../features/users/ObjectPeople.tsx').then((mod) => ({ default: mod.NetworkPeople })));
const ProgramAuditTrail = lazy(() => import('../features/audit/AuditTrail.tsx').then((mod) => ({ default: mod.ProgramAuditTrail })));
const ProgramAdMarkerRules = lazy(() => import('../features/programs/ProgramAdMarkerRules.tsx').then((mod) => ({ default: mod.ProgramAdMarkerRules })));
const NormalizationSettings = lazy(() => import('../features/settings/NormalizationSettings.tsx').then((mod) => ({ default: mod.NormalizationSettings })));
const MeasurementSettings = lazy(() => import('../features/settings/MeasurementSettings.tsx').then((mod) => ({ default: mod.MeasurementSettings })));
const ApplePremiumSettings = lazy(() => import('../features/settings/ApplePremiumSettings.tsx').then((mod) => ({ default: mod.ApplePremiumSettings })));
const OrganizationApplePremium = lazy(() => import('../features/settings/ApplePremiumSettings.tsx').then((mod) => ({ default: mod.OrganizationApplePremium })));
const ProductionMemoScreen = lazy(() => import('../features/recordings/ProductionMemoScreen.tsx').then((mod) => ({ default: mod.ProductionMemoScreen })));
const RecordingAgentsSettings = lazy(() => import('../features/recordings/RecordingAgents.tsx').then((mod) => ({ default: mod.RecordingAgentsSettings })));
const ConfirmEmailScreen = lazy(() => import('../features/session/ConfirmEmailScreen.tsx').then((mod) => ({ default: mod.ConfirmEmailScreen })));
const ForgotPasswordScreen = lazy(() => import('../features/session/PasswordResetScreens.tsx').then((mod) => ({ default: mod.ForgotPasswordScreen })));
const ResetPasswordScreen = lazy(() => import('../features/session/PasswordResetScreens.tsx').then((mod) => ({ default: mod.ResetPasswordScreen })));
const InvitationScreen = lazy(() => import('../features/session/InvitationScreen.tsx').then((mod) => ({ default: mod.InvitationScreen })));
const SupportInboxScreen = lazy(() => import('../features/support/SupportInboxScreen.tsx').then((mod) => ({ default: mod.SupportInboxScreen })));
const ObjectSearchScreen = lazy(() => import('../features/support/ObjectSearchScreen.tsx').then((mod) => ({ default: mod.ObjectSearchScreen })));
const BillingScreen = lazy(() => import('../features/billing/BillingScreen.tsx').then((mod) => ({ default: mod.BillingScreen })));
const ConfigScreen = lazy(() => import('../features/billing/ConfigScreen.tsx').then((mod) => ({ default: mod.ConfigScreen })));
const SearchScreen = lazy(() => import('../features/search/SearchScreen.tsx').then((mod) => ({ default: mod.SearchScreen })));

export function SignedIn({ session }: { session: Session }) {
  const [location] = useLocation();
  useUploadQueue(session.User?.Id);
  const [, orgParams] = useRoute<{ organizationId: string }>('/:organizationId/*?');
  const organizationId = orgParams && isGuid(orgParams.organizationId) ? orgParams.organizationId.toLowerCase() : null;
  // This user's local store only: another user's unsynced data is settled first. The check is
  // made here, above the routes, once per user; the gate stands in for the page content only, so
  // every route below renders the same PageLayout (and navigation bar) before and after it.
  const storeCheck = useStoreOwnerCheck(session.User);
  const enterpriseFacts = { isAdmin: session.User?.IsAdmin ?? false, hasResellerAccess: session.User?.HasResellerAccess ?? false };
  // Queued edits go out on every page, `/` included, not only under an organization's screens.
  useSyncAnywhere(storeIsReady(storeCheck) ? session : null);
  const layout = (width: ContentWidth, children: ReactNode) => (
    <PageLayout mode="navigation" width={storeIsReady(storeCheck) ? width : 'narrow'} navigation={<NavigationBar session={session} organizationId={organizationId} />}>
      {session.Type === 'unactivated' && <UnactivatedNotice email={session.User?.Email ?? ''} />}
      <ErrorBoundary resetKey={location}>
        <Suspense fallback={<LoadingFallback><p className="muted">{m.app_loading()}</p></LoadingFallback>}>
          <StoreOwnerGate check={storeCheck}>{children}</StoreOwnerGate>
        </Suspense>
      </ErrorBoundary>
    </PageLayout>
  );
  return (
    <>
      <Switch>
        <Route path="/">{layout('narrow', <OrganizationsScreen />)}</Route>
        <Route path="/logout">{layout('narrow', <LogoutRoute />)}</Route>
        {/* Before /:organizationId, which would read 'account' as an organization id. */}
        <Route path="/account">{layout('narrow', showsAccountSettings({ sessionType: session.Type }) ? <AccountScreen /> : <StatusErrorPage status={403} />)}</Route>
        {/* The manifest's shortcuts (GoRedirect.tsx); before /:organizationId, which would read 'go' as one. */}
        <Route path="/go/:target">{(params) => layout('narrow', <GoRedirect target={params.target} />)}</Route>
        {/* The confirmation e-mail's link (any session type: an activated account is told the link was used). */}
        <Route path="/account/confirm">{layout('narrow', <ConfirmEmailScreen session={session} />)}</Route>
        {/* A reset link (or a security notice's) opened signed in: the same screens; a reset signs every session out. */}
        <Route path="/account/forgot-password">{layout('narrow', <ForgotPasswordScreen />)}</Route>
        <Route path="/account/reset-password">{layout('narrow', <ResetPasswordScreen />)}</Route>
        {/* An invitation link opened signed in: join with this account, or accept as a new one (before /:organizationId). */}
        <Route path="/internal/invitations/:invitationId">{(params) => layout('narrow', <InvitationScreen invitationId={params.invitationId} />)}</Route>
        {/* The support inbox: admin and support users (the server says so too); before /:organizationId. */}
        <Route path="/admin/support">{layout('default', session.User?.IsAdminOrSupport ? <SupportInboxScreen /> : <StatusErrorPage status={403} />)}</Route>
        <Route path="/admin/lookup">{layout('default', session.User?.IsAdminOrSupport ? <ObjectSearchScreen /> : <StatusErrorPage status={403} />)}</Route>
        {/* Enterprises: admins and users with reseller access (section 6; the server says so too); before /:organizationId, which would read 'enterprises' as one. */}
        <Route path="/enterprises/:enterpriseId/organizations/:organizationId">{layout('default', mayUseEnterprises(enterpriseFacts) ? <EnterpriseOrganizationScreen /> : <StatusErrorPage status={403} />)}</Route>
        <Route path="/enterprises/:enterpriseId">{layout('default', mayUseEnterprises(enterpriseFacts) ? <EnterpriseScreen /> : <StatusErrorPage status={403} />)}</Route>
        <Route path="/enterprises">{layout('default', mayUseEnterprises(enterpriseFacts) ? <EnterprisesScreen /> : <StatusErrorPage status={403} />)}</Route>
        {/* Signed in already: the sign-up form has nothing to do. */}
        <Route path="/account/new"><Redirect to="/" /></Route>
        <Route path="/account/profile">{layout('narrow', showsAccountSettings({ sessionType: session.Type }) ? <ProfileScreen /> : <StatusErrorPage status={403} />)}</Route>
        {/* Analytics read the API, not the synced store: they never wait for the organization's download. */}
        <Route path="/:organizationId/programs/:programId/clips/:clipId/analytics">{layout('wide', <OrganizationScope needsLocalData={false}><ClipAnalyticsScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs/:programId/analytics">{layout('wide', <OrganizationScope needsLocalData={false}><ProgramAnalyticsScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/analytics">{layout('wide', <OrganizationScope needsLocalData={false}><OrganizationAnalyticsScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs/:programId/clips/:clipId">{layout('default', <OrganizationScope><ClipScreen /></OrganizationScope>)}</Route>
        {/* Before the playlist's own route, which would read 'new' as a playlist id. */}
        <Route path="/:organizationId/programs/:programId/playlists/new">{layout('default', <OrganizationScope><NewPlaylistScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs/:programId/playlists/:playlistId">{layout('default', <OrganizationScope><PlaylistScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs/:programId/recordings/memos/:memoDate">{layout('default', <OrganizationScope><ProductionMemoScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs/:programId/recordings/:recordingId">{layout('default', <OrganizationScope><RecordingScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs/:programId/settings">{layout('default', <OrganizationScope><ProgramSettingsScreen extras={(program) => <Suspense fallback={null}><ProgramPeople organizationId={program.OrganizationId} programId={program.Id} networkId={program.NetworkId ?? null} name={program.Name} /><ApplePremiumSettings level="Program" organizationId={program.OrganizationId} programId={program.Id} networkId={program.NetworkId ?? null} /><ProgramAdMarkerRules program={program} /><ProgramAuditTrail program={program} /></Suspense>} /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/networks">{layout('default', <OrganizationScope><NetworksScreen people={(network) => <Suspense fallback={null}><NetworkPeople organizationId={network.OrganizationId} networkId={network.Id} name={network.Name} /><ApplePremiumSettings level="Network" organizationId={network.OrganizationId} networkId={network.Id} name={network.Name} /></Suspense>} /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs/:programId">{layout('wide', <OrganizationScope><ProgramScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/programs">{layout('default', <OrganizationScope><ProgramsScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/imports">{layout('default', <OrganizationScope needsLocalData={false}><ImportsScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/search">{layout('default', <OrganizationScope><SearchScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/reports">{layout('default', <OrganizationScope needsLocalData={false}><ReportsScreen /></OrganizationScope>)}</Route>
        {/* Its sections, each a feature's screen; webhooks are server-held, so it never waits for the organization's download (the Audio tab reads the organization's row on the device and says when it has not arrived). */}
        <Route path="/:organizationId/settings">{layout('default', <OrganizationScope needsLocalData={false}><OrganizationSettingsScreen sections={[{ id: 'webhooks', label: m.webhooks_title(), content: <WebhooksSettings /> }, { id: 'audio', label: m.settings_audio_tab(), content: <NormalizationSettings /> }, { id: 'measurement', label: m.settings_measurement_tab(), content: <MeasurementSettings /> }, { id: 'apple', label: m.settings_apple_tab(), content: <OrganizationApplePremium /> }, { id: 'recording-agents', label: m.media_agents_title(), content: <RecordingAgentsSettings /> }, { id: 'audit', label: m.app_audit_title(), content: <AuditTrail />, shows: mayReadAudit }]} /></OrganizationScope>)}</Route>
        {/* Billing & features: admins only; the configuration: admin and support users (the server says so too). */}
        <Route path="/:organizationId/billing">{layout('default', session.User?.IsAdmin ? <OrganizationScope needsLocalData={false}><BillingScreen /></OrganizationScope> : <StatusErrorPage status={403} />)}</Route>
        <Route path="/:organizationId/config">{layout('default', session.User?.IsAdminOrSupport ? <OrganizationScope needsLocalData={false}><ConfigScreen /></OrganizationScope> : <StatusErrorPage status={403} />)}</Route>
        <Route path="/:organizationId/users">{layout('default', <OrganizationScope needsLocalData={false}><UsersScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId/sync">{layout('default', <OrganizationScope needsLocalData={false}><SyncScreen /></OrganizationScope>)}</Route>
        <Route path="/:organizationId">{layout('default', <OrganizationScope><OrganizationHome /></OrganizationScope>)}</Route>
        <Route>{layout('narrow', <StatusErrorPage status={404} />)}</Route>
      </Switch>
      <DialogsWhenNeeded />
      <TranslationWarning />
      <UpdatePrompt />
      <InstallPrompt />
    </>
  );
}

/** The app-wide dialogs load the first time one of them is needed (Ark's dialog is not small). */
function DialogsWhenNeeded() {
  const dialog = useGlobalDialog();
  const pending = usePendingLeave();
  const [needed, setNeeded] = useState(false);
  if (!needed && (dialog !== null || pending !== null)) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={<LoadingFallback />}>
      <GlobalDialogs />
    </Suspense>
  );
}
