// Account settings' Appearance: System / Light / Dark. Kept on this device (src/lib/theme.ts), not
// in the account, and applied as soon as it is chosen: nothing to save, nothing sent.
import { useId, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { setThemeChoice, themeChoice, THEME_CHOICES, type ThemeChoice } from '../../lib/theme.ts';

const LABEL: Record<ThemeChoice, () => string> = {
  system: m.install_theme_system,
  light: m.install_theme_light,
  dark: m.install_theme_dark,
};

export function ThemeSetting() {
  const [choice, setChoice] = useState<ThemeChoice>(themeChoice);
  const headingId = useId();
  const hintId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.install_theme_title()}</h2>
      <fieldset className="field choice-group" aria-describedby={hintId}>
        <legend>{m.install_theme_legend()}</legend>
        {THEME_CHOICES.map((c) => (
          <label key={c} className="choice">
            <input
              type="radio"
              name={`${headingId}-theme`}
              value={c}
              checked={choice === c}
              onChange={() => {
                setThemeChoice(c);
                setChoice(c);
              }}
              {...(c === 'system' ? { 'aria-describedby': `${hintId}-system` } : {})}
            />
            <span>
              <span className="choice-label">{LABEL[c]()}</span>
              {c === 'system' && (
                <span id={`${hintId}-system`} className="field-hint">
                  {m.install_theme_system_hint()}
                </span>
              )}
            </span>
          </label>
        ))}
        <p id={hintId} className="field-hint">
          {m.install_theme_hint()}
        </p>
      </fieldset>
    </section>
  );
}
