/**
 * Beside the cost of a run: per image node, what its backend approximates or leaves out of the
 * request ("Text to image on OpenAI Images: Negative prompt, Seed and Steps are not sent;
 * Width: 896×1152 becomes 1024×1536…"), in the open, since it changes the picture. What a
 * backend refuses outright is not here: it is a problem that stops the run, on the node's field.
 */
import type { TranslationNote } from '../../api/backends/types';
import { paramOfField } from '../../nodes/field-params';
import type { NodeEstimate } from '../../workers/estimate';
import { useRunContext } from './context';

/** "A, B and C". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** One node's notes in a sentence or two: the fields left out by name, the approximations in full. */
export function notesLine(notes: readonly TranslationNote[], label: (field: string) => string): string {
  const left = [...new Set(notes.filter((n) => n.treatment === 'not-sent').map((n) => label(n.field)))];
  const parts = [
    ...(left.length === 0 ? [] : [`${listed(left)} ${left.length === 1 ? 'is' : 'are'} not sent`]),
    ...notes.filter((n) => n.treatment === 'approximated').map((n) => `${label(n.field)}: ${n.message}`),
  ];
  return parts.join('; ');
}

export default function BackendNotes({ nodes }: { nodes: readonly NodeEstimate[] }) {
  const { describeNode, focusNode } = useRunContext();
  const changed = nodes.filter((n) => n.backend !== undefined && n.backend.notes.length > 0);
  if (changed.length === 0) return null;
  return (
    <div className="run-estimate__backends" role="group" aria-label="What the backends change">
      <p className="run-estimate__note">What the image backends change:</p>
      <ul>
        {changed.map((n) => {
          const node = describeNode(n.nodeId);
          const label = (field: string) => node.fieldLabel?.(paramOfField(field)) ?? field;
          const notes = n.backend!.notes;
          return (
            <li key={n.nodeId}>
              <button
                type="button"
                className="run-link"
                title={notes.map((note) => `${label(note.field)}: ${note.message}`).join('\n')}
                onClick={() => focusNode(n.nodeId)}
              >
                <strong>{node.label}</strong> on {n.backend!.label}: {notesLine(notes, label)}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
