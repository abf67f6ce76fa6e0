import { describe, expect, it } from 'vitest';
import {
  blocksNavigation,
  canSubmitConfirmation,
  confirmationDialog,
  CONFIRMATION_CLOSED,
  contactDialog,
  contactDialogView,
  modalMayClose,
  resolveUnsavedPrompt,
  swipeDismissesToast,
  grantAccessOutcome,
  UNSAVED_TEXT,
  type ConfirmationConfig,
  type ConfirmationEvent,
  type ConfirmationState,
  type ContactDialogEvent,
  type ContactDialogState,
} from './dialogs.ts';
import { domainMessage } from './messages.ts';

describe('Contact dialog: closed, open, submitting (closing blocked), success or failure', () => {
  const run = (events: ContactDialogEvent[]) => {
    let state: ContactDialogState = 'closed';
    const effects = [];
    for (const e of events) {
      const t = contactDialog(state, e);
      state = t.state;
      effects.push(...t.effects);
    }
    return { state, effects };
  };

  it("on success shows 'Enquiry sent', hides the submit button and resets the form", () => {
    const { state, effects } = run(['open', 'submit', 'succeeded']);
    expect(state).toBe('success');
    expect(effects).toEqual([{ type: 'resetForm' }]);
    const view = contactDialogView(state);
    expect(view.showsSubmit).toBe(false);
    expect(domainMessage(view.confirmation!, {}, 'en-US')).toBe('Enquiry sent');
    expect(run(['open', 'submit', 'succeeded', 'submit']).state).toBe('success');
  });

  it("on failure shows a danger toast 'Could not send your enquiry'", () => {
    const { state, effects } = run(['open', 'submit', 'failed']);
    expect(state).toBe('failure');
    expect(effects).toEqual([{ type: 'toast', variant: 'danger', message: 'domain_contact_failed' }]);
    expect(domainMessage('domain_contact_failed', {}, 'en-US')).toBe('Could not send your enquiry');
    expect(run(['open', 'submit', 'failed', 'submit']).state).toBe('submitting');
  });

  it('closing is blocked while submitting', () => {
    expect(run(['open', 'submit', 'close']).state).toBe('submitting');
    expect(contactDialogView('submitting').canClose).toBe(false);
    expect(run(['open', 'close']).state).toBe('closed');
  });

  it('ignores events that do not apply', () => {
    expect(run(['submit']).state).toBe('closed');
    expect(run(['open', 'open']).state).toBe('open');
    expect(run(['succeeded', 'failed']).state).toBe('closed');
    expect(contactDialogView('open')).toEqual({ canClose: true, showsSubmit: true, confirmation: null });
  });
});

describe('Confirmation dialog', () => {
  const danger: ConfirmationConfig = { dangerPrompt: true, failureText: 'Could not delete the clip', successText: 'Deleted' };
  const run = (events: ConfirmationEvent[], config: ConfirmationConfig = danger) => {
    let state: ConfirmationState = CONFIRMATION_CLOSED;
    const effects = [];
    for (const e of events) {
      const t = confirmationDialog(state, e, config);
      state = t.state;
      effects.push(...t.effects);
    }
    return { state, effects };
  };

  it('in danger-with-prompt mode submit stays disabled until DELETE is typed exactly', () => {
    for (const typed of ['', 'delete', 'DELETE ', 'DELET']) {
      const { state } = run([{ type: 'open' }, { type: 'type', text: typed }]);
      expect(canSubmitConfirmation(state, danger)).toBe(false);
      expect(run([{ type: 'open' }, { type: 'type', text: typed }, { type: 'submit' }]).state.phase).toBe('open');
    }
    const typed = run([{ type: 'open' }, { type: 'type', text: 'DELETE' }]).state;
    expect(canSubmitConfirmation(typed, danger)).toBe(true);
  });

  it('the typed text clears whenever the dialog opens or closes', () => {
    expect(run([{ type: 'open' }, { type: 'type', text: 'DELETE' }, { type: 'close' }]).state).toEqual({ phase: 'closed', typed: '' });
    expect(run([{ type: 'open' }, { type: 'type', text: 'DEL' }, { type: 'open' }]).state.typed).toBe('');
    expect(run([{ type: 'type', text: 'DELETE' }]).state.typed).toBe('');
  });

  it('on success it closes, runs the completion callback and optionally shows a success toast', () => {
    const events: ConfirmationEvent[] = [{ type: 'open' }, { type: 'type', text: 'DELETE' }, { type: 'submit' }, { type: 'succeeded' }];
    expect(run(events)).toEqual({ state: CONFIRMATION_CLOSED, effects: [{ type: 'complete' }, { type: 'toast', variant: 'success', text: 'Deleted' }] });
    expect(run([{ type: 'open' }, { type: 'submit' }, { type: 'succeeded' }], { failureText: 'x' }).effects).toEqual([{ type: 'complete' }]);
  });

  it('on failure it shows an error toast with the caller’s description and stays open', () => {
    const { state, effects } = run([{ type: 'open' }, { type: 'type', text: 'DELETE' }, { type: 'submit' }, { type: 'failed' }]);
    expect(state.phase).toBe('open');
    expect(effects).toEqual([{ type: 'toast', variant: 'danger', text: 'Could not delete the clip' }]);
    // A caller that knows why says so on the toast's second line.
    const why = run([{ type: 'open' }, { type: 'type', text: 'DELETE' }, { type: 'submit' }, { type: 'failed', reason: 'The storage on this device is full.' }]);
    expect(why.state.phase).toBe('open');
    expect(why.effects).toEqual([{ type: 'toast', variant: 'danger', text: 'Could not delete the clip', description: 'The storage on this device is full.' }]);
  });

  it('while submitting, cancel and close are disabled', () => {
    const events: ConfirmationEvent[] = [{ type: 'open' }, { type: 'type', text: 'DELETE' }, { type: 'submit' }, { type: 'close' }, { type: 'type', text: 'x' }];
    expect(run(events).state).toEqual({ phase: 'submitting', typed: 'DELETE' });
    expect(run([{ type: 'succeeded' }, { type: 'failed' }]).state).toEqual(CONFIRMATION_CLOSED);
  });
});

describe('Unsaved changes', () => {
  it.each([
    ['form', 'This form has unsaved changes which will be lost if you continue.'],
    ['dialog', 'This dialog has unsaved changes which will be lost if you continue.'],
    ['transcript', 'This transcript has unsaved changes which will be lost if you continue.'],
  ] as const)("'This {entity} has unsaved changes…' for a %s", (entity, text) => expect(domainMessage(UNSAVED_TEXT[entity], {}, 'en-US')).toBe(text));

  it('blocks route change and unload; in-page navigation only if enabled', () => {
    expect(blocksNavigation({ dirty: true }, 'routeChange')).toBe(true);
    expect(blocksNavigation({ dirty: true }, 'unload')).toBe(true);
    expect(blocksNavigation({ dirty: true }, 'inPageNavigation')).toBe(false);
    expect(blocksNavigation({ dirty: true, blockInPageNavigation: true }, 'inPageNavigation')).toBe(true);
    expect(blocksNavigation({ dirty: false, blockInPageNavigation: true }, 'routeChange')).toBe(false);
  });

  it("'OK' discards changes and proceeds; closing the dialog cancels navigation", () => {
    expect(resolveUnsavedPrompt('ok')).toBe('proceed');
    expect(resolveUnsavedPrompt('dismiss')).toBe('cancel');
  });

  it('a modal closes only when none of its prompts vetoes', () => {
    expect(modalMayClose([])).toBe(true);
    expect(modalMayClose([{ vetoesClose: () => false }, { vetoesClose: () => false }])).toBe(true);
    expect(modalMayClose([{ vetoesClose: () => false }, { vetoesClose: () => true }])).toBe(false);
  });
});

describe('Toast swipe and grant access', () => {
  it.each([
    [49, false],
    [50, true],
    [-50, true],
    [-10, false],
  ])('a swipe of %dpx dismisses: %s (50px or more)', (dx, dismisses) => expect(swipeDismissesToast(dx)).toBe(dismisses));

  it("grant access: success reloads, 404 says 'Organization does not exist', other errors 'Error granting access'", () => {
    expect(grantAccessOutcome({ kind: 'ok' })).toEqual({ action: 'reload' });
    const notFound = grantAccessOutcome({ kind: 'notFound' });
    const other = grantAccessOutcome({ kind: 'statusError' });
    expect(notFound.action === 'alert' && domainMessage(notFound.message, {}, 'en-US')).toBe('Organization does not exist');
    expect(other.action === 'alert' && domainMessage(other.message, {}, 'en-US')).toBe('Error granting access');
  });
});
