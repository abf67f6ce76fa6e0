// The browser-translation warning dialog itself (loaded only when the warning shows).
import { m } from '../../paraglide/messages.js';
import { Dialog } from '../../components/Dialog.tsx';

export function TranslationWarningDialog({ afterLanguageChange, onDismiss }: { afterLanguageChange: boolean; onDismiss: () => void }) {
  return (
    <Dialog
      open
      onClose={onDismiss}
      title={m.app_translation_title()}
      description={afterLanguageChange ? m.app_translation_text_after_change() : m.app_translation_text()}
      footer={
        <>
          <a className="button" href="/account/profile">{m.app_translation_profile()}</a>
          <button type="button" className="button primary" onClick={onDismiss}>{m.app_translation_dismiss()}</button>
        </>
      }
    />
  );
}
