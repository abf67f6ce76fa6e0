// Organization settings, Audio tab: the organization's loudness normalization, which every program
// inherits unless it chooses its own (src/domain/settings.ts). Kept on the organization's row and
// saved on the device through organization.setNormalization, offline too: the tab says when the
// change waits to be sent, shows the server's refusal at the field, and points to the sync page
// when it crossed a change made elsewhere. Changing it needs manage-organization-settings access
// (section 6); audit access reads it.
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { organizationFlags } from '../../domain/access.ts';
import { settingsAccess, type NormalizationChoice } from '../../domain/settings.ts';
import { organizationSetNormalization } from '../../mutations/settings.ts';
import { setOrganizationNormalization } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { useIdParams } from '../../lib/params.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { useRow } from '../../lib/rows.ts';
import { useNormalizationPresets } from '../../lib/reference-data.ts';
import { useQueuedSetting } from '../../lib/normalization.ts';
import { NormalizationField } from '../../ui/NormalizationField.tsx';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { showSavedToast } from '../../lib/toast.ts';

export function NormalizationSettings() {
  const { organizationId } = useIdParams('organizationId');
  const row = useRow('organizations', organizationId);
  if (row.state !== 'ok') return <p className="muted">{m.settings_normalization_not_here()}</p>;
  const choice = row.row['Normalization'] as NormalizationChoice | null | undefined;
  const current = choice?.PresetId ?? null;
  // Keyed by the saved value: a change arriving from elsewhere starts the form afresh.
  return <OrganizationNormalization key={current ?? ''} organizationId={organizationId} current={current} />;
}

function OrganizationNormalization({ organizationId, current }: { organizationId: string; current: string | null }) {
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  const mayChange = settingsAccess('Organization', organizationFlags(entries)).write;
  const presets = useNormalizationPresets();
  const queued = useQueuedSetting('organizations', organizationId, organizationSetNormalization.name);
  const [value, setValue] = useState(current ?? '');
  const chosen = value === '' ? null : value;

  const save = async () => {
    if (!(await withLoading(savedLocally(setOrganizationNormalization(organizationId, { PresetId: chosen }))))) return;
    // A refused change is answered by this one.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    showSavedToast(m.settings_normalization_saved());
  };

  return (
    <form
      className="card form"
      aria-labelledby="normalization-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="normalization-title">{m.settings_normalization_title()}</h2>
      <p className="muted">{m.settings_normalization_org_intro()}</p>
      {!mayChange && <p className="alert alert-info">{m.settings_normalization_org_read_only()}</p>}
      <NormalizationField organizationId={organizationId} presets={presets} queued={queued} value={value} disabled={!mayChange} onChange={setValue} />
      {mayChange && (
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={chosen === current}>
            {m.app_form_apply()}
          </button>
        </div>
      )}
    </form>
  );
}
