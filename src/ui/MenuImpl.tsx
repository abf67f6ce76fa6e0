// The Ark UI dropdown behind MenuButton (loaded on first use): actions, internal links, external
// links, group labels and plain text lines (the help menu's 'Version:' line).
import { Menu as Ark } from '@ark-ui/react/menu';
import type { ReactNode } from 'react';
import { MENU_ITEM_MAX_WIDTH_PX } from '../domain/constants.ts';
import type { MenuEntry } from './Menu.tsx';

export function ArkMenuButton({ label, trigger, entries, widthPx }: { label: string; trigger: ReactNode; entries: MenuEntry[]; widthPx?: number }) {
  return (
    <Ark.Root positioning={{ placement: 'bottom-end', gutter: 6 }} defaultOpen>
      <Ark.Trigger className="menu-trigger" aria-label={label}>
        {trigger}
      </Ark.Trigger>
      {/* In place, not in a portal on <body>: inside the navigation landmark, so an open menu's
          content is in a landmark too (axe 'region'). */}
      <Ark.Positioner>
        <Ark.Content className="menu" style={widthPx ? { width: `${widthPx}px` } : undefined}>
          {entries.map((e) => renderEntry(e))}
        </Ark.Content>
      </Ark.Positioner>
    </Ark.Root>
  );
}

function renderEntry(e: MenuEntry): ReactNode {
  const style = { maxWidth: `${MENU_ITEM_MAX_WIDTH_PX}px` };
  switch (e.kind) {
    case 'action':
      return (
        <Ark.Item key={e.id} value={e.id} className="menu-item" style={style} onSelect={e.onSelect}>
          {e.label}
        </Ark.Item>
      );
    case 'external':
      return (
        <Ark.Item key={e.id} value={e.id} className="menu-item" style={style} asChild>
          <a href={e.href} target="_blank" rel="noreferrer">
            {e.label}
          </a>
        </Ark.Item>
      );
    case 'group':
      return (
        <Ark.ItemGroup key={e.id} className="menu-group">
          <Ark.ItemGroupLabel className="menu-group-label">{e.label}</Ark.ItemGroupLabel>
          {e.items.map((i) => renderEntry(i))}
        </Ark.ItemGroup>
      );
    case 'text':
      return (
        <div key={e.id} className="menu-text" role="presentation">
          {e.label}
        </div>
      );
    case 'separator':
      return <Ark.Separator key={e.id} className="menu-separator" />;
  }
}
