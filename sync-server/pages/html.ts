// HTML made on the server, escaped by construction: `html` is a tagged template whose every
// interpolated value is escaped unless it is already Html (made by `html` itself, or by `raw` for
// text the server wrote: the style sheet, sanitized show notes). A title holding "<script>" is
// text on the page, whatever template it goes into, attribute or element.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text escaped for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** Markup that is safe to put on the page as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template may hold: text (escaped), markup, lists of either, and nothing (left out). */
export type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup the server wrote itself (never a row's text). */
export function raw(text: string): Html {
  return new Html(text);
}
