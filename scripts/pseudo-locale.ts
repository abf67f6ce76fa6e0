// Generates locales/<area>/en-XA.json for EVERY area from en-US: accented letters, about 30%
// longer, bracketed, so an untranslated or truncated string stands out on screen.
// Placeholders ({name}) and the "$schema" key are kept as they are.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const ACCENTS: Record<string, string> = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'í', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ó', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'ú', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Á', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Í', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ó', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Ú', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};
const PAD = ' one two three four five six seven eight nine ten eleven twelve';

/** Pseudo-localises one message text; `{placeholder}` stays untouched. */
export function pseudoLocalize(text: string): string {
  let out = '';
  let letters = 0;
  let depth = 0;
  for (const ch of text) {
    if (ch === '{') depth++;
    if (depth > 0) out += ch;
    else {
      out += ACCENTS[ch] ?? ch;
      if (/[A-Za-z]/.test(ch)) letters++;
    }
    if (ch === '}' && depth > 0) depth--;
  }
  const extra = Math.max(1, Math.ceil(letters * 0.3));
  const padding = [...PAD.slice(0, extra + 1)].map((c) => ACCENTS[c] ?? c).join('');
  return `[${out}${padding}]`;
}

/** Pseudo-localises one message as the catalogue stores it: a text, or inlang variants. */
export function pseudoValue(value: unknown): unknown {
  if (typeof value === 'string') return pseudoLocalize(value);
  if (Array.isArray(value)) return value.map(pseudoValue);
  if (value && typeof value === 'object') {
    // Inlang variants: keep selectors/declarations, localise only the "match" texts.
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) result[k] = k === 'declarations' || k === 'selectors' ? v : pseudoValue(v);
    return result;
  }
  return value;
}

export function generate(root = 'locales'): string[] {
  const written: string[] = [];
  for (const area of readdirSync(root, { withFileTypes: true })) {
    if (!area.isDirectory()) continue;
    const source = join(root, area.name, 'en-US.json');
    if (!existsSync(source)) continue;
    const messages = JSON.parse(readFileSync(source, 'utf8')) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(messages)) {
      out[key] = key === '$schema' ? value : pseudoValue(value);
    }
    const target = join(root, area.name, 'en-XA.json');
    writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
    written.push(target);
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) generate();
