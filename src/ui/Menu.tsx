// A dropdown menu (section 2 menus; layout constants of section 9). Until first used it is a plain
// button: the Ark UI menu (and its positioning engine) loads on the first click, opened, so the
// signed-in first screen ships less JavaScript.
import { lazy, Suspense, useState, type ReactNode } from 'react';

export type MenuEntry =
  | { kind: 'action'; id: string; label: string; onSelect: () => void }
  | { kind: 'external'; id: string; label: string; href: string }
  | { kind: 'group'; id: string; label: string; items: MenuEntry[] }
  | { kind: 'text'; id: string; label: string }
  | { kind: 'separator'; id: string };

const ArkMenuButton = lazy(() => import('./MenuImpl.tsx').then((mod) => ({ default: mod.ArkMenuButton })));

export function MenuButton(props: { label: string; trigger: ReactNode; entries: MenuEntry[]; widthPx?: number }) {
  const [used, setUsed] = useState(false);
  const placeholder = (
    <button type="button" className="menu-trigger" aria-label={props.label} aria-haspopup="menu" aria-expanded={false} onClick={() => setUsed(true)}>
      {props.trigger}
    </button>
  );
  if (!used) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <ArkMenuButton {...props} />
    </Suspense>
  );
}
