// @vitest-environment happy-dom
// The tab's title (issue 36): the page's own name first, then where it is, then the product; and
// never the title of a page that is no longer shown.
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeDocumentTitle, refreshDocumentTitle, useDocumentTitle } from './useDocumentTitle.ts';
import { PageHeader } from './PageHeader.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('composeDocumentTitle', () => {
  it('names the page first, then where it is, then the product', () => {
    expect(composeDocumentTitle(['Morning Briefing', 'Programs'], 'Castaway Studio')).toBe('Morning Briefing · Programs · Castaway Studio');
  });

  it('is the product alone without a page name', () => {
    expect(composeDocumentTitle([], 'Castaway Studio')).toBe('Castaway Studio');
    expect(composeDocumentTitle([null, undefined, '  '], 'Castaway Studio')).toBe('Castaway Studio');
  });

  it('leaves out empty parts, repeats and the product name, and collapses whitespace', () => {
    expect(composeDocumentTitle(['  Episode\n 12 ', null, 'Programs', 'Programs'], 'Castaway Studio')).toBe('Episode 12 · Programs · Castaway Studio');
    expect(composeDocumentTitle(['Castaway Studio', 'Log in'], 'Castaway Studio')).toBe('Log in · Castaway Studio');
  });
});

describe('useDocumentTitle', () => {
  let root: Root;
  let host: HTMLElement;
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    document.title = 'stale';
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  function Titled({ name }: { name: string }) {
    useDocumentTitle([name, 'Programs']);
    return null;
  }

  it('sets the title while mounted and falls back to the product when the page goes', () => {
    act(() => root.render(<Titled name="Morning Briefing" />));
    expect(document.title).toBe('Morning Briefing · Programs · Castaway Studio');
    act(() => root.render(<Titled name="Evening News" />));
    expect(document.title).toBe('Evening News · Programs · Castaway Studio');
    act(() => root.render(<p>Loading…</p>));
    expect(document.title).toBe('Castaway Studio');
  });

  it('shows the page mounted last; a renamed earlier page does not take the title back', () => {
    let setFirst: (name: string) => void = () => undefined;
    function First() {
      const [name, set] = useState('First');
      setFirst = set;
      return <Titled name={name} />;
    }
    const page = (second: boolean) => <><First />{second && <Titled name="Second" />}</>;
    act(() => root.render(page(false)));
    act(() => root.render(page(true)));
    expect(document.title).toBe('Second · Programs · Castaway Studio');
    act(() => setFirst('First renamed'));
    expect(document.title).toBe('Second · Programs · Castaway Studio');
    act(() => root.render(page(false)));
    expect(document.title).toBe('First renamed · Programs · Castaway Studio');
  });

  it('an app-level refresh after the screens mounted keeps their title', () => {
    act(() => root.render(<Titled name="Morning Briefing" />));
    refreshDocumentTitle();
    expect(document.title).toBe('Morning Briefing · Programs · Castaway Studio');
  });

  it("PageHeader names the tab after a plain-text title and eyebrow, or after documentTitle", () => {
    act(() => root.render(<PageHeader eyebrow="Morning Briefing" title="Program settings" />));
    expect(document.title).toBe('Program settings · Morning Briefing · Castaway Studio');
    act(() => root.render(<PageHeader title="Morning Briefing" documentTitle={['Morning Briefing', 'Programs']} />));
    expect(document.title).toBe('Morning Briefing · Programs · Castaway Studio');
    // A title that is not text (an element) says nothing of the page: the product alone, not the previous page.
    act(() => root.render(<PageHeader title={<span>Fancy</span>} />));
    expect(document.title).toBe('Castaway Studio');
  });
});
