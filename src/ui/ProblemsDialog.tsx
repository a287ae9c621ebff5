/**
 * What was wrong with a file (refused: nothing changed) or worth knowing about it (opened with
 * warnings): each problem with where it is, as plain text.
 */
import { useSmallStore } from './small-store';
import { Dialog } from './Dialog';
import { closeProblems, uiStore } from './ui-state';

const SHOWN = 200;

export function ProblemsDialog() {
  const report = useSmallStore(uiStore).problems;
  if (!report) return null;
  const rest = report.issues.length - SHOWN;
  return (
    <Dialog
      title={report.title}
      onClose={closeProblems}
      className={`problems-dialog ${report.severity}`}
      footer={<button type="button" className="button primary" onClick={closeProblems}>OK</button>}
    >
      <p>{report.summary}</p>
      <ul className="problem-list">
        {report.issues.slice(0, SHOWN).map((issue, i) => (
          <li key={i}>
            {issue.path !== '(file)' && <code className="problem-path">{issue.path}</code>}
            <span className="problem-message">{issue.message}</span>
          </li>
        ))}
      </ul>
      {rest > 0 && <p className="muted">…and {rest} more.</p>}
    </Dialog>
  );
}
