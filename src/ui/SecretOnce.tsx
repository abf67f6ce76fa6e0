// A secret the server answers once (a webhook's signing secret, an API key): said plainly that it
// will not be shown again, in a read-only field that selects itself, with Copy. The words are the
// caller's, so the same block serves every kind of secret.
import { useRef } from 'react';
import { copyText } from '../lib/clipboard.ts';
import { showToast } from '../lib/toast.ts';
import { Field } from './Field.tsx';
import './secret-once.css';

export type SecretOnceWords = { once: string; label: string; copy: string; copied: string; copyFailed: string };

export function SecretOnce({ secret, words }: { secret: string; words: SecretOnceWords }) {
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    const copied = await copyText(secret, input.current);
    showToast(copied ? { type: 'success', title: words.copied } : { type: 'danger', title: words.copyFailed });
  };
  return (
    <>
      <p className="alert alert-warning" role="note">
        <strong>{words.once}</strong>
      </p>
      <div className="secret-once">
        <Field label={words.label}>
          <input ref={input} readOnly value={secret} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        </Field>
        <button type="button" className="button" onClick={() => void copy()}>
          {words.copy}
        </button>
      </div>
    </>
  );
}
