// The one module that imports wouter for screens (STYLE.md habit 8). Navigation goes through the
// unsaved-changes guard (src/lib/unsaved.ts). unsaved.ts loads before previous-path.ts (the order
// of these exports), so its popstate listener runs first and can stop a move it holds back before
// the path tracking, or the router, sees it.
export { Link, Redirect, Route, Router, Switch, useLocation, useParams, useRoute, useSearch } from 'wouter';
export { guardedNavigate as navigate, useGuardedLocation } from './unsaved.ts';
export { previousPathname } from './previous-path.ts';
