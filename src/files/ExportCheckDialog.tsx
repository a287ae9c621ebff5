/**
 * What the credential check found before an export, each finding by node and field with a
 * masked hint (never the secret), and the choice: export with them removed, or cancel.
 */
import { Dialog } from '../ui/Dialog';
import { useSmallStore } from '../ui/small-store';
import { exportCheckStore } from './export-check-store';

const SHOWN = 50;

export function ExportCheckDialog() {
  const check = useSmallStore(exportCheckStore);
  if (!check) return null;
  const { findings, purpose, removable, editsCanvas } = check;
  const verb = purpose === 'save' ? 'Save' : 'Copy';
  const many = findings.length === 1 ? 'one field that looks like it holds' : `${findings.length} fields that look like they hold`;
  return (
    <Dialog
      title="This workflow may hold credentials"
      onClose={() => check.decide(false)}
      className="export-check-dialog"
      footer={(
        <>
          <button type="button" className="button" onClick={() => check.decide(false)}>Cancel</button>
          <button type="button" className="button primary" disabled={!removable} onClick={() => check.decide(true)}>
            {verb} without them
          </button>
        </>
      )}
    >
      <p>
        Before it leaves this page: the workflow has {many} a key, token or password. Anyone you share it with could use them.
      </p>
      <ul className="problem-list" aria-label="What looks like a credential">
        {findings.slice(0, SHOWN).map((f, i) => (
          <li key={i}>
            <span className="problem-path">{check.places[i] ?? f.field}</span>
            <span className="problem-message">{f.kind} <code>{f.preview}</code></span>
          </li>
        ))}
      </ul>
      {findings.length > SHOWN && <p className="muted">…and {findings.length - SHOWN} more.</p>}
      {removable
        ? (
          <p className="muted">
            {editsCanvas
              ? 'They are taken out of the workflow on the canvas too (Undo brings them back) and the file is saved without them.'
              : 'The copy leaves without them; the canvas keeps its text as it is.'}
          </p>
        )
        : <p className="muted">Some are in a node type or a port name, which only you can change: fix those, then try again.</p>}
    </Dialog>
  );
}
