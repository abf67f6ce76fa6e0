// The list of keyboard shortcuts (issue 36), opened with '?' (ShortcutListKey). It lists the keys
// the app's handlers know, grouped where they work:
//   anywhere   ? (ShortcutListKey), / and Ctrl+K (src/lib/search-shortcut.ts), F8 (Toaster),
//              Escape (Ark's dialogs, menus, toasts), ← → (PageHeader's tabs)
//   playlist   the reorder handle's keys (src/features/playlists/PlaylistScreen.tsx)
//   waveform   WaveformView's keys (src/ui/audio/WaveformView.tsx)
//   cut editor CutEditor's undo and redo (src/ui/audio/CutEditor.tsx)
//   markers    WaveformMarkers' keys on a focused marker (src/ui/audio/WaveformMarkers.tsx)
// A handler that gains or loses a key changes this list too.
import { Fragment } from 'react';
import { TOAST_HOTKEY } from '../domain/constants.ts';
import { m } from '../paraglide/messages.js';
import { Dialog } from './Dialog.tsx';
import { isApplePlatform } from './KeyboardHint.tsx';
import './shortcuts.css';

/** One key: what the keycap shows, and its name where the cap is a symbol a reader may not say. */
type Key = { cap: string; name?: string };
/** Keys pressed together. */
type Combo = Key[];
type Shortcut = { combos: Combo[]; action: string };
type Group = { id: string; title: string; shortcuts: Shortcut[] };

const key = (cap: string, name?: string): Key => (name === undefined ? { cap } : { cap, name });

export function shortcutGroups(apple: boolean): Group[] {
  const mod = apple ? key('⌘', m.shell_key_command()) : key(m.shell_key_ctrl());
  const shift = key(m.shell_key_shift());
  const left = key('←', m.shell_key_left());
  const right = key('→', m.shell_key_right());
  const up = key('↑', m.shell_key_up());
  const down = key('↓', m.shell_key_down());
  const home = key(m.shell_key_home());
  const end = key(m.shell_key_end());
  const escape = key(m.shell_key_escape());
  return [
    {
      id: 'anywhere',
      title: m.shell_shortcuts_group_anywhere(),
      shortcuts: [
        { combos: [[key('?')]], action: m.shell_shortcut_show_list() },
        { combos: [[key('/')]], action: m.shell_shortcut_search_here() },
        { combos: [[mod, key('K')]], action: m.shell_shortcut_search_screen() },
        { combos: [[key(TOAST_HOTKEY)]], action: m.shell_shortcut_newest_toast() },
        { combos: [[escape]], action: m.shell_shortcut_close() },
        { combos: [[left], [right]], action: m.shell_shortcut_tabs() },
      ],
    },
    {
      id: 'playlist',
      title: m.shell_shortcuts_group_playlist(),
      shortcuts: [
        { combos: [[up], [down]], action: m.shell_shortcut_move_clip() },
        { combos: [[home], [end]], action: m.shell_shortcut_move_clip_ends() },
        { combos: [[escape]], action: m.shell_shortcut_cancel_drag() },
      ],
    },
    {
      id: 'waveform',
      title: m.shell_shortcuts_group_waveform(),
      shortcuts: [
        { combos: [[key(m.shell_key_space())]], action: m.shell_shortcut_play() },
        { combos: [[left], [right]], action: m.shell_shortcut_seek_second() },
        { combos: [[shift, left], [shift, right]], action: m.shell_shortcut_seek_ten() },
        { combos: [[key(m.shell_key_page_up())], [key(m.shell_key_page_down())]], action: m.shell_shortcut_seek_minute() },
        { combos: [[home], [end]], action: m.shell_shortcut_seek_ends() },
        { combos: [[key('+')], [key('−', '-')]], action: m.shell_shortcut_zoom() },
        { combos: [[key('0')]], action: m.shell_shortcut_zoom_all() },
        { combos: [[key('I')]], action: m.shell_shortcut_mark_start() },
        { combos: [[key('O')]], action: m.shell_shortcut_mark_end() },
      ],
    },
    {
      id: 'cut-editor',
      title: m.shell_shortcuts_group_cut_editor(),
      shortcuts: [
        { combos: [[mod, key('Z')]], action: m.shell_shortcut_undo() },
        { combos: [[mod, shift, key('Z')], [mod, key('Y')]], action: m.shell_shortcut_redo() },
      ],
    },
    {
      id: 'markers',
      title: m.shell_shortcuts_group_markers(),
      shortcuts: [
        { combos: [[left], [right]], action: m.shell_shortcut_marker_move() },
        { combos: [[shift, left], [shift, right]], action: m.shell_shortcut_marker_move_ten() },
        { combos: [[key(m.shell_key_delete())]], action: m.shell_shortcut_marker_remove() },
        { combos: [[key('M')]], action: m.shell_shortcut_marker_add() },
      ],
    },
  ];
}

function KeyCap({ value }: { value: Key }) {
  if (value.name === undefined) return <kbd>{value.cap}</kbd>;
  return (
    <kbd>
      <span aria-hidden="true">{value.cap}</span>
      <span className="visually-hidden">{value.name}</span>
    </kbd>
  );
}

function Combos({ combos }: { combos: Combo[] }) {
  return combos.map((combo, i) => (
    <Fragment key={i}>
      {i > 0 && <span className="shortcut-or"> {m.shell_key_or()} </span>}
      <kbd className="shortcut-combo">
        {combo.map((k, j) => (
          <Fragment key={j}>
            {j > 0 && '+'}
            <KeyCap value={k} />
          </Fragment>
        ))}
      </kbd>
    </Fragment>
  ));
}

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const groups = shortcutGroups(isApplePlatform());
  return (
    <Dialog open={open} onClose={onClose} title={m.shell_shortcuts_title()} description={m.shell_shortcuts_intro()} width="narrow">
      {groups.map((group) => (
        <section key={group.id} className="shortcut-group" aria-labelledby={`shortcuts-${group.id}`}>
          <h3 id={`shortcuts-${group.id}`}>{group.title}</h3>
          <dl className="shortcut-list">
            {group.shortcuts.map((s) => (
              <div key={s.action} className="shortcut">
                <dt><Combos combos={s.combos} /></dt>
                <dd>{s.action}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}
