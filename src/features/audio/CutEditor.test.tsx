// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { Waveform } from '../../media/peaks.ts';
import type { CutEdit } from '../../protocol/media.ts';
import { CutEditor } from './CutEditor.tsx';
import { WaveformView } from './WaveformView.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const DURATION = 600;
const waveforms: Waveform[] = [256, 4096].map((spp) => {
  const length = Math.ceil((DURATION * 44100) / spp);
  return { version: 2, channels: 1, sampleRate: 44100, samplesPerPixel: spp, bits: 16, length, data: new Int16Array(length * 2) };
});

function render(node: React.ReactNode): HTMLElement {
  const el = document.createElement('div');
  document.body.append(el);
  act(() => createRoot(el).render(node));
  return el;
}
afterEach(() => {
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
    expect(el.textContent).toContain('Kept 9:00 in 2 part(s)');
    key(slider, 'z', { ctrlKey: true });
    expect(el.textContent).toContain('Kept 10:00 in 1 part(s)');
    key(slider, 'z', { ctrlKey: true, shiftKey: true });
    click(button(el, 'Save cut'));
    expect(saved).toEqual([{ KeptRegions: [{ StartSeconds: 0, EndSeconds: 120 }, { StartSeconds: 180, EndSeconds: 600 }], CrossfadeMs: 10 }]);
  });

  it('numeric time entry follows the HH:MM:SS rule (hours at most 99) and the end must follow the start', () => {
    const el = render(<CutEditor waveforms={waveforms} durationSeconds={DURATION} onSave={() => {}} width={600} />);
    const [start, end] = [...el.querySelectorAll('input:not([type])')] as HTMLInputElement[];
    const type = (input: HTMLInputElement, value: string) => act(() => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    type(start!, '1:00');
    type(end!, '00:02:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toMatch(/.+/);
    type(start!, '100:00:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toMatch(/99/);
    type(start!, '00:03:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('The selection end must be after its start');
    type(start!, '00:01:00');
    click(button(el, 'Set selection'));
    expect(el.querySelector('[role="alert"]')).toBeNull();
    click(button(el, 'Keep selection only'));
    expect(el.textContent).toContain('Kept 1:00 in 1 part(s)');
  });
});
