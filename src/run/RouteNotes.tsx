/**
 * Beside the cost of a run, where its requests go when that is worth knowing before it runs:
 * chat on the local stand-in (named as what it is), and the image engines it uses whose backend
 * cannot run (ComfyUI with no checkpoint for that engine), each with where to fix it.
 */
import { useSyncExternalStore } from 'react';
import { apisUsedBy } from '../../nodes/api-use';
import type { Workflow } from '../../workflow/schema';
import { chatNote, enginesUsedBy, engineProblems } from '../settings/route-notes';
import { serverInfo } from '../settings/server-info';
import { settingsStore, useSettings } from '../settings/settings-store';

export default function RouteNotes({ workflow }: { workflow: Workflow }) {
  const settings = useSettings();
  const info = useSyncExternalStore(serverInfo.subscribe, serverInfo.get, serverInfo.get);
  const uses = apisUsedBy(workflow.nodes);
  // On the local route everything is the stand-in, and the route says so already.
  const chat = uses.text && settings.mode !== 'local' ? chatNote(settings, info) : undefined;
  const engines = uses.image ? engineProblems(settings, info, settingsStore.backendRules(), enginesUsedBy(workflow.nodes)) : [];
  if (chat === undefined && engines.length === 0) return null;
  return (
    <div className="run-estimate__routes" role="group" aria-label="Where requests go">
      {chat !== undefined && <p className="run-estimate__note">{chat}</p>}
      {engines.map((problem) => <p key={problem} className="run-estimate__note field-issue">{problem}</p>)}
    </div>
  );
}
