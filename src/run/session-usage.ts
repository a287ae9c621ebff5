/**
 * The session's totals: runs, images made and their price units, chat tokens, and
 * the calls the cache saved, added up run after run and kept in sessionStorage so a reload of
 * the tab keeps them and a new tab starts from zero.
 */
import { addRunToSession, emptySessionUsage, type SessionUsage } from '../../api/usage';
import { isApiUsage } from '../../api/usage';
import { createSmallStore, type SmallStore } from '../ui/small-store';

const KEY = 'atelier.session-usage.v1';

export interface SessionUsageStore extends SmallStore<SessionUsage> {
  /** Adds one run's summary. */
  add(summary: Parameters<typeof addRunToSession>[1]): void;
  reset(): void;
}

function isSessionUsage(value: unknown): value is SessionUsage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const counts = [v.runs, v.apiCallsSaved];
  return counts.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0) && isApiUsage(v.used) && isApiUsage(v.saved);
}

/** Reads what this tab kept; a damaged or missing entry starts the totals at zero. */
function read(storage: Pick<Storage, 'getItem'> | null): SessionUsage {
  try {
    const value: unknown = JSON.parse(storage?.getItem(KEY) ?? 'null');
    return isSessionUsage(value) ? value : emptySessionUsage();
  } catch {
    return emptySessionUsage();
  }
}

function browserSession(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage can be refused (privacy modes): the totals then last for the page only.
    return null;
  }
}

export function createSessionUsage(storage: Pick<Storage, 'getItem' | 'setItem'> | null = browserSession()): SessionUsageStore {
  const store = createSmallStore<SessionUsage>(read(storage));
  const write = (value: SessionUsage) => {
    store.set(value);
    try {
      storage?.setItem(KEY, JSON.stringify(value));
    } catch {
      // A full or refused storage loses the totals at the next reload only.
    }
  };
  return {
    ...store,
    add: (summary) => write(addRunToSession(store.get(), summary)),
    reset: () => write(emptySessionUsage()),
  };
}
