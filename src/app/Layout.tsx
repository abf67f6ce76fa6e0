// Page layouts by header mode (section 2): 'none' (narrow centred content), 'navigation'
// (navigation bar plus content), 'logo' (centred logo plus narrow content); content widths narrow
// (560px max), default and wide (1400px max).
import type { ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { LogoMark } from '../ui/Logo.tsx';

export type HeaderMode = 'none' | 'navigation' | 'logo';
export type ContentWidth = 'narrow' | 'default' | 'wide';

export function PageLayout({ mode, width = 'default', navigation, children }: { mode: HeaderMode; width?: ContentWidth; navigation?: ReactNode; children: ReactNode }) {
  return (
    <>
      <a href="#main" className="skip-link">{m.app_skip_to_content()}</a>
      {mode === 'navigation' && navigation}
      {mode === 'logo' && (
        <header className="logo-header">
          <LogoMark size={40} />
          <span className="logo-text">{m.app_title()}</span>
        </header>
      )}
      <main id="main" className={`content content-${mode === 'navigation' ? width : 'narrow'}`} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
