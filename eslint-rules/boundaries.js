// castaway/boundaries: the dependency directions of docs/architecture.md. Each import is resolved
// against the file that makes it (relative specifiers to a path in the repository, bare ones to a
// package name), both ends are placed in a layer, and the table below says which way may point:
//
//   domain ⇄ protocol  ←  mutations, media  ←  db, workers, sw, sync-server  ←  lib  ←  ui  ←  features  ←  app
//
// `no-restricted-imports` and zone plugins match the raw specifier text; '../../src/db/db.ts' and
// '../db/db.ts' are the same module seen from two places, so this rule works on resolved paths.
// Type-only imports count like any other (a type pulls its module's vocabulary across the line);
// the two reasoned exceptions are named where they are made. Tests, benchmarks and scripts are
// exempted in eslint.config.js, not here.
import { builtinModules } from 'node:module';
import path from 'node:path';

/** @typedef {{ layer: string, area: string | null, rel: string }} Place */

const PURE_PACKAGES = new Set(['zod', 'snowball-stemmers']); // add a library here only if it does no IO and holds no state
const SCREEN_PACKAGES = new Set(['react', 'react-dom', 'dexie-react-hooks', '@ark-ui/react', 'jotai', 'wouter', '@tanstack/react-virtual', 'workbox-window']);
const BROWSER_LAYERS = new Set(['domain', 'protocol', 'mutations', 'media', 'db', 'lib', 'ui', 'features', 'app', 'workers', 'sw']);
// What both programs load: it may not reach for anything outside the layers (a test helper, a script).
const SHARED_LAYERS = new Set(['domain', 'protocol', 'mutations', 'media']);

/**
 * Per layer: the other layers it may import (its own always, except another feature's area) and
 * which packages, with the sentence a violation reports. `packages` returns true when allowed.
 * @type {Record<string, { may: string[], packages: (name: string, typeOnly: boolean) => boolean, message: string }>}
 */
const LAYERS = {
  domain: {
    may: ['protocol', 'locales'],
    packages: (name) => PURE_PACKAGES.has(name),
    message: 'src/domain imports nothing impure: only src/domain, src/protocol, zod and pure libraries',
  },
  protocol: {
    may: ['domain'],
    // Route declarations are plain data checked with `satisfies RouteConfig`; an `import type` is
    // erased, so the wire schemas still load without Hono (in the browser too).
    packages: (name, typeOnly) => PURE_PACKAGES.has(name) || (typeOnly && name === '@hono/zod-openapi'),
    message: 'src/protocol imports nothing impure: only src/protocol, src/domain, zod and pure libraries',
  },
  mutations: {
    may: ['domain', 'protocol'],
    packages: (name) => name === 'zod',
    message: 'src/mutations imports only src/domain, src/protocol and zod: the server run and the Dexie apply live with their sides',
  },
  media: {
    may: ['domain', 'protocol'],
    packages: (name) => name !== 'dexie' && !SCREEN_PACKAGES.has(name) && !isNodeBuiltin(name),
    message: 'src/media is platform-neutral audio code: only src/domain, src/protocol and pure libraries (no node:*, dexie or React); Node-only code lives under sync-server/',
  },
  db: {
    may: ['domain', 'protocol', 'mutations', 'media', 'locales'],
    packages: (name) => !isNodeBuiltin(name),
    message: 'src/db imports only src/domain, src/protocol, src/mutations and src/media: constants it shares with workers/ or sw/ go to src/protocol or src/domain',
  },
  workers: {
    may: ['domain', 'protocol', 'mutations', 'media', 'db', 'paraglide', 'locales'],
    packages: (name) => !SCREEN_PACKAGES.has(name) && !isNodeBuiltin(name),
    message: 'workers/ import no screens and nothing above them (src/lib, src/ui, src/features, src/app, React): what a worker shares with them goes to src/domain, src/protocol or src/db',
  },
  sw: {
    may: ['domain', 'protocol', 'mutations', 'media', 'db', 'paraglide', 'locales'],
    packages: (name) => !SCREEN_PACKAGES.has(name) && !isNodeBuiltin(name),
    message: 'sw/ imports no screens and nothing above it (src/lib, src/ui, src/features, src/app, React): what it shares with the page goes to src/domain or src/protocol',
  },
  server: {
    may: ['domain', 'protocol', 'mutations', 'media'],
    packages: () => true,
    message: 'sync-server/ imports only src/domain, src/protocol, src/mutations and platform-neutral src/media (never the client: src/db, src/lib, src/ui, src/features, src/app, src/paraglide, workers/, sw/)',
  },
  lib: {
    may: ['domain', 'protocol', 'mutations', 'media', 'db', 'workers', 'paraglide', 'locales'],
    packages: (name) => !isNodeBuiltin(name),
    message: 'src/lib sits below the screens: it imports no src/ui, src/features or src/app',
  },
  ui: {
    may: ['domain', 'protocol', 'mutations', 'media', 'db', 'lib', 'workers', 'paraglide', 'locales'],
    packages: (name) => !isNodeBuiltin(name),
    message: 'src/ui holds shared building blocks with no product logic: it imports no src/features or src/app',
  },
  features: {
    may: ['domain', 'protocol', 'mutations', 'media', 'db', 'lib', 'ui', 'workers', 'paraglide', 'locales'],
    packages: (name) => !isNodeBuiltin(name),
    message: 'features do not import src/app (it composes them): move what they share to src/lib or src/ui',
  },
  app: {
    may: ['domain', 'protocol', 'mutations', 'media', 'db', 'lib', 'ui', 'features', 'workers', 'sw', 'paraglide', 'locales'],
    packages: (name) => !isNodeBuiltin(name),
    message: 'src/app composes the client: it imports no sync-server/ code',
  },
};

/**
 * Files allowed to import a layer their own layer's rule refuses. Keep this list short.
 * @type {Record<string, string[]>}
 */
const EXCEPTIONS = {
  // The road from a catalogue key to words: Paraglide's compiled messages are generated functions
  // of (inputs, locale) with no IO; the server calls them with an explicit locale, the page with
  // the current one. Everything else in domain and media stays free of Paraglide.
  'src/domain/messages.ts': ['paraglide'],
  'src/media/messages.ts': ['paraglide'],
  // The public pages' words, which the server renders with the program's locale.
  'src/domain/page-words.ts': ['paraglide'],
  // The e-mails' words, which the server renders in the recipient's locale.
  'src/domain/mail-words.ts': ['paraglide'],
  // The labels of the first screens, called by name so the whole catalogue stays out of them.
  'src/domain/label-words.ts': ['paraglide'],
  // Billing's words, which the server renders into invoices and notices in the reader's locale.
  'src/domain/billing-words.ts': ['paraglide'],
};

const FEATURE_MESSAGE = 'features do not import other features: move shared UI to src/ui and shared non-UI helpers to src/lib or src/domain';
const DEXIE_MESSAGE = 'only src/db imports dexie: use the store and helpers src/db exports (dexie-react-hooks is fine in screens)';
const NODE_MESSAGE = 'browser code imports no node:* modules: Node-only code lives under sync-server/';
const SERVER_MESSAGE = 'client code does not import sync-server/; only src/lib may `import type` from it (the typed API client)';

function isNodeBuiltin(name) {
  return name.startsWith('node:') || builtinModules.includes(name);
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** @returns {Place | null} the layer of a repository-relative posix path, or null outside every layer */
function placeOf(rel) {
  const [top, second, third] = rel.split('/');
  if (top === 'workers' || top === 'sw' || top === 'locales') return { layer: top, area: null, rel };
  if (top === 'sync-server') return { layer: 'server', area: null, rel };
  if (top !== 'src' || third === undefined) return null;
  if (second === 'features') return { layer: 'features', area: rel.split('/').length > 3 ? third : null, rel };
  if (['domain', 'protocol', 'mutations', 'media', 'db', 'lib', 'ui', 'app', 'paraglide'].includes(second)) return { layer: second, area: null, rel };
  return null;
}

/**
 * What is wrong with one import, or null.
 * @param {Place} from
 * @param {{ kind: 'file', to: Place | null } | { kind: 'package', name: string }} target
 * @param {boolean} typeOnly an `import type` / `export type` declaration or a type query
 */
function verdict(from, target, typeOnly) {
  const rule = LAYERS[from.layer];
  if (!rule) return null;
  if (target.kind === 'package') {
    if (target.name === 'dexie') return from.layer === 'db' ? null : DEXIE_MESSAGE;
    if (rule.packages(target.name, typeOnly)) return null;
    return isNodeBuiltin(target.name) && !SHARED_LAYERS.has(from.layer) ? NODE_MESSAGE : rule.message;
  }
  const to = target.to;
  if (!to) return SHARED_LAYERS.has(from.layer) || from.layer === 'server' ? rule.message : null;
  if (to.layer === from.layer) return from.layer === 'features' && to.area !== from.area ? FEATURE_MESSAGE : null;
  if (rule.may.includes(to.layer)) return null;
  if (EXCEPTIONS[from.rel]?.includes(to.layer)) return null;
  if (to.layer === 'server' && BROWSER_LAYERS.has(from.layer)) return from.layer === 'lib' && typeOnly ? null : SERVER_MESSAGE;
  return rule.message;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps imports flowing the way docs/architecture.md draws the layers' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: { boundary: '{{rule}} ({{from}} imports {{to}})' },
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const fromRel = path.relative(root, context.filename).split(path.sep).join('/');
    const from = placeOf(fromRel);
    if (!from) return {};

    /**
     * @param {import('estree').Node | null | undefined} source
     * @param {boolean} typeOnly
     * @param {boolean} moduleUrl a `new URL(…, import.meta.url)`: only a relative module file counts
     */
    function check(source, typeOnly, moduleUrl = false) {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const specifier = source.value.replace(/[?#].*$/, '');
      if (moduleUrl && !(specifier.startsWith('.') && /\.(m?[jt]sx?)$/.test(specifier))) return;
      let target;
      let shown;
      if (specifier.startsWith('.')) {
        const rel = path.relative(root, path.resolve(path.dirname(context.filename), specifier)).split(path.sep).join('/');
        target = { kind: /** @type {const} */ ('file'), to: placeOf(rel) };
        shown = rel;
      } else if (specifier.startsWith('/') || specifier === '') {
        return;
      } else {
        target = { kind: /** @type {const} */ ('package'), name: packageName(specifier) };
        shown = specifier;
      }
      const message = verdict(from, target, typeOnly);
      if (message) context.report({ node: source, messageId: 'boundary', data: { rule: message, from: fromRel, to: shown } });
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.importKind === 'type'),
      ExportNamedDeclaration: (node) => check(node.source, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node.source, false),
      // `typeof import('../x.ts')` and `import('../x.ts').T` in a type position.
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.source, true),
      // new URL('../../workers/x.ts', import.meta.url): how Vite bundles a worker or an asset.
      NewExpression(node) {
        const [first, second] = node.arguments;
        const isMetaUrl = second?.type === 'MemberExpression' && second.object.type === 'MetaProperty' && second.property.type === 'Identifier' && second.property.name === 'url';
        if (node.callee.type === 'Identifier' && node.callee.name === 'URL' && isMetaUrl) check(first, false, true);
      },
    };
  },
};
