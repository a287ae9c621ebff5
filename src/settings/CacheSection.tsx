/**
 * The settings' "Cached results" section: how much the result cache holds (node
 * results kept in IndexedDB, keyed by content) and a way to empty it, asked twice because the next
 * run pays again for every node it had answered. The run panel's estimate asks again once the
 * cache is cleared (the controller tells the estimator).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CacheStats } from '../../workers/cache';
import { useRunContext, useRunOverview } from '../run/context';
import { formatBytes, plural } from '../run/format';
import { toast } from '../ui/toast';

type Shown = { status: 'asking' } | { status: 'known'; stats: CacheStats } | { status: 'unknown'; reason: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function describe(stats: CacheStats): string {
  const held = `${plural(stats.entries, 'result')} · ${formatBytes(stats.bytes)} of ${formatBytes(stats.maxBytes)}`;
  if (stats.persistent) return `${held}, kept across reloads.`;
  return `${held}, kept only while this page is open${stats.notPersistentBecause ? `: ${stats.notPersistentBecause}` : ''}.`;
}

export function CacheSection() {
  const { controller } = useRunContext();
  const { running } = useRunOverview();
  const [shown, setShown] = useState<Shown>({ status: 'asking' });
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const live = useRef(true);
  const trigger = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const status = useRef<HTMLParagraphElement>(null);

  const refresh = useCallback(async () => {
    try {
      const stats = await controller.cacheStats();
      if (live.current) setShown({ status: 'known', stats });
    } catch (error) {
      if (live.current) setShown({ status: 'unknown', reason: messageOf(error) });
    }
  }, [controller]);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  // Again whenever a run ends: it may have added results.
  useEffect(() => {
    if (!running) void refresh();
  }, [running, refresh]);

  // The safe choice has the focus while the question is asked.
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);

  const cancel = () => {
    setConfirming(false);
    // After the question goes away, focus returns to the button that asked it.
    requestAnimationFrame(() => trigger.current?.focus());
  };

  const clear = async () => {
    setConfirming(false);
    setClearing(true);
    const before = shown.status === 'known' ? shown.stats : undefined;
    try {
      await controller.clearCache();
      const what = before ? `${plural(before.entries, 'cached result')} (${formatBytes(before.bytes)})` : 'the cached results';
      toast(`Cleared ${what}: the next run asks the APIs again`, 'success');
    } catch (error) {
      toast(`The cached results could not be cleared: ${messageOf(error)}`, 'error');
    } finally {
      await refresh();
      if (live.current) {
        setClearing(false);
        status.current?.focus();
      }
    }
  };

  const empty = shown.status === 'known' && shown.stats.entries === 0;
  return (
    <fieldset className="settings-group">
      <legend>Cached results</legend>
      <p className="field-hint">
        A node whose inputs and parameters have not changed is answered from this browser’s cache instead of asking the API again: the cost estimate counts it as cached (free). Every workflow shares the cache.
      </p>
      <p ref={status} tabIndex={-1} className={shown.status === 'unknown' ? 'field-issue' : 'cache-stats'} aria-live="polite">
        {shown.status === 'asking' && 'Asking the cache…'}
        {shown.status === 'known' && describe(shown.stats)}
        {shown.status === 'unknown' && `The cache did not say what it holds: ${shown.reason}`}
      </p>
      {confirming ? (
        <p className="cache-confirm" role="group" aria-label="Confirm clearing cached results">
          Forget every cached result? The next run asks the APIs again, and pays for it, for every node.{' '}
          <button type="button" className="button danger" onClick={() => void clear()}>Clear</button>{' '}
          <button ref={keep} type="button" className="button" onClick={cancel}>Keep</button>
        </p>
      ) : (
        <p className="cache-confirm">
          <button ref={trigger} type="button" className="button" disabled={running || clearing || empty} onClick={() => setConfirming(true)}>
            {clearing ? 'Clearing…' : 'Clear cached results…'}
          </button>
          {running && <span className="field-hint"> A run is under way: clear the cache once it ends.</span>}
        </p>
      )}
    </fieldset>
  );
}
