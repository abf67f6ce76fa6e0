// @vitest-environment happy-dom
// Organization settings › Measurement as a user meets it: a change of the prefixes the server
// refused after it synced comes back into the fields with the reason at the prefix it names; a
// good change is queued as organization.setMeasurementPrefixes (the device's row changed at once)
// and answers the refusal; without manage-organization-settings access the prefixes are read only.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/db.ts';
import { MeasurementSettings } from './MeasurementSettings.tsx';
import { signInOffline } from '../../../tests/offline-session.ts';
import { click, field, mountAt, settle, type } from '../../../tests/dom-actions.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const AT = '2026-03-01T10:00:00.000Z';
const OP3 = 'https://op3.dev/e/';

/** Signs in (the cached session: the server cannot be reached here) with these flags at organization scope. */

async function render(): Promise<HTMLElement> {
  const el = await mountAt(`/${ORG}/settings`, '/:organizationId/settings', <MeasurementSettings />, { until: 'form' });
  await settle();
  return el;
}

const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === name);

beforeEach(async () => {
  await Promise.all([db.organizations.clear(), db.outbox.clear(), db.needsAttention.clear(), db.shadows.clear()]);
  await db.organizations.put({ Id: ORG, OrganizationId: ORG, Name: 'Radio', MeasurementPrefixes: [OP3], CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1 });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('measurement prefixes', () => {
  it('a refused change comes back into the fields with the server’s reason at its prefix; a corrected one is queued and answers it', async () => {
    await signInOffline(ORG, 'organization', { HasManageOrganizationSettingsAccess: true });
    // A change made by an older release, whose rule let a prefix without its final / through.
    await db.needsAttention.put({
      id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
      entity: 'organizations',
      entityId: ORG,
      mutation: { id: 'c6b2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', name: 'organization.setMeasurementPrefixes', args: { organizationId: ORG, MeasurementPrefixes: [OP3, 'https://chrt.fm/track/X'] }, base: AT, createdAt: 1 },
      httpStatus: 400,
      errors: [
        {
          Field: 'MeasurementPrefixes.1',
          Code: 'urlInvalid',
          Message: 'A measurement prefix ends with / so that the episode’s address can follow it, as in https://op3.dev/e/',
          MessageKey: 'domain_measurement_prefix_slash',
        },
      ],
      createdAt: 1,
    });
    const el = await render();
    expect(field(el, 'Measurement prefix 1').control.value).toBe(OP3);
    const second = field(el, 'Measurement prefix 2');
    expect(second.control.value).toBe('https://chrt.fm/track/X');
    expect(second.control.getAttribute('aria-invalid')).toBe('true');
    expect(second.described).toContain('A measurement prefix ends with / so that the episode’s address can follow it, as in https://op3.dev/e/');

    await type(second.control, 'https://chrt.fm/track/X/');
    expect(field(el, 'Measurement prefix 2').control.getAttribute('aria-invalid')).toBeNull();
    expect(el.querySelector('[data-testid="measured-example"]')?.textContent).toBe(`https://op3.dev/e/chrt.fm/track/X/${location.host}/audio/00000000-0000-4000-8000-000000000000.mp3`);
    await click(el, 'Apply');
    const queued = await db.outbox.toArray();
    expect(queued.map((q) => [q.name, q.args])).toEqual([['organization.setMeasurementPrefixes', { organizationId: ORG, MeasurementPrefixes: [OP3, 'https://chrt.fm/track/X/'] }]]);
    expect((await db.organizations.get(ORG))?.['MeasurementPrefixes']).toEqual([OP3, 'https://chrt.fm/track/X/']);
    expect(await db.needsAttention.count()).toBe(0);
  });

  it('says what is wrong at the field as it is typed, and applies nothing until it is right', async () => {
    await signInOffline(ORG, 'organization', { HasManageOrganizationSettingsAccess: true });
    const el = await render();
    const prefix = field(el, 'Measurement prefix');
    await type(prefix.control, 'op3.dev/e/');
    expect(field(el, 'Measurement prefix').described).toContain('A measurement prefix must start with https://');
    expect(button(el, 'Apply')!.disabled).toBe(true);
    await type(prefix.control, '');
    expect(el.textContent).toContain('No prefix: episodes are served from their own address.');
    expect(button(el, 'Apply')!.disabled).toBe(false);
  });

  it('audit access reads the prefixes and changes nothing', async () => {
    await signInOffline(ORG, 'organization', { HasAuditAccess: true });
    const el = await render();
    const prefix = field(el, 'Measurement prefix');
    expect(prefix.control.value).toBe(OP3);
    expect(prefix.control.disabled).toBe(true);
    expect(el.textContent).toContain("You can see the organization's measurement prefixes, but changing them needs manage-organization-settings access.");
    expect(button(el, 'Apply')).toBeUndefined();
    expect(button(el, 'Remove')).toBeUndefined();
  });
});
