// The frame of the signed-out screens (log in, create an account): the hero image, and a panel with
// the product's mark and name above the screen's own heading and content.
import type { ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import { LogoMark } from '../../ui/Logo.tsx';

export function LoginFrame({ children }: { children: ReactNode }) {
  return (
    <div className="login">
      <div className="login-hero">
        <img src="/hero.svg" alt={m.app_login_hero_alt()} width={800} height={600} />
      </div>
      <div className="login-panel">
        <div className="login-brand">
          <LogoMark size={40} />
          <span className="logo-text">{m.app_title()}</span>
        </div>
        {children}
      </div>
    </div>
  );
}
