// The playlist's premium feeds (issue 33): each member's private feed of this playlist, with or
// without ads (GET …/settings/playlist-premium-feed-urls), Spotify's subscriber feed (a member's
// feed the studio keeps for Spotify: on, off, a new secret) and the link to Apple Podcasts
// Subscriptions (link, unlink, check again). All of it is server-held (the addresses carry
// members' secrets; the Apple link is checked by the server), so it is online only, and offline
// the section says so. Those who may not manage the program's members are told why instead.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { playlistHasMemberFeed } from '../../domain/member-feeds.ts';
import * as routes from '../../protocol/api/directories.ts';
import type { Playlist } from '../../protocol/entities.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { getLocale } from '../../lib/i18n.ts';
import { planRefusalIn, planRefusalText } from '../../lib/plan-words.ts';
import { usePlanIncludes } from '../../lib/session.ts';
import { PlanNotice } from '../../ui/PlanNotice.tsx';
import { copyText } from '../../lib/clipboard.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { Link } from '../../lib/router.ts';
import { withLoading } from '../../lib/loading.ts';
import { showSavedToast, showToast } from '../../lib/toast.ts';
import { CheckboxField } from '../../ui/Field.tsx';
import './directories.css';

type Loaded<T> = { kind: 'loading' } | { kind: 'failed' } | { kind: 'offline' } | { kind: 'ready'; data: T };

/** A failed call's state: one that never reached the server is offline (said so), else failed. */
const failure = (res: { kind: string }): { kind: 'failed' } | { kind: 'offline' } => (res.kind === 'error' ? { kind: 'offline' } : { kind: 'failed' });

function Failure({ state }: { state: { kind: string } }) {
  if (state.kind === 'offline') return <p className="alert alert-info" role="status">{m.directories_premium_offline()}</p>;
  if (state.kind === 'failed') return <p className="alert alert-warning" role="alert">{m.directories_premium_failed()}</p>;
  return null;
}

function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  const copy = async () => {
    const done = await copyText(value, ref.current);
    showToast(done ? { type: 'success', title: m.directories_copied() } : { type: 'danger', title: m.directories_copy_failed() });
  };
  return (
    <>
      <label className="field-label" htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} ref={ref} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()}>{m.directories_copy()}</button>
      </div>
    </>
  );
}

export function PremiumFeedsCard({ playlist, organizationId, programId, mayManage }: { playlist: Playlist; organizationId: string; programId: string; mayManage: boolean }) {
  const online = useOnline();
  return (
    <section className="card" aria-labelledby="playlist-premium">
      <h2 id="playlist-premium">{m.directories_premium_title()}</h2>
      <p className="muted">{m.directories_premium_intro()}</p>
      {!mayManage ? (
        <p className="muted">{m.directories_premium_no_access()}</p>
      ) : !online ? (
        <p className="alert alert-info" role="status">{m.directories_premium_offline()}</p>
      ) : !playlistHasMemberFeed({ Visibility: playlist.Visibility }) ? (
        <p className="alert alert-info">{m.directories_premium_no_member_feed()}</p>
      ) : (
        <>
          <MemberFeeds playlistId={playlist.Id} organizationId={organizationId} programId={programId} />
          <SpotifyFeed playlistId={playlist.Id} />
          <AppleLink playlist={playlist} organizationId={organizationId} programId={programId} />
        </>
      )}
    </section>
  );
}

function MemberFeeds({ playlistId, organizationId, programId }: { playlistId: string; organizationId: string; programId: string }) {
  const [adFree, setAdFree] = useState(false);
  const [list, setList] = useState<Loaded<Array<{ MemberId: string; Name: string; Url: string }>>>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setList({ kind: 'loading' });
    void call(routes.premiumFeedUrls, { params: { programId }, query: { adFree: adFree ? 'true' : 'false' }, signal: controller.signal }).then((res) => {
      if (controller.signal.aborted) return;
      setList(res.kind === 'ok' ? { kind: 'ready', data: res.data.Items.find((i) => i.PlaylistId === playlistId)?.Members ?? [] } : failure(res));
    });
    return () => controller.abort();
  }, [programId, playlistId, adFree]);
  return (
    <div className="premium-part">
      <h3>{m.directories_premium_members()}</h3>
      <CheckboxField label={m.directories_premium_ad_free()} checked={adFree} onChange={setAdFree} />
      {list.kind === 'loading' && <p className="muted">{m.directories_premium_loading()}</p>}
      <Failure state={list} />
      {list.kind === 'ready' && list.data.length === 0 && <p className="muted">{m.directories_premium_no_members()}</p>}
      {list.kind === 'ready' && list.data.map((member) => <CopyField key={member.MemberId} label={m.directories_premium_member_feed({ name: member.Name })} value={member.Url} />)}
      <p>
        <Link href={`/${organizationId}/programs/${programId}/settings#program-members`}>{m.directories_premium_manage_members()}</Link>
      </p>
    </div>
  );
}

function SpotifyFeed({ playlistId }: { playlistId: string }) {
  const [state, setState] = useState<Loaded<routes.SpotifyPremium>>({ kind: 'loading' });
  const [rotated, setRotated] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    void call(routes.getSpotifyPremium, { params: { playlistId }, signal: controller.signal }).then((res) => {
      if (!controller.signal.aborted) setState(res.kind === 'ok' ? { kind: 'ready', data: res.data } : failure(res));
    });
    return () => controller.abort();
  }, [playlistId]);
  const put = async (json: { Enabled: boolean; RotateToken?: boolean }) => {
    const res = await withLoading(call(routes.putSpotifyPremium, { params: { playlistId }, json }));
    if (res.kind !== 'ok') {
      showToast({ type: 'danger', title: m.directories_premium_failed() });
      return;
    }
    setState({ kind: 'ready', data: res.data });
    setRotated(json.RotateToken === true);
    showSavedToast(m.directories_saved());
  };
  return (
    <div className="premium-part">
      <h3>{m.directories_premium_spotify()}</h3>
      {state.kind === 'loading' && <p className="muted">{m.directories_premium_loading()}</p>}
      <Failure state={state} />
      {state.kind === 'ready' && (
        <>
          <CheckboxField label={m.directories_premium_spotify_enable()} checked={state.data.Enabled} onChange={(on) => void put({ Enabled: on })} />
          {state.data.FeedUrl && (
            <>
              <CopyField label={m.directories_premium_spotify_feed()} value={state.data.FeedUrl} />
              <p className="field-hint">{m.directories_premium_spotify_help()}</p>
              {rotated && <p role="status">{m.directories_premium_spotify_rotated()}</p>}
              <div className="form-actions">
                <button type="button" className="button" onClick={() => void put({ Enabled: true, RotateToken: true })}>{m.directories_premium_spotify_rotate()}</button>
              </div>
            </>
          )}
        </>
      )}
    </div>
  );
}

const APPLE_STATE: Record<routes.ApplePremiumLink['State'], () => string> = {
  NotLinked: m.directories_premium_apple_state_not_linked,
  Linked: m.directories_premium_apple_state_linked,
  SettingsIncomplete: m.directories_premium_apple_state_settings_incomplete,
};
const APPLE_FIELD: Record<routes.ApplePremiumLink['Missing'][number], () => string> = {
  Enabled: m.directories_premium_apple_field_enabled,
  ProviderId: m.directories_premium_apple_field_provider_id,
  ShowId: m.directories_premium_apple_field_show_id,
};

function AppleLink({ playlist, organizationId, programId }: { playlist: Playlist; organizationId: string; programId: string }) {
  const [link, setLink] = useState<Loaded<routes.ApplePremiumLink>>({ kind: 'loading' });
  const load = useCallback(async () => {
    const res = await call(routes.getDirectories, { params: { playlistId: playlist.Id } });
    setLink(res.kind === 'ok' ? { kind: 'ready', data: res.data.ApplePremium } : failure(res));
  }, [playlist.Id]);
  useEffect(() => void load(), [load]);
  // Linking, resyncing and the linking report need the plan's apple-premium (unlinking does not):
  // known from the session, or from the server's refusal (the plan changed since; the session
  // remembers it, api.ts onExplained403), said here as the answer to the click. Another refusal of
  // the plan's (a cap) is said in its own words.
  const [refusedForPlan, setRefusedForPlan] = useState(false);
  const inPlan = usePlanIncludes(organizationId, 'apple-premium') && !refusedForPlan;
  const [planRefusal, setPlanRefusal] = useState<string | null>(null);
  const refused = (res: ApiResult<unknown>): boolean => {
    const refusal = planRefusalIn(res);
    if (!refusal) return false;
    if (refusal.kind === 'feature') setRefusedForPlan(true);
    else setPlanRefusal(planRefusalText(refusal, getLocale()));
    return true;
  };
  const act = async (work: Promise<ApiResult<unknown>>) => {
    const res = await withLoading(work);
    if (res.kind !== 'ok' && !refused(res)) showToast({ type: 'danger', title: m.directories_premium_failed() });
    await load();
  };
  const setLinked = (Linked: boolean) => act(call(routes.linkApplePremium, { params: { playlistId: playlist.Id }, json: { Linked } }));
  const resync = () => act(call(routes.resyncApplePremium, { params: { playlistId: playlist.Id }, json: {} }));
  const [reportStarted, setReportStarted] = useState(false);
  const report = async () => {
    const res = await withLoading(call(routes.linkingReport, { params: { playlistId: playlist.Id }, json: {} }));
    if (res.kind === 'ok') setReportStarted(true);
    else if (!refused(res)) showToast({ type: 'danger', title: m.directories_premium_failed() });
  };
  return (
    <div className="premium-part">
      <h3>{m.directories_premium_apple()}</h3>
      {planRefusal && (
        <p role="alert" className="alert alert-danger">
          {planRefusal}
        </p>
      )}
      {refusedForPlan ? (
        <PlanNotice organizationId={organizationId} feature="apple-premium" heading="none" role="alert" className="alert alert-danger" />
      ) : (
        !inPlan && <PlanNotice organizationId={organizationId} feature="apple-premium" heading="none" className="alert alert-info" />
      )}
      {link.kind === 'loading' && <p className="muted">{m.directories_premium_loading()}</p>}
      <Failure state={link} />
      {link.kind === 'ready' && (
        <>
          <p role="status" className={link.data.State === 'SettingsIncomplete' ? 'alert alert-warning' : undefined}>{APPLE_STATE[link.data.State]()}</p>
          {link.data.Missing.length > 0 && (
            <p>
              {m.directories_premium_apple_missing({ fields: link.data.Missing.map((f) => APPLE_FIELD[f]()).join(', ') })}{' '}
              <Link href={`/${organizationId}/programs/${programId}/settings#apple-premium`}>{m.directories_premium_apple_settings()}</Link>
            </p>
          )}
          {reportStarted && (
            <p role="status">
              {m.directories_linking_report_started()} <Link href={`/${organizationId}/reports`}>{m.directories_linking_report_open()}</Link>
            </p>
          )}
          {link.data.CheckedAtUtc && <p className="muted">{m.directories_premium_apple_checked({ date: formatDateTime(link.data.CheckedAtUtc) })}</p>}
          <div className="form-actions">
            {link.data.State === 'NotLinked' ? (
              inPlan && <button type="button" className="button primary" onClick={() => void setLinked(true)}>{m.directories_premium_apple_link()}</button>
            ) : (
              <>
                {inPlan && <button type="button" className="button" onClick={() => void resync()}>{m.directories_premium_apple_resync()}</button>}
                {inPlan && <button type="button" className="button" onClick={() => void report()}>{m.directories_linking_report_start()}</button>}
                <button type="button" className="button danger-outline" onClick={() => void setLinked(false)}>{m.directories_premium_apple_unlink()}</button>
              </>
            )}
          </div>
        </>
      )}
    </div>
  );
}
