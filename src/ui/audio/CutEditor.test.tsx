// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MediaError, MediaErrorCode } from '../../media/errors.ts';
import type { Waveform } from '../../media/peaks.ts';
import { m } from '../../paraglide/messages.js';
import type { CutEdit } from '../../protocol/media.ts';
import { CutEditor } from './CutEditor.tsx';
import type { PlainPlayer } from './plain-player.ts';
import { WaveformView } from './WaveformView.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const DURATION = 600;
const waveforms: Waveform[] = [256, 4096].map((spp) => {
  const length = Math.ceil((DURATION * 44100) / spp);
  return { version: 2, channels: 1, sampleRate: 44100, samplesPerPixel: spp, bits: 16, length, data: new Int16Array(length * 2) };
});

// Unmounted after each test: a mounted editor's playback timers (50 ms) would otherwise go on
// firing into a test environment that has been torn down ("window is not defined").
const roots: Root[] = [];
function render(node: React.ReactNode): HTMLElement {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  roots.push(root);
  act(() => root.render(node));
  return el;
}
afterEach(() => {
  act(() => roots.splice(0).forEach((root) => root.unmount()));
  document.body.innerHTML = '';
});

function key(target: Element, k: string, init: KeyboardEventInit = {}) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  });
}
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === name)!;
const click = (b: Element) => act(() => (b as HTMLElement).click());

describe('WaveformView', () => {
  it('is a slider the keyboard moves, with the time read out', () => {
    let position = 0;
    const el = render(<WaveformView waveforms={waveforms} durationSeconds={DURATION} position={90} onSeek={(t) => { position = t; }} width={600} />);
    const slider = el.querySelector('[role="slider"]')!;
    expect(slider.getAttribute('aria-label')).toBe('Playback position');
    expect(slider.getAttribute('aria-valuetext')).toBe('1:30 of 10:00');
    expect([slider.getAttribute('aria-valuemin'), slider.getAttribute('aria-valuemax'), slider.getAttribute('aria-valuenow')]).toEqual(['0', '600', '90']);
    key(slider, 'ArrowRight');
    expect(position).toBe(91);
    key(slider, 'ArrowLeft', { shiftKey: true });
    expect(position).toBe(80);
    key(slider, 'End');
    expect(position).toBe(600);
    key(slider, 'PageDown');
    expect(position).toBe(30);
  });

  it('zooms from the whole episode down towards single words and back', () => {
    const el = render(<WaveformView waveforms={waveforms} durationSeconds={DURATION} position={0} onSeek={() => {}} width={600} />);
    const slider = el.querySelector('[role="slider"]')!;
    expect(slider.getAttribute('data-samples-per-pixel')).toBe(String(Math.round((DURATION * 44100) / 600)));
    for (let i = 0; i < 20; i++) key(slider, '+');
    expect(slider.getAttribute('data-samples-per-pixel')).toBe('64');
    key(slider, '0');
    expect(slider.getAttribute('data-samples-per-pixel')).toBe('44100');
  });
});

describe('CutEditor', () => {
  it('a cut made by keyboard: mark a selection with I and O, remove it, undo, redo, save the edit list', () => {
    const saved: CutEdit[] = [];
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={(e) => saved.push(e)} width={600} />);
    const slider = el.querySelector('[role="slider"]')!;
    for (let i = 0; i < 12; i++) key(slider, 'ArrowRight', { shiftKey: true }); // 2:00
    key(slider, 'i');
    key(slider, 'PageUp'); // 3:00
    key(slider, 'o');
    expect(el.textContent).toContain('Selection 2:00 to 3:00');
    click(button(el, 'Remove selection'));
    expect(el.textContent).toContain('Kept 9:00 in 2 parts');
    key(slider, 'z', { ctrlKey: true });
    expect(el.textContent).toContain('Kept 10:00 in 1 part');
    key(slider, 'z', { ctrlKey: true, shiftKey: true });
    click(button(el, 'Save cut'));
    expect(saved).toEqual([{ KeptRegions: [{ StartSeconds: 0, EndSeconds: 120 }, { StartSeconds: 180, EndSeconds: 600 }], CrossfadeMs: 10 }]);
  });

  it('numeric time entry follows the section 5 time rules (hours at most 99) and the end must follow the start', () => {
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} width={600} />);
    const [start, end] = [...el.querySelectorAll('input:not([type])')] as HTMLInputElement[];
    const type = (input: HTMLInputElement, value: string) => act(() => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    type(start!, '1:60');
    type(end!, '00:02:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('Enter a time as HH:MM:SS.s or M:SS.s (for example 00:01:30.5 or 1:30.5), with minutes and seconds below 60');
    // The message is the start box's: named by it, and the box has the focus.
    expect(start!.getAttribute('aria-invalid')).toBe('true');
    expect(start!.getAttribute('aria-describedby')).toContain(el.querySelector('[role="alert"]')!.id);
    expect(end!.getAttribute('aria-invalid')).toBe('false');
    expect(document.activeElement).toBe(start);
    type(start!, '100:00:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('Hours cannot be more than 99');
    type(start!, '00:03:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('The selection end must be after its start');
    expect(end!.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(end);
    type(start!, '00:01:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')).toBeNull();
    click(button(el, 'Keep selection only'));
    expect(el.textContent).toContain('Kept 1:00 in 1 part');
  });

  it('a selection typed with fractions of a second: M:SS.s and HH:MM:SS,s', () => {
    const saved: CutEdit[] = [];
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={(e) => saved.push(e)} width={600} />);
    const [start, end] = [...el.querySelectorAll('input:not([type])')] as HTMLInputElement[];
    const type = (input: HTMLInputElement, value: string) => act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    type(start!, '0:01.5');
    type(end!, '00:00:04,25');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')).toBeNull();
    click(button(el, 'Keep selection only'));
    click(button(el, 'Save cut'));
    expect(saved.at(-1)?.KeptRegions).toEqual([{ StartSeconds: 1.5, EndSeconds: 4.25 }]);
    // Too many decimals is not a time.
    type(start!, '0:01.5555');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toMatch(/^Enter a time as HH:MM:SS\.s/);
  });

  it('a typed time past the end is refused with the end named, not moved to it', () => {
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} width={600} />);
    const [start, end] = [...el.querySelectorAll('input:not([type])')] as HTMLInputElement[];
    const type = (input: HTMLInputElement, value: string) => act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    type(start!, '00:09:00');
    type(end!, '00:11:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('The clip ends at 00:10:00: enter a time up to then');
    expect(end!.getAttribute('aria-invalid')).toBe('true');
    expect(el.textContent).not.toContain('Selection 9:00');
    type(end!, '00:10:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')).toBeNull();
    expect(el.textContent).toContain('Selection 9:00 to 10:00');
    // On the recording screen the same editor speaks of the recording.
    const rec = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} width={600} audioOf="recording" />);
    const [rs] = [...rec.querySelectorAll('input:not([type])')] as HTMLInputElement[];
    type(rs!, '00:10:01');
    type([...rec.querySelectorAll('input:not([type])')][1] as HTMLInputElement, '00:10:02');
    click(button(rec, 'Set selection'));
    expect(rec.querySelector('[role="alert"]')?.textContent).toBe('The recording ends at 00:10:00: enter a time up to then');
  });
});

describe('CutEditor by pointer (mouse and touch)', () => {
  // The whole 600 s across 600 px: one pixel is one second. happy-dom lays nothing out, so the
  // slider is given the box a browser would give it.
  function editor() {
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} width={600} />);
    const slider = el.querySelector('[role="slider"]') as HTMLElement;
    slider.getBoundingClientRect = () => ({ left: 0, top: 0, right: 600, bottom: 120, width: 600, height: 120, x: 0, y: 0, toJSON: () => ({}) });
    return { el, slider };
  }
  const pointer = (target: Element, type: string, x: number, y: number, pointerType = 'mouse') => act(() => {
    target.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, pointerId: 1, pointerType, button: 0, bubbles: true, cancelable: true }));
  });
  const drag = (slider: Element, from: number, to: number, y: number, pointerType = 'mouse') => {
    pointer(slider, 'pointerdown', from, y, pointerType);
    for (const x of [from + 10, (from + to) / 2, to]) pointer(slider, 'pointermove', x, y, pointerType);
    pointer(slider, 'pointerup', to, y, pointerType);
  };

  it('a mouse drag selects what it crossed, and Remove selection removes it', () => {
    const { el, slider } = editor();
    drag(slider, 120, 180, 20);
    expect(el.textContent).toContain('Selection 2:00 to 3:00');
    expect((el.querySelector('input:not([type])') as HTMLInputElement).value).toBe('00:02:00');
    // The playhead did not move: a drag is not a tap.
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    click(button(el, 'Remove selection'));
    expect(el.textContent).toContain('Kept 9:00 in 2 parts');
    // Right to left selects the same way round.
    drag(slider, 400, 300, 20);
    expect(el.textContent).toContain('Selection 5:00 to 6:40');
  });

  it('a tap seeks and leaves the selection alone', () => {
    const { el, slider } = editor();
    drag(slider, 120, 180, 20);
    pointer(slider, 'pointerdown', 90, 20);
    pointer(slider, 'pointerup', 91, 20);
    expect(slider.getAttribute('aria-valuetext')).toBe('1:30 of 10:00');
    expect(el.textContent).toContain('Selection 2:00 to 3:00');
  });

  it('a finger selects on the lower half; on the upper half it scrolls (the browser cancels the pointer) or taps', () => {
    const { el, slider } = editor();
    drag(slider, 60, 90, 100, 'touch');
    expect(el.textContent).toContain('Selection 1:00 to 1:30');
    // Upper half: moving does not select; a pan ends in pointercancel, a tap seeks.
    pointer(slider, 'pointerdown', 300, 20, 'touch');
    pointer(slider, 'pointermove', 350, 20, 'touch');
    pointer(slider, 'pointercancel', 350, 20, 'touch');
    expect(el.textContent).toContain('Selection 1:00 to 1:30');
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    pointer(slider, 'pointerdown', 300, 20, 'touch');
    pointer(slider, 'pointerup', 300, 20, 'touch');
    expect(slider.getAttribute('aria-valuenow')).toBe('300');
    expect(getComputedStyle(slider).touchAction).toBe('pan-x pan-y');
    expect((el.querySelector('.waveform-select-band') as HTMLElement).style.touchAction).toBe('none');
  });

  it('Mark start and Mark end set the selection at the playhead, without a key', () => {
    const { el, slider } = editor();
    pointer(slider, 'pointerdown', 30, 20, 'touch');
    pointer(slider, 'pointerup', 30, 20, 'touch');
    click(button(el, 'Mark start'));
    pointer(slider, 'pointerdown', 75, 20, 'touch');
    pointer(slider, 'pointerup', 75, 20, 'touch');
    click(button(el, 'Mark end'));
    expect(el.textContent).toContain('Selection 0:30 to 1:15');
    click(button(el, 'Keep selection only'));
    expect(el.textContent).toContain('Kept 0:45 in 1 part');
  });
});

describe('the kept summary in each language', () => {
  it('uses the language\'s own singular and plural, not "part(s)"', () => {
    const one = { duration: '0:12', count: 1 };
    const two = { duration: '0:09', count: 2 };
    expect([m.media_cut_kept_summary(one), m.media_cut_kept_summary(two)]).toEqual(['Kept 0:12 in 1 part', 'Kept 0:09 in 2 parts']);
    expect([m.media_cut_kept_summary(one, { locale: 'de-DE' }), m.media_cut_kept_summary(two, { locale: 'de-DE' })]).toEqual(['Behalten: 0:12 in 1 Teil', 'Behalten: 0:09 in 2 Teilen']);
    expect(m.media_cut_kept_summary(two, { locale: 'fr-FR' })).toBe('Conservé : 0:09 en 2 parties');
    for (const locale of ['es-419', 'it-IT', 'pt-BR', 'en-XA'] as const) {
      const [a, b] = [m.media_cut_kept_summary(one, { locale }), m.media_cut_kept_summary(two, { locale })];
      expect(a).not.toContain('(');
      expect(b).not.toBe(a.replace('1', '2'));
    }
  });
});

/** A stand-in for the <audio> element player: happy-dom plays no audio (Chromium does, in tests/e2e). */
function fakePlainPlayer(log: string[], fail?: MediaError) {
  let at = 0;
  let on = false;
  const player: PlainPlayer & { advance(s: number): void } = {
    async play(from) {
      log.push(`play ${from}`);
      if (fail) throw fail;
      at = from;
      on = true;
    },
    pause() {
      log.push('pause');
      on = false;
    },
    seek(t) {
      log.push(`seek ${t}`);
      at = t;
    },
    position: () => at,
    playing: () => on,
    dispose() {},
    advance(s) {
      at += s;
    },
  };
  return player;
}

describe('Play / Pause of the audio as it is', () => {
  it('plays from the playhead, the playhead follows, Space pauses, and a seek while playing moves the audio', async () => {
    const log: string[] = [];
    const player = fakePlainPlayer(log);
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} createPlainPlayer={() => player} width={600} />);
    const slider = el.querySelector('[role="slider"]')!;
    key(slider, 'PageUp'); // 1:00
    await act(async () => button(el, 'Play').click());
    expect(log).toEqual(['play 60']);
    expect(button(el, 'Pause')).toBeDefined();
    player.advance(5);
    await act(() => new Promise((r) => setTimeout(r, 80)));
    expect(slider.getAttribute('aria-valuetext')).toBe('1:05 of 10:00');
    key(slider, 'PageUp');
    expect(log.at(-1)).toBe('seek 125');
    key(slider, ' ');
    expect(log.at(-1)).toBe('pause');
    expect(button(el, 'Play')).toBeDefined();
  });

  it('a failure to play is said in words, as an alert: offline, why and when it plays', async () => {
    const player = fakePlainPlayer([], new MediaError(MediaErrorCode.Offline, 'offline'));
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} createPlainPlayer={() => player} width={600} />);
    await act(async () => button(el, 'Play').click());
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('This audio is not on this device yet: it plays when you are back online');
    expect(button(el, 'Play')).toBeDefined();
    // Any other failure keeps its own words.
    const gone = fakePlainPlayer([], new MediaError(MediaErrorCode.NotAvailable, 'gone', { status: 404 }));
    const other = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} createPlainPlayer={() => gone} width={600} />);
    await act(async () => button(other, 'Play').click());
    expect(other.querySelector('[role="alert"]')?.textContent).toBe('The audio could not be downloaded: the server does not have this file');
  });
});

describe('markers on the waveform (a recording’s annotations)', () => {
  const markers = [
    { id: 'b', seconds: 240, label: 'Guest arrives' },
    { id: 'a', seconds: 0, label: 'Top of the hour' },
    { id: 'c', seconds: 480, label: 'Listener call' },
  ];

  it('are buttons in time order, named by time and text, that seek the player to their time', async () => {
    const log: string[] = [];
    const player = fakePlainPlayer(log);
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} createPlainPlayer={() => player} markers={markers} width={600} />);
    const group = el.querySelector('[role="group"][aria-label="Annotations on the waveform"]')!;
    const flags = [...group.querySelectorAll('button')];
    expect(flags.map((b) => b.getAttribute('aria-label'))).toEqual(['Go to 0:00: Top of the hour', 'Go to 4:00: Guest arrives', 'Go to 8:00: Listener call']);
    // Where they are on the whole-episode view: one pixel is one second.
    expect(flags.map((b) => b.style.left)).toEqual(['0px', '240px', '480px']);
    const slider = el.querySelector('[role="slider"]')!;
    click(flags[1]!);
    expect(slider.getAttribute('aria-valuetext')).toBe('4:00 of 10:00');
    // While playing, the audio itself moves there.
    await act(async () => button(el, 'Play').click());
    click(flags[2]!);
    expect(log).toEqual(['play 240', 'seek 480']);
    expect(slider.getAttribute('aria-valuetext')).toBe('8:00 of 10:00');
  });

  it('out of a zoomed view stay in the tab order; focusing one brings it into view', () => {
    const el = render(<WaveformView waveforms={waveforms} durationSeconds={DURATION} position={0} onSeek={() => {}} markers={markers} width={600} />);
    const slider = el.querySelector('[role="slider"]')!;
    for (let i = 0; i < 6; i++) key(slider, '+');
    const flag = el.querySelector<HTMLButtonElement>('button[aria-label="Go to 8:00: Listener call"]')!;
    const left = () => Number.parseFloat(flag.style.left);
    expect(left()).toBeGreaterThan(600);
    act(() => flag.focus());
    expect(left()).toBeGreaterThanOrEqual(0);
    expect(left()).toBeLessThanOrEqual(600);
  });

  it('points on the cut’s output (a clip’s chapters and mid-rolls) fall where the cut as edited puts them; one cut away is not shown', () => {
    const outputMarkers = [
      { id: 'chapter-0', seconds: 150.01, label: 'Chapter: News' },
      { id: 'midroll-0', seconds: 590, label: 'Ad break: mid-roll, up to 2 ads' },
    ];
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} outputMarkers={outputMarkers} width={600} />);
    const names = () => [...el.querySelectorAll('[aria-label="Annotations on the waveform"] button')].map((b) => b.getAttribute('aria-label'));
    expect(names()).toEqual(['Go to 2:30: Chapter: News', 'Go to 9:50: Ad break: mid-roll, up to 2 ads']);
    // A minute removed before the chapter: it is a minute later in the original (less the 10 ms crossfade);
    // the episode is now 8:59.99 long, so the mid-roll at 9:50 of it has nowhere to fall.
    const slider = el.querySelector('[role="slider"]')!;
    for (let i = 0; i < 12; i++) key(slider, 'ArrowRight', { shiftKey: true });
    key(slider, 'i');
    key(slider, 'PageUp');
    key(slider, 'o');
    click(button(el, 'Remove selection'));
    expect(names()).toEqual(['Go to 3:30: Chapter: News']);
    key(slider, 'z', { ctrlKey: true });
    expect(names()).toEqual(['Go to 2:30: Chapter: News', 'Go to 9:50: Ad break: mid-roll, up to 2 ads']);
  });

  it('none: no strip', () => {
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} width={600} />);
    expect(el.querySelector('[aria-label="Annotations on the waveform"]')).toBeNull();
  });
});
