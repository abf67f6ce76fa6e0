import { describe, expect, it } from 'vitest';
import { contentTitle, ENTITY_KINDS, entityLabel, entityReference, hasPermissionAndSettingOperations, routeId } from './entities.ts';
import { imageUrlForSize, imageVariant } from './image.ts';
import { ORGANIZATION_MENU_LABEL, ADMIN_MENU_LABEL, ENTERPRISES_LABEL, ACCOUNT_SETTINGS_LABEL } from './permissions.ts';
import { domainMessage } from './messages.ts';

describe('Entity kinds with labels (singular, plural, capitalised)', () => {
  it.each([
    ['clip', 'clip', 'clips', 'Clip'],
    ['network', 'network', 'networks', 'Network'],
    ['organization', 'organization', 'organizations', 'Organization'],
    ['playlist', 'playlist', 'playlists', 'Playlist'],
    ['program', 'program', 'programs', 'Program'],
    ['recording', 'recording', 'recordings', 'Recording'],
  ] as const)('%s', (kind, singular, plural, capitalised) => {
    expect(entityLabel(kind, 'singular', 'en-US')).toBe(singular);
    expect(entityLabel(kind, 'plural', 'en-US')).toBe(plural);
    expect(entityLabel(kind, 'capitalised', 'en-US')).toBe(capitalised);
  });

  it('singular is the default form', () => expect(entityLabel('clip')).toBe('clip'));
  it('has the six kinds', () => expect(ENTITY_KINDS).toHaveLength(6));

  it('a recording has no permission or setting operations', () => {
    expect(hasPermissionAndSettingOperations('recording')).toBe(false);
    expect(hasPermissionAndSettingOperations('program')).toBe(true);
  });

  it('a reference carries a type and id, and for all but an organization also organizationId', () => {
    expect(entityReference('organization', 'o1', null)).toEqual({ type: 'organization', id: 'o1' });
    expect(entityReference('clip', 'c1', 'o1')).toEqual({ type: 'clip', id: 'c1', organizationId: 'o1' });
    expect(entityReference('clip', 'c1', null)).toBeNull();
  });

  it("content without a title is an error, except clips, which show 'Untitled clip'", () => {
    expect(contentTitle('clip', '  ', 'en-US')).toEqual({ ok: true, title: 'Untitled clip' });
    expect(contentTitle('playlist', null)).toEqual({ ok: false, error: 'UntitledContent' });
    expect(contentTitle('program', ' Morning show ')).toEqual({ ok: true, title: 'Morning show' });
  });
});

describe('Route id parameters', () => {
  const id = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
  it('a missing parameter raises a missing-parameter error', () => {
    expect(routeId({}, 'clipId')).toEqual({ ok: false, error: 'MissingParameter', parameter: 'clipId' });
    expect(routeId({ clipId: '' }, 'clipId')).toMatchObject({ error: 'MissingParameter' });
  });
  it('an invalid id raises an invalid-id error naming the entity type', () => {
    expect(routeId({ programId: 'abc' }, 'programId')).toEqual({ ok: false, error: 'InvalidId', parameter: 'programId', entityType: 'program' });
  });
  it('a valid id is read in lower case', () => expect(routeId({ organizationId: id }, 'organizationId')).toEqual({ ok: true, id: id.toLowerCase() }));
});

describe('Image size variants', () => {
  it.each([
    [1, 1, 'thumbnail'],
    [64, 64, 'thumbnail'],
    [65, 10, 'small'],
    [256, 256, 'small'],
    [257, 100, 'medium'],
    [600, 600, 'medium'],
    [601, 601, 'large'],
    [3000, 3000, 'large'],
    [5000, 5000, 'large'],
  ] as const)('%dx%d → %s (thumbnail 64, small 256, medium 600, large 3000)', (w, h, variant) => expect(imageVariant(w, h)).toBe(variant));

  it('the image URL gets a size query parameter; more than one ? is an error', () => {
    expect(imageUrlForSize('https://img.example.com/a.png', 100, 100)).toEqual({ ok: true, url: 'https://img.example.com/a.png?size=small' });
    expect(imageUrlForSize('https://img.example.com/a.png?v=2', 40, 40)).toEqual({ ok: true, url: 'https://img.example.com/a.png?v=2&size=thumbnail' });
    expect(imageUrlForSize('https://img.example.com/a.png?v=2?x', 40, 40)).toEqual({ ok: false, error: 'MultipleQueryMarks' });
  });
});

describe('Menu labels', () => {
  it('name the spec items', () => {
    expect(domainMessage(ORGANIZATION_MENU_LABEL.switchOrganization, {}, 'en-US')).toBe('Switch organization');
    expect(domainMessage(ORGANIZATION_MENU_LABEL.saveSnapshot, {}, 'en-US')).toBe('Save organization snapshot');
    expect(domainMessage(ADMIN_MENU_LABEL.billingFeatures, {}, 'en-US')).toBe('Billing & features');
    expect(domainMessage(ENTERPRISES_LABEL, {}, 'en-US')).toBe('Enterprises');
    expect(domainMessage(ACCOUNT_SETTINGS_LABEL, {}, 'en-US')).toBe('Account settings');
  });
});
