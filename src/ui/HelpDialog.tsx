/** Keyboard shortcuts and a few words on how the editor works (loaded when first opened). */
import { SHORTCUTS } from '../canvas/shortcuts';
import { PortLegendList } from '../canvas/PortLegend';
import { Dialog } from './Dialog';

export default function HelpDialog({ onClose }: { onClose: () => void }) {
  const groups = [...new Set(SHORTCUTS.map((s) => s.group))];
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} className="help-dialog">
      {groups.map((group) => (
        <section key={group}>
          <h3>{group}</h3>
          <table className="shortcut-table">
            <tbody>
              {SHORTCUTS.filter((s) => s.group === group).map((s) => (
                <tr key={s.keys + s.action}>
                  <th scope="row"><kbd>{s.keys}</kbd></th>
                  <td>{s.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <section>
        <h3>Ports</h3>
        <p>Wires carry one kind of value; a port's colour says which. Text converts to a number where it parses (a seed), and an image to a list of one.</p>
        <PortLegendList />
      </section>
      <section>
        <h3>Your work</h3>
        <p>Every change is autosaved in this browser; Save downloads the workflow file to share. Settings (where requests go, tokens) stay in this browser and are never written into a workflow file.</p>
      </section>
    </Dialog>
  );
}
