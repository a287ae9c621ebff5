/**
 * The live settings: one small store shared by the settings dialog and the run side, written
 * through to storage on every change, the image backends' part under its own keys
 * (backend-settings.ts). `useSettings()` re-renders on change.
 */
import { useSyncExternalStore } from 'react';
import { createSmallStore } from '../ui/small-store';
import { backendRules } from './backend-settings';
import type { BackendRules } from './backend-types';
import { loadSettings, saveSettings, DEFAULT_SETTINGS, type Settings, type SettingsStorage } from './settings';

export interface SettingsStore {
  get(): Settings;
  update(change: Partial<Settings>): void;
  subscribe(listener: () => void): () => void;
  /** How the image backends' settings are read, saved, resolved and kept secret. */
  backendRules(): BackendRules;
}

export function createSettingsStore(storage: SettingsStorage | null): SettingsStore {
  const store = createSmallStore(storage ? loadSettings(storage, backendRules) : DEFAULT_SETTINGS);
  return {
    get: store.get,
    update(change) {
      const next = { ...store.get(), ...change };
      if (storage) saveSettings(next, storage, backendRules);
      store.set(next);
    },
    subscribe: store.subscribe,
    backendRules: () => backendRules,
  };
}

function browserStorage(): SettingsStorage | null {
  try {
    return typeof window === 'undefined' ? null : { local: window.localStorage, session: window.sessionStorage };
  } catch {
    // Storage can be refused (privacy modes): the settings then last for the page only.
    return null;
  }
}

/** The settings of this browser. */
export const settingsStore: SettingsStore = createSettingsStore(browserStorage());

export function useSettings(): Settings {
  return useSyncExternalStore(settingsStore.subscribe, settingsStore.get, settingsStore.get);
}
