/**
 * On a node that takes two or more lists one item at a time: whether it pairs their items one by
 * one (the default) or runs every combination, with how many runs each gives.
 */
import type { PortSpec } from '../../nodes/types';
import { useEditorStore } from '../store/react';

export interface FanOutChoiceProps {
  nodeId: string;
  title: string;
  mode: 'zip' | 'cross';
  /** The inputs that take a list one item at a time. */
  lists: readonly PortSpec[];
}

export function FanOutChoice({ nodeId, title, mode, lists }: FanOutChoiceProps) {
  const store = useEditorStore();
  const names = lists.map((p) => p.label).join(' × ');
  return (
    <div className="fan-out-choice nodrag">
      <label>
        <span>Lists ({names})</span>
        <select
          className="input"
          aria-label={`How ${title} pairs its lists`}
          value={mode}
          onChange={(e) => store.setFanOut(nodeId, e.target.value === 'cross' ? 'cross' : 'zip')}
        >
          <option value="zip">Item by item</option>
          <option value="cross">Every combination</option>
        </select>
      </label>
    </div>
  );
}
