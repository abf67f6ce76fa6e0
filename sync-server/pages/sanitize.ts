// A clip's show notes (DescriptionHtml) on a public page. Show notes are where podcasters put
// links, lists and emphasis, and a feed's <description> carries the same HTML, so the page shows
// them as HTML rather than the plain Description; but only through a small allow-list:
//
//   the notes ──parse5 (the HTML standard's own parsing: entities, unclosed tags, comments)──> a tree
//     ──walk──> allowed element: written again with its allowed attributes only, every text escaped
//               heading: its text as a bold paragraph (the page keeps its own heading structure)
//               script, style, iframe, object, svg, math, form parts…: dropped with their content
//               anything else (div, span, font…): its children kept, the element dropped
//
// Nothing of the input reaches the page as it was written: every tag and attribute is made here,
// so an unbalanced quote, an event handler or a javascript: link cannot pass.
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { escapeHtml, Html } from './html.ts';

type Node = DefaultTreeAdapterMap['childNode'];

/** Elements kept as they are (without attributes, but for a link's href). */
const KEPT = new Set(['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'blockquote', 'code', 'a']);
const VOID = new Set(['br']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements whose content is not text for a reader (or is active content): dropped whole. */
const DROPPED = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'noscript', 'textarea', 'select', 'button', 'input', 'form', 'title', 'head', 'audio', 'video', 'img', 'picture', 'canvas', 'link', 'meta', 'base']);
/** Deeper than this, elements are flattened into their text (a hostile nesting cannot exhaust the stack). */
const MAX_DEPTH = 32;

/** A link target a listener may follow: http(s) or mailto, absolute. */
export function safeLinkTarget(href: string): string | null {
  const value = href.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.toString() : null;
  } catch {
    return null;
  }
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if (!('childNodes' in node) || DROPPED.has(node.nodeName)) return '';
  return node.childNodes.map(textOf).join('');
}

function write(nodes: readonly Node[], depth: number): string {
  let out = '';
  for (const node of nodes) {
    if (node.nodeName === '#text') {
      out += escapeHtml((node as DefaultTreeAdapterMap['textNode']).value);
      continue;
    }
    if (!('tagName' in node)) continue; // comments, doctypes
    const tag = node.tagName;
    if (DROPPED.has(tag)) continue;
    if (depth >= MAX_DEPTH) {
      out += escapeHtml(textOf(node));
      continue;
    }
    if (HEADINGS.has(tag)) {
      out += `<p><strong>${write(node.childNodes, depth + 1)}</strong></p>`;
      continue;
    }
    if (!KEPT.has(tag)) {
      out += write(node.childNodes, depth + 1);
      continue;
    }
    if (VOID.has(tag)) {
      out += `<${tag}>`;
      continue;
    }
    let open = `<${tag}>`;
    if (tag === 'a') {
      const href = safeLinkTarget(node.attrs.find((a) => a.name === 'href')?.value ?? '');
      // A link to nowhere a listener may go is its text.
      if (href === null) {
        out += write(node.childNodes, depth + 1);
        continue;
      }
      open = `<a href="${escapeHtml(href)}" rel="nofollow ugc noopener">`;
    }
    out += `${open}${write(node.childNodes, depth + 1)}</${tag}>`;
  }
  return out;
}

/** Show notes as markup of the allow-list only. */
export function sanitizeShowNotes(source: string): Html {
  return new Html(write(parseFragment(source).childNodes, 0));
}
