// The browser-translation warning dialog itself (loaded only when the warning shows).
import { m } from '../../paraglide/messages.js';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../lib/router.ts';

/** `onOpenProfile` is absent for users without a profile page (/account/profile is for activated
 *  users only). */
export function TranslationWarningDialog({ afterLanguageChange, onDismiss, onOpenProfile }: { afterLanguageChange: boolean; onDismiss: () => void; onOpenProfile?: () => void }) {
  return (
    <Dialog
      open
      onClose={onDismiss}
      title={m.app_translation_title()}
      description={afterLanguageChange ? m.app_translation_text_after_change() : m.app_translation_text()}
      footer={
        <>
          {onOpenProfile && (
            <Link className="button" href="/account/profile" onClick={onOpenProfile}>
              {m.app_translation_profile()}
            </Link>
          )}
          <button type="button" className="button primary" onClick={onDismiss}>{m.app_translation_dismiss()}</button>
        </>
      }
    />
  );
}
