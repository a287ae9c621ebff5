/** Keyboard shortcuts, and a few lines on each part of the editor a shortcut does not show (loaded when first opened). */
import { SHORTCUTS } from '../canvas/shortcuts';
import { PortLegendList } from '../canvas/PortLegend';
import { Dialog } from './Dialog';

export default function HelpDialog({ onClose }: { onClose: () => void }) {
  const groups = [...new Set(SHORTCUTS.map((s) => s.group))];
  return (
    <Dialog title="Keyboard shortcuts and help" onClose={onClose} className="help-dialog">
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
        <h3>Inpaint mask</h3>
        <p>On an Inpaint node, <strong>Paint mask…</strong> (Edit mask… once there is one) opens the painter over the node's input picture, or a blank canvas at its resolution. White is repainted, the rest kept. A wire into the Mask input is used instead of the painted mask.</p>
      </section>
      <section>
        <h3>Runs and results</h3>
        <p>The count beside Run repeats the run; each node's “After each run” says whether its seed stays, counts up or is drawn anew. The estimate before a run counts what it will cost; what is cached costs nothing.</p>
        <p>On an image result: pin its seed on the node, or download it with the workflow that made it inside. The run history keeps outputs across reloads; “Open this run's workflow” brings that workflow back (Undo returns to yours).</p>
      </section>
      <section>
        <h3>Groups and notes</h3>
        <p>Moving a group moves what is inside it; a node added inside a group joins it. Notes are Markdown; double-click one to write.</p>
      </section>
      <section>
        <h3>Your work</h3>
        <p>Every change is autosaved in this browser; Save downloads the workflow file to share. Settings (where requests go, tokens) stay in this browser and are never written into a workflow file.</p>
        <p>Before a save or a download, text that looks like a key or token is pointed out, and can be removed. Opening someone's file drops fields shaped like credentials and says so. When a second tab opens the same workflow, it asks what to do and autosaves nothing until you choose.</p>
      </section>
    </Dialog>
  );
}
