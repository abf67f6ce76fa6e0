// A list of link cards (an initial as avatar, a title, optional details after it): the
// organizations on '/', the programs on the organization home and on the programs screen.
import type { ReactNode } from 'react';
import { Link } from '../lib/router.ts';

export type CardItem = { id: string; href: string; title: string; details?: ReactNode };

export function CardList({ items }: { items: readonly CardItem[] }) {
  return (
    <ul className="card-list">
      {items.map((item) => (
        <li key={item.id}>
          <Link href={item.href} className="card-link">
            <span className="avatar" aria-hidden="true">{item.title.slice(0, 1).toUpperCase()}</span>
            <span className="card-title">{item.title}</span>
            {item.details}
          </Link>
        </li>
      ))}
    </ul>
  );
}
