// A page header (section 2): title, optional link, actions, tabs and an after-header area. It also
// names the browser tab after the page (useDocumentTitle): its title, then its eyebrow, where
// they are plain text; a screen whose header is not, or that says more, passes `documentTitle`.
import type { ReactNode } from 'react';
import { useDocumentTitle } from './useDocumentTitle.ts';

export type Tab = { id: string; label: string; selected: boolean; onSelect: () => void };

const text = (node: ReactNode): string | null => (typeof node === 'string' || typeof node === 'number' ? String(node) : null);

export function PageHeader({ title, eyebrow, link, actions, tabs, after, documentTitle }: {
  title: ReactNode;
  eyebrow?: ReactNode;
  link?: ReactNode;
  actions?: ReactNode;
  tabs?: Tab[];
  after?: ReactNode;
  /** The tab title's parts, most specific first (default: the title, then the eyebrow). */
  documentTitle?: readonly (string | null | undefined)[];
}) {
  useDocumentTitle(documentTitle ?? [text(title), text(eyebrow)]);
  return (
    <div className="page-header">
      <div className="page-header-row">
        <div className="page-header-titles">
          {eyebrow !== undefined && <div className="eyebrow">{eyebrow}</div>}
          <h1>{title}</h1>
          {link !== undefined && <div className="page-header-link">{link}</div>}
        </div>
        {actions !== undefined && <div className="page-header-actions">{actions}</div>}
      </div>
      {tabs && (
        <div role="tablist" className="tabs">
          {tabs.map((t) => (
            <button
              key={t.id}
              id={`tab-${t.id}`}
              role="tab"
              type="button"
              aria-selected={t.selected}
              aria-controls={`panel-${t.id}`}
              tabIndex={t.selected ? 0 : -1}
              className="tab"
              onClick={t.onSelect}
              onKeyDown={(e) => {
                if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
                const i = tabs.findIndex((x) => x.id === t.id);
                const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
                if (next) {
                  next.onSelect();
                  document.getElementById(`tab-${next.id}`)?.focus();
                }
              }}
            >
              {t.label}
            </button>
          ))}
        </div>
      )}
      {after !== undefined && <div className="page-header-after">{after}</div>}
    </div>
  );
}
