// The one module that imports jotai (STYLE.md habit 8): atoms and hooks the app shares.
import { atom, createStore, Provider, useAtom, useAtomValue, useSetAtom } from 'jotai';

export { atom, Provider, useAtom, useAtomValue, useSetAtom };
export type { PrimitiveAtom, WritableAtom } from 'jotai';
export const appStore = createStore();
