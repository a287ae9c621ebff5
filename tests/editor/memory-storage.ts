/** Settings storages kept in plain maps, for tests that look at what was stored where. */
import type { SettingsStorage } from '../../src/settings/settings';

export function memoryStorage() {
  const make = () => {
    const map = new Map<string, string>();
    return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
  };
  const local = make();
  const session = make();
  const storage: SettingsStorage = { local, session };
  return { storage, local: local.map, session: session.map };
}
