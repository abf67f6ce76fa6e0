// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { previousPathname } from './previous-path.ts';

/** A move as wouter's browser location makes it: the history call, then its event. */
function move(path: string, type: 'pushState' | 'replaceState' = 'pushState') {
  history[type](null, '', path);
  window.dispatchEvent(new Event(type));
}

describe('the path shown before the current one', () => {
  it('is null at the first screen, then follows pushes, replaces and Back', () => {
    expect(previousPathname()).toBeNull();
    move('/org/programs/p');
    expect(previousPathname()).toBe('/');
    move('/org/programs/p/clips/c');
    expect(previousPathname()).toBe('/org/programs/p');
    // A query change on the same screen is not a move to another screen.
    move('/org/programs/p/clips/c?tab=audio', 'replaceState');
    expect(previousPathname()).toBe('/org/programs/p');
    move('/org/programs/p', 'replaceState');
    expect(previousPathname()).toBe('/org/programs/p/clips/c');
    history.replaceState(null, '', '/org');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(previousPathname()).toBe('/org/programs/p');
  });
});
