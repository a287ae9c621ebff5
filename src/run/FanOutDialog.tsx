/**
 * Asks whether a node may run more times than the fan-out limit (Settings → Fan-out limit)
 * allows, before it sends anything: how many runs, from which lists, and the limit. Closing the
 * dialog is a no; the node then fails saying why, and the rest of the run goes on.
 */
import { useSyncExternalStore } from 'react';
import { Dialog } from '../ui/Dialog';
import { useRunContext } from './context';
import type { FanOutAsks } from './fan-out-ask';

export function FanOutDialog({ asks }: { asks: FanOutAsks }) {
  const { describeNode } = useRunContext();
  const pending = useSyncExternalStore(asks.current.subscribe, asks.current.get);
  if (!pending) return null;
  const name = describeNode(pending.nodeId).label;
  const runs = pending.description === String(pending.count) ? `${pending.count} times` : `${pending.description} times`;
  return (
    <Dialog
      title={`Run '${name}' ${pending.count} times?`}
      onClose={() => pending.answer(false)}
      footer={(
        <>
          <button type="button" className="button" onClick={() => pending.answer(false)}>Don't run it</button>
          <button type="button" className="button primary" onClick={() => pending.answer(true)}>Run all {pending.count}</button>
        </>
      )}
    >
      <p>
        A list reaches '{name}', so it would run once per item: {runs}, sending a request each time. That is more than your
        fan-out limit of {pending.limit} (Settings → Fan-out limit).
      </p>
    </Dialog>
  );
}
