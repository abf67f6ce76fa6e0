// The one module that imports wouter for screens (STYLE.md habit 8). Navigation goes through the
// unsaved-changes guard (src/lib/unsaved.ts).
export { Link, Redirect, Route, Router, Switch, useLocation, useParams, useRoute, useSearch } from 'wouter';
export { guardedNavigate as navigate, useGuardedLocation } from './unsaved.ts';
export { previousPathname } from './previous-path.ts';
