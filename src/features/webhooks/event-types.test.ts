import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks.ts';
import { entityOf, groupEventTypes, groupSelection, summarizeEventTypes, toggleGroup, toggleType } from './event-types.ts';

describe('event types grouped by the kind of row they are about', () => {
  it('the two publishing changes of a clip are clip events', () => {
    expect(entityOf('ClipUpdated')).toBe('clip');
    expect(entityOf('ClipVisibilityChanged')).toBe('clip');
    expect(entityOf('PublishStateChanged')).toBe('clip');
    expect(entityOf('NetworkDeleted')).toBe('network');
    expect(entityOf('SomethingNew')).toBeNull();
  });

  it('every event type is in exactly one group, clips first', () => {
    const groups = groupEventTypes();
    expect(groups.map((g) => g.entity)).toEqual(['clip', 'program', 'playlist', 'network', 'recording']);
    expect(groups[0]?.types).toEqual(['ClipCreated', 'ClipUpdated', 'ClipDeleted', 'ClipVisibilityChanged', 'PublishStateChanged']);
    expect(groups.flatMap((g) => g.types).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  it('types this build does not know go last, together', () => {
    expect(groupEventTypes(['Later', 'ClipCreated']).map((g) => g.entity)).toEqual(['clip', null]);
  });
});

describe('select all per group', () => {
  const clips = groupEventTypes().find((g) => g.entity === 'clip')!;

  it('reads none, some or all', () => {
    expect(groupSelection(clips, new Set())).toBe('none');
    expect(groupSelection(clips, new Set(['ClipUpdated']))).toBe('some');
    expect(groupSelection(clips, new Set(clips.types))).toBe('all');
  });

  it('a partly chosen group is chosen whole, a whole one cleared, others kept, in the domain order', () => {
    const whole = toggleGroup(clips, ['PlaylistDeleted', 'ClipUpdated']);
    expect(whole).toEqual(['ClipCreated', 'ClipUpdated', 'ClipDeleted', 'PlaylistDeleted', 'ClipVisibilityChanged', 'PublishStateChanged']);
    expect(toggleGroup(clips, whole)).toEqual(['PlaylistDeleted']);
  });

  it('one type on and off keeps the domain order', () => {
    expect(toggleType('ClipCreated', true, ['ProgramUpdated'])).toEqual(['ClipCreated', 'ProgramUpdated']);
    expect(toggleType('ProgramUpdated', false, ['ClipCreated', 'ProgramUpdated'])).toEqual(['ClipCreated']);
  });
});

describe('a webhook’s events in a line', () => {
  it('a kind chosen whole reads as all of it; the others by name, kind by kind', () => {
    const clips = ['ClipCreated', 'ClipUpdated', 'ClipDeleted', 'ClipVisibilityChanged', 'PublishStateChanged'];
    expect(summarizeEventTypes([...clips, 'PlaylistUpdated'])).toEqual([
      { kind: 'all', entity: 'clip' },
      { kind: 'types', types: ['PlaylistUpdated'] },
    ]);
    expect(summarizeEventTypes(['PlaylistCreated', 'PlaylistUpdated', 'PlaylistDeleted', 'ClipUpdated'])).toEqual([
      { kind: 'types', types: ['ClipUpdated'] },
      { kind: 'all', entity: 'playlist' },
    ]);
  });

  it('every type: every kind whole', () => {
    expect(summarizeEventTypes(WEBHOOK_EVENT_TYPES).map((p) => p.kind)).toEqual(['all', 'all', 'all', 'all', 'all']);
  });

  it('a type this build does not know is still shown, last', () => {
    expect(summarizeEventTypes(['SomethingNew', 'ClipUpdated'])).toEqual([
      { kind: 'types', types: ['ClipUpdated'] },
      { kind: 'types', types: ['SomethingNew'] },
    ]);
  });
});
