// The public pages' style sheet: one inline <style> (no file to fetch, nothing from elsewhere: the
// studio may run on a closed network), allowed by its hash in the pages' content security policy.
// Light and dark follow the listener's system; the layout is one column on a phone.
import { createHash } from 'node:crypto';

const BASE = `
:root{color-scheme:light dark;--bg:#f6f7f7;--card:#fff;--text:#16201f;--muted:#4a5856;--line:#d9e0df;--brand:#0f4c5c;--brand-text:#fff;--focus:#c25e00;--soft:#e3f0f2}
@media (prefers-color-scheme:dark){:root{--bg:#101615;--card:#19211f;--text:#eef3f2;--muted:#aab8b5;--line:#2f3b39;--brand:#7cc7d6;--brand-text:#0b2027;--focus:#ffb74d;--soft:#1f3136}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--brand);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:4px}
img{display:block;max-width:100%}
.art{flex:none;aspect-ratio:1;object-fit:cover;border-radius:12px;background:var(--soft);box-shadow:0 1px 2px rgba(0,0,0,.12)}
.placeholder{display:grid;place-items:center;color:var(--brand);font-weight:700}
`;

const PAGE = `
.wrap{max-width:52rem;margin:0 auto;padding:1.25rem 1rem 3rem}
.crumb{margin:0 0 1rem;font-size:.95rem}
.hero{display:flex;gap:1.5rem;align-items:flex-start;margin:0 0 1.75rem}
.hero .art{width:13rem}
.hero .placeholder{font-size:4.5rem}
.kicker{margin:0 0 .25rem;color:var(--muted);font-size:.8rem;font-weight:600;letter-spacing:.06em;text-transform:uppercase}
h1{margin:0 0 .5rem;font-size:clamp(1.6rem,4vw,2.3rem);line-height:1.15;overflow-wrap:anywhere}
h2{margin:2rem 0 .75rem;font-size:1.25rem}
h3{margin:0;font-size:1.05rem;line-height:1.3;overflow-wrap:anywhere}
.meta{margin:.25rem 0;color:var(--muted);font-size:.92rem}
.meta span+span::before{content:"·";margin:0 .45em}
.lead{margin:.75rem 0 0;white-space:pre-line;overflow-wrap:anywhere}
.notes{overflow-wrap:anywhere}
.notes p{margin:.6rem 0}
.feeds{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0 0;padding:0;list-style:none}
.feed{display:inline-flex;align-items:center;gap:.4rem;padding:.35rem .8rem;border:1px solid var(--line);border-radius:999px;background:var(--card);text-decoration:none;font-size:.92rem}
.feed svg{width:1rem;height:1rem;fill:currentColor}
audio{display:block;width:100%;margin:.75rem 0 0}
.player{margin:0 0 1.5rem}
.episodes{margin:0;padding:0;list-style:none;display:grid;gap:.75rem}
.episode{display:grid;grid-template-columns:4.5rem minmax(0,1fr);gap:0 1rem;padding:1rem;border:1px solid var(--line);border-radius:12px;background:var(--card)}
.episode audio{grid-column:2}
.episode .art{width:4.5rem;border-radius:8px}
.episode .placeholder{font-size:1.6rem}
.episode .body{min-width:0}
.summary{margin:.35rem 0 0;color:var(--muted);overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.empty{color:var(--muted)}
.chapters{margin:0;padding:0;list-style:none;border-top:1px solid var(--line)}
.chapters li{display:flex;gap:1rem;padding:.5rem 0;border-bottom:1px solid var(--line)}
.chapters time{flex:none;min-width:4.5rem;color:var(--muted);font-variant-numeric:tabular-nums}
footer{margin-top:3rem;color:var(--muted);font-size:.85rem}
@media (max-width:600px){.hero{flex-direction:column;gap:1rem}.hero .art{width:min(60vw,14rem)}.episode{padding:.8rem;gap:0 .8rem;grid-template-columns:3.5rem minmax(0,1fr)}.episode .art{width:3.5rem}.episode audio{grid-column:1/-1}}
`;

const EMBED = `
body{background:var(--card)}
.embed{display:flex;gap:1rem;align-items:center;padding:.75rem;min-height:100vh;max-width:100%}
.embed .art{width:7.5rem}
.embed .placeholder{font-size:2.5rem}
.embed .body{flex:1;min-width:0}
.embed .program{margin:0;color:var(--muted);font-size:.85rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.embed h1{margin:0 0 .5rem;font-size:1.05rem;line-height:1.3;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.embed h1 a{color:inherit;text-decoration:none}
.embed h1 a:hover{text-decoration:underline}
.controls{display:flex;align-items:center;gap:.6rem}
.controls[hidden]{display:none}
.play{flex:none;width:2.75rem;height:2.75rem;border:0;border-radius:50%;background:var(--brand);color:var(--brand-text);display:grid;place-items:center;cursor:pointer}
.play svg{width:1.25rem;height:1.25rem;fill:currentColor}
.play .pause,.playing .play .start{display:none}
.playing .play .pause{display:block}
.seek{flex:1;min-width:4rem;height:2.75rem;padding:0 .5rem;display:flex;align-items:center;cursor:pointer;touch-action:none}
.track{position:relative;width:100%;height:.4rem;border-radius:999px;background:var(--line)}
.fill{position:absolute;inset:0 auto 0 0;border-radius:999px;background:var(--brand)}
.fill::after{content:"";position:absolute;right:-.45rem;top:50%;width:.9rem;height:.9rem;margin-top:-.45rem;border-radius:50%;background:var(--brand)}
.time{flex:none;color:var(--muted);font-size:.85rem;font-variant-numeric:tabular-nums}
.speed{flex:none;min-width:3rem;height:2rem;border:1px solid var(--line);border-radius:999px;background:transparent;color:var(--text);font:inherit;font-size:.85rem;cursor:pointer}
@media (max-width:420px){.embed .art{width:4.5rem}.time{display:none}}
`;

export const PAGE_STYLE = `${BASE}${PAGE}`.trim();
export const EMBED_STYLE = `${BASE}${EMBED}`.trim();

/** The CSP source of an inline style sheet: its SHA-256. */
export const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
