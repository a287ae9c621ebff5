/** What this tab's runs have used so far (kept in sessionStorage), with a way to start over. */
import { useRunContext, useSessionUsage } from './context';
import { chatTokensText, plural } from './format';


export function SessionTotals() {
  const { session } = useRunContext();
  const usage = useSessionUsage();
  if (usage.runs === 0) return null;
  const { used } = usage;
  return (
    <section className="run-session" aria-label="This session">
      <h2 className="run-panel__heading">This session</h2>
      <dl className="run-summary__figures">
        <dt>Runs</dt>
        <dd>{usage.runs}</dd>
        <dt>Calls made</dt>
        <dd>{used.imageCalls + used.chatCalls}</dd>
        <dt>Images made</dt>
        <dd>{used.images} ({plural(used.priceUnits, 'price unit')})</dd>
        {used.chatCalls > 0 && (
          <>
            <dt>Chat tokens</dt>
            <dd title={chatTokensText(used).title}>{chatTokensText(used).text}</dd>
          </>
        )}
        <dt>Calls saved by the cache</dt>
        <dd>{usage.apiCallsSaved}{usage.saved.images > 0 && ` (${plural(usage.saved.images, 'image')}, ${plural(usage.saved.priceUnits, 'price unit')})`}</dd>
      </dl>
      <button type="button" className="run-link" onClick={() => session.reset()}>
        Reset the session totals
      </button>
    </section>
  );
}
