// A component test's audio player moved as a person moves it (happy-dom plays nothing): its
// position set and the timeupdate the browser would send, so the page reads the new position.
import { settle } from './dom-actions.ts';

/** Puts the player at `seconds` (of the audio it plays) and lets the page see it. */
export async function playAt(audio: HTMLMediaElement, seconds: number): Promise<void> {
  const { act } = await import('react');
  await act(async () => {
    audio.currentTime = seconds;
    audio.dispatchEvent(new Event('timeupdate'));
  });
  await settle(20);
}
