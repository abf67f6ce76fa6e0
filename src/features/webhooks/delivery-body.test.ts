import { describe, expect, it } from 'vitest';
import { deliverySubject, pretty } from './delivery-body.ts';

const body = (data: unknown) => JSON.stringify({ id: 'e1', type: 'ClipUpdated', timestamp: '2026-01-01T00:00:00Z', data });

describe('what a delivery is about', () => {
  it('a clip, playlist or recording by its Title; a program or network by its Name', () => {
    expect(deliverySubject(body({ entity: 'clip', row: { Title: 'Night watch', Name: 'x' } }))).toBe('Night watch');
    expect(deliverySubject(body({ entity: 'network', row: { Name: 'Castaway News' } }))).toBe('Castaway News');
  });

  it('a deleted row, a test event or a body of another shape: nothing', () => {
    expect(deliverySubject(body({ entity: 'clip', row: null }))).toBeNull();
    expect(deliverySubject(body({ entity: null, row: null, webhookId: 'w' }))).toBeNull();
    expect(deliverySubject(body({ row: { Title: '  ' } }))).toBeNull();
    expect(deliverySubject('null')).toBeNull();
    expect(deliverySubject('not json')).toBeNull();
  });
});

describe('a body laid out', () => {
  it('JSON indented; other text as it came', () => {
    expect(pretty('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(pretty('<html>busy</html>')).toBe('<html>busy</html>');
  });
});
