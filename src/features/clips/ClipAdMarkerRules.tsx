// Which ad-marker rules a clip is held to, in its Ad markers section (issue 34): its program's (or
// none), or its own in place of them (the clip row's AdMarkerRulesOverride), each shown with where
// it comes from. "Use other rules for this clip" opens the same fields as the program's settings
// (src/ui/AdMarkerRulesFields.tsx), filled with the rules in effect and checked by the same rule
// (adMarkerRulesErrors) at each field before anything is queued; "Back to the program's rules"
// drops the clip's own. Both go through the named mutation clip.overrideAdMarkerRules, so they work
// offline; waiting to be sent and a crossed change are said (QueuedSettingNote), and a refusal of
// the server is listed with "Edit these rules again", which puts the refused rules back with each
// reason at its field. Section 6: a clip's rules are settings, changed with content and
// manage-settings access on its program; without them the rules are shown, read only.
//
//   program's (or none) ──Use other rules──> form ──Save──> queued ──> clip's own ──Back──> queued ──> program's
import { useId, useState } from 'react';
import { DEFAULT_AD_MARKER_RULES, effectiveAdMarkerRules, type AdMarkerRules } from '../../domain/ad-markers.ts';
import { fieldErrorText } from '../../domain/messages.ts';
import { overrideClipAdMarkerRules } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import type { NeedsAttentionEntry } from '../../db/db.ts';
import { m } from '../../paraglide/messages.js';
import type { Clip } from '../../protocol/entities.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { useQueuedSetting } from '../../lib/normalization.ts';
import { useProgramFlags } from '../../lib/session.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { clipOverrideAdMarkerRules } from '../../mutations/ad-markers.ts';
import { AdMarkerRulesFields, AdMarkerRulesSummary, ruleOfField, rulesFieldErrors, rulesFromForm, rulesToForm, type AdMarkerRulesForm } from '../../ui/AdMarkerRulesFields.tsx';
import { QueuedSettingNote } from '../../ui/QueuedSettingNote.tsx';
import { RefusedChangeAlert } from '../../ui/RefusedChangeAlert.tsx';

type Editing = { form: AdMarkerRulesForm; errors: Record<string, string> };

export function ClipAdMarkerRules({ clip, program }: { clip: Clip; program: { Id: string; NetworkId?: string | null; AdMarkerRules?: AdMarkerRules | null } | null }) {
  const id = useId();
  const flags = useProgramFlags(clip.OrganizationId, program);
  const editable = flags !== null && flags.HasContentAccess && flags.HasManageSettingsAccess;
  const own = clip.AdMarkerRulesOverride ?? null;
  const { Rules, Source } = effectiveAdMarkerRules(program?.AdMarkerRules ?? null, own);
  const queued = useQueuedSetting('clips', clip.Id, clipOverrideAdMarkerRules.name);
  const [editing, setEditing] = useState<Editing | null>(null);

  const open = (rules: AdMarkerRules, errors: Record<string, string> = {}) => {
    setEditing({ form: rulesToForm(rules), errors });
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${CSS.escape(id)}-form ${Object.keys(errors).length > 0 ? '[aria-invalid="true"]' : 'input'}`)?.focus());
  };

  const save = async (rules: AdMarkerRules | null) => {
    if (rules) {
      const errors = rulesFieldErrors(rules);
      if (Object.keys(errors).length > 0) {
        setEditing((e) => (e ? { ...e, errors } : e));
        requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${CSS.escape(id)}-form [aria-invalid="true"]`)?.focus());
        return;
      }
    }
    if (!(await savedLocally(overrideClipAdMarkerRules(clip.Id, rules)))) return;
    // A new change answers the earlier refusal.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    setEditing(null);
    showSavedToast(rules ? m.markers_rules_saved() : m.markers_rules_back_saved());
  };

  /** The refused rules back in the form, the server's reasons at the rules they name. */
  const editAgain = async (item: NeedsAttentionEntry) => {
    const tried = (item.mutation.args as { Rules?: AdMarkerRules | null }).Rules ?? null;
    const errors: Record<string, string> = {};
    for (const e of item.errors) {
      const rule = ruleOfField(e.Field);
      if (rule) errors[rule] ??= fieldErrorText(e);
    }
    open(tried ?? Rules, errors);
    await savedLocally(dismissNeedsAttention(item.id));
  };
  const last = queued.refused[queued.refused.length - 1];

  return (
    <div className="ad-rules" id={id}>
      <p className="muted">{Source === 'Clip' ? m.clips_ad_rules_clip() : Source === 'Program' ? m.clips_ad_rules_program() : m.clips_ad_rules_none()}</p>
      {last && (
        <RefusedChangeAlert item={last} title={m.markers_rules_refused()}>
          {(last.mutation.args as { Rules?: unknown }).Rules ? (
            <button type="button" className="button" onClick={() => void editAgain(last)}>{m.markers_rules_edit_again()}</button>
          ) : null}
        </RefusedChangeAlert>
      )}
      <QueuedSettingNote queued={queued} organizationId={clip.OrganizationId} />
      {editing ? (
        <form
          id={`${id}-form`}
          className="form ad-rules-form"
          noValidate
          aria-labelledby={`${id}-legend`}
          onSubmit={(e) => {
            e.preventDefault();
            void save(rulesFromForm(editing.form));
          }}
        >
          <h3 id={`${id}-legend`}>{m.markers_rules_form()}</h3>
          <AdMarkerRulesFields id={`${id}-rule`} form={editing.form} errors={editing.errors} onChange={(change) => setEditing((e) => (e ? { ...e, form: { ...e.form, ...change } } : e))} />
          <div className="form-actions">
            <button type="button" className="button" onClick={() => setEditing(null)}>{m.markers_rules_cancel()}</button>
            <button type="submit" className="button primary">{m.markers_rules_save()}</button>
          </div>
        </form>
      ) : (
        <>
          {Source !== 'None' && <AdMarkerRulesSummary rules={Rules} label={Source === 'Clip' ? m.markers_rules_own_summary() : m.markers_rules_program_summary()} />}
          {editable ? (
            <div className="form-actions">
              {Source === 'Clip' ? (
                <>
                  <button type="button" className="button" onClick={() => void save(null)}>{m.markers_rules_back()}</button>
                  <button type="button" className="button" onClick={() => open(Rules)}>{m.markers_rules_change()}</button>
                </>
              ) : (
                <button type="button" className="button" onClick={() => open(Source === 'Program' ? Rules : DEFAULT_AD_MARKER_RULES)}>{m.markers_rules_use_other()}</button>
              )}
            </div>
          ) : (
            flags !== null && <p className="muted">{m.markers_rules_read_only()}</p>
          )}
        </>
      )}
    </div>
  );
}
