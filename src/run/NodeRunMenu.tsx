/**
 * "Run to here" and "Run from here" on a node: a ▶ button in the node's title bar opens a small
 * menu (NodeRunMenuList.tsx), and a right-click anywhere on the
 * node opens the same menu (one listener for every node, in RunProvider). Ctrl+Shift+Enter and
 * Ctrl+Alt+Enter do the same for the selected node (RunProvider).
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';
import { useRunContext } from './context';
import NodeRunMenuList from './NodeRunMenuList';



export function NodeRunMenu({ nodeId }: { nodeId: string }) {
  const { describeNode, runMenus } = useRunContext();
  const subscribe = useCallback((listener: () => void) => runMenus.subscribe(nodeId, listener), [runMenus, nodeId]);
  const open = useSyncExternalStore(subscribe, () => runMenus.isOpen(nodeId));
  const button = useRef<HTMLButtonElement>(null);
  const label = describeNode(nodeId).label;
  const close = useCallback((refocus: boolean) => {
    runMenus.close(nodeId);
    if (refocus) button.current?.focus();
  }, [runMenus, nodeId]);

  return (
    <span className="node-run-menu nodrag nokey">
      <button
        ref={button}
        type="button"
        className="icon-button nodrag"
        aria-label={`Run options for ${label}`}
        aria-haspopup="menu"
        aria-expanded={open}
        title="Run to here, run from here (right-click the node)"
        onClick={() => (open ? runMenus.close(nodeId) : runMenus.open(nodeId))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            e.stopPropagation();
            runMenus.open(nodeId);
          }
        }}
      >
        ▶
      </button>
      {open && (
        <NodeRunMenuList nodeId={nodeId} label={label} button={button} close={close} />
      )}
    </span>
  );
}
